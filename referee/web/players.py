"""The players a new-game form names, read the same way for every game (no Flask, no
database: the phone reads a game started offline with it too).

Every game's new-game form sends its players' names (``name0``, ``name1``, … or a ``names``
list) and may mark one of the rows (who deals first, who leads): :func:`read_players` reads
them once, checks the names (:func:`clean_names`: a count in range, none
too long, no two alike) and finds the marked player among the named ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError
from referee.text import Message, message
from referee.web.numbers import MAX_PLAYERS, NAME_MAX, whole_number
from referee.web.words import say

# C0 controls and DEL: nobody types them, and PostgreSQL cannot store NUL in text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _bad_names(reason: Message) -> RefereeError:
    return RefereeError(reason, field="names")


def clean_names(names: Iterable[str], *, least: int, most: int = MAX_PLAYERS) -> list[str]:
    """Player names, trimmed and checked: a count in range, none empty, none too long, no repeats
    (a :class:`~referee.errors.RefereeError` about the field ``names`` otherwise)."""
    names = list(names)
    for n in names:
        if _CONTROL.search(n):
            raise _bad_names(message(
                "the name {name} holds a control character (such as NUL) that nobody can type",
                name=repr(_CONTROL.sub("", n)[:NAME_MAX])))
    cleaned = [" ".join(n.split()) for n in names]
    cleaned = [n for n in cleaned if n]
    if least == most and len(cleaned) != least:
        raise _bad_names(message("this game needs exactly {n} players, not {count}", n=least, count=len(cleaned)))
    if not least <= len(cleaned) <= most:
        raise _bad_names(message(
            "this game needs {least} to {most} players, not {count}", least=least, most=most, count=len(cleaned)))
    for n in cleaned:
        if len(n) > NAME_MAX:
            raise _bad_names(message(
                "the name {name}… is longer than {most} characters", name=repr(n[:NAME_MAX]), most=NAME_MAX))
    lowered = [n.casefold() for n in cleaned]
    for n in cleaned:
        if lowered.count(n.casefold()) > 1:
            raise _bad_names(message("two players are both called {name}", name=repr(n)))
    return cleaned


@dataclass(frozen=True, slots=True)
class Players:
    """A new-game form's players: what it sent and what the referee made of it."""

    rows: tuple[str, ...]
    """The name fields as sent, one per row (put back in the form when it is refused)."""
    names: tuple[str, ...]
    """The players, in seat order: the named rows, cleaned (empty when ``error``)."""
    marked: int | None
    """The seat of the player the marked row names (``None``: no mark, or a row without a name)."""
    marked_row: int | None
    """The row the form marked, as sent (``None``: none, or not a row number)."""
    error: str | None
    """Why the names cannot start a game, in the reader's language."""


def read_players(form: Mapping[str, Any], *, least: int, most: int, mark: str | None = None,
                 default_mark: int | None = None) -> Players:
    """The players ``form`` names (``name0`` … ``name{most-1}``, or every ``names`` row it sent),
    and the seat of the row its ``mark`` field marks (``default_mark`` when the field is absent
    or not a row number below ``most``)."""
    getlist = getattr(form, "getlist", None)
    if "names" in form and getlist is not None:
        rows = tuple(str(n) for n in getlist("names"))  # every row sent counts: too many is refused
    else:
        rows = tuple(str(form.get(f"name{i}", "")) for i in range(most))
    named = [i for i, row in enumerate(rows) if row.split()]
    names: tuple[str, ...] = ()
    error = None
    try:
        names = tuple(clean_names(rows, least=least, most=most))
    except RefereeError as exc:
        error = say(exc)
    marked_row = whole_number(str(form.get(mark, "")), high=most - 1) if mark else None
    if marked_row is None:
        marked_row = default_mark
    marked = named.index(marked_row) if marked_row in named else None
    return Players(rows=rows, names=names, marked=marked, marked_row=marked_row, error=error)
