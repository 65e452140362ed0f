"""House-rule switches on a page: one shape for every game, read back one way.

A game gives the words of each switch (:class:`Words`: a label, a line of help and, for a
switch with choices, each choice's words); :func:`switch_labels` puts them together with the
library's own metadata of the rules class (the fields, their defaults and types, ``CHOICES``,
and ``NAMES``: the switches' names, for a game whose refusals name a switch — the label then
comes from there, said once) into :class:`SwitchLabel` records, which ``templates/partials/switches.html`` draws: a choice
list, a number (an amount) or an on/off box.  A field of the rules class with no words is a
mistake caught when the page is drawn (and by the tests), never a switch silently missing.

What a form sent comes back through :func:`sent_switches` (the switches it carries: a box
present is on, absent off) and :func:`rules_from_form` (the rules object, or the defaults and the
reason beside the switches).  The rules a phone kept (its cookie, read by
:func:`referee.web.tables.remembered`) come back through :func:`kept_rules`.

Nothing here knows Flask: the phone's engine (:mod:`referee.web.phone`) reads its forms and
its kept rules with the same functions.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee.errors import RefereeError
from referee.switches import rules_from_mapping
from referee.text import Message
from referee.web.words import say

R = TypeVar("R")


@dataclass(frozen=True, slots=True, kw_only=True)
class Words:
    """A switch in the players' words (already in the reader's language)."""

    label: str = ""
    """The switch's name; none when the rules class names its switches (``NAMES``)."""
    help: str
    choices: Mapping[Any, str] = field(default_factory=dict)
    """Each choice's words, by its value (a switch the library lists in ``CHOICES``, or a
    number the page offers as a list, such as a number of decks)."""
    low: int | None = None
    high: int | None = None
    """The bounds of an amount (a whole number) when they are not 0 to 1000."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SwitchLabel:
    """One switch as a page shows it: its id (the form field), words, and kind of field."""

    id: str
    label: str
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    """(value, words) for a choice list; empty for an on/off box or an amount."""
    amount: bool = False
    """A whole number typed in (an amount of points)."""
    min: int | None = None
    max: int | None = None


def switch_labels(cls: type, words: Mapping[str, Words], ids: Sequence[str] | None = None) -> list[SwitchLabel]:
    """The switches of the rules class ``cls`` (those of ``ids``, else all, in the order of
    ``words``) as pages show them.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     faces: str = "ten"
    ...     doubles: bool = False
    ...     stake: int = 2
    ...     CHOICES = {"faces": ("ten", "rank")}
    >>> [s.choices or s.amount for s in switch_labels(Demo, {
    ...     "doubles": Words(label="Doubles", help="Twice the points."),
    ...     "faces": Words(label="Faces", help="Worth", choices={"ten": "10", "rank": "11-13"}),
    ...     "stake": Words(label="Stake", help="Points")})]
    [False, (('ten', '10'), ('rank', '11-13')), True]
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    missing = sorted(set(fields) - set(words))
    if missing:
        raise KeyError(f"the switch {missing[0]!r} of {cls.__name__} has no words")
    library_choices: Mapping[str, tuple[Any, ...]] = getattr(cls, "CHOICES", {})
    names: Mapping[str, Message] = getattr(cls, "NAMES", {})
    shown: list[SwitchLabel] = []
    for key in ids if ids is not None else list(words):
        told = words[key]
        label = told.label or say(names[key])
        options = library_choices.get(key)
        if options is not None:
            choices = tuple((str(value), told.choices[value]) for value in options)
        else:
            choices = tuple((str(value), text) for value, text in told.choices.items())
        hint = hints.get(key)
        amount = not choices and hint is int
        shown.append(SwitchLabel(
            id=key, label=label, help=told.help, choices=choices, amount=amount,
            min=told.low if amount else None, max=told.high if amount else None,
        ))
    return shown


def sent_switches(form: Mapping[str, Any], cls: type, ids: Sequence[str] | None = None) -> dict[str, Any]:
    """The switches of ``cls`` (or of ``ids``) that a form sent: a checkbox whose
    ``<id>__present`` came is on when sent, off when not; other fields as given."""
    values: dict[str, Any] = {}
    for key in ids if ids is not None else [f.name for f in dataclasses.fields(cls)]:
        if f"{key}__present" in form or key in form:
            values[key] = form.get(key, "off")
    return values


def rules_from_form(
    form: Mapping[str, Any], cls: type[R], errors: dict[str, str], *, ids: Sequence[str] | None = None,
) -> R:
    """The rules object the form's switches make; when they do not read, the defaults and the
    reason in ``errors["rules"]`` (shown beside the switches)."""
    try:
        return rules_from_mapping(cls, sent_switches(form, cls, ids))
    except RefereeError as exc:
        errors["rules"] = say(exc)
        return cls()


def kept_rules(cls: type[R], values: Mapping[str, Any]) -> R:
    """The rules class ``cls`` from the switches a phone kept (``values``): a kept switch that
    no longer reads (a renamed id, a value the switch does not take any more) falls back to its
    default, the others count.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     doubles: bool = False
    ...     faces: str = "ten"
    ...     CHOICES = {"faces": ("ten", "rank")}
    >>> kept_rules(Demo, {"doubles": True, "faces": "sideways", "gone": 1})
    Demo(doubles=True, faces='ten')
    """
    try:
        return rules_from_mapping(cls, dict(values))
    except (ValueError, TypeError):
        pass
    good: dict[str, Any] = {}
    for key, value in values.items():
        try:
            rules_from_mapping(cls, {**good, key: value})
        except (ValueError, TypeError):
            continue
        good[key] = value
    return rules_from_mapping(cls, good)
