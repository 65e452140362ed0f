"""What the screens the phone can answer by itself share: the answer, and reading a form.

A game's screens that the phone answers too (its check screen, its live split, its table's
next move) live in its package, in a module that knows no Flask (``answers.py``), and are
listed in the game's registry entry (:class:`referee.web.registry.PhoneScreen`).  Each reads a
form (any mapping of field names to text) and returns an :class:`Answer`: the fragment
template that draws it, the values that template needs, the status, and the house rules to
keep on the phone.  The server's views call these functions and render the fragment with
Flask's Jinja; the phone's engine (:mod:`referee.web.phone`, Pyodide in a Web Worker) calls
the very same functions and renders the very same templates with the same catalogues.  Words
come from :mod:`referee.web.words`, so every sentence is worded once and the two answers are
the same characters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import AnyCard, Joker, NotationError, TooManyCopiesError, check_copies, parse_cards
from referee.web.words import say


@dataclass
class Answer:
    """What a screen answers: ``fragment`` rendered with ``context`` (and ``status``);
    ``remember`` is the house rules to keep on this phone for next time (or ``None``)."""

    fragment: str
    context: dict[str, Any]
    status: int = 200
    remember: dict[str, Any] | None = None


@dataclass
class Said:
    """The part of a followed table's feedback its dock shows (see referee.web.tables.Feedback)."""

    error: str | None = None
    at: str | None = None
    stale: bool = False
    notice: str | None = None


class NotThisMove(ValueError):
    """A move the phone does not judge (an unknown action or seat): the server answers it.

    Not a refusal (:class:`~referee.errors.RefereeError`): nobody is told "no" by it.  It tells the
    phone's engine to step aside, and the same form goes to the server, whose answer (a 400 for a
    form it cannot read) is the one the player sees."""


def read_cards(
    field: str, text: str, errors: dict[str, str], *, decks: int = 1, jokers: Mapping[Joker, int] | None = None
) -> tuple[AnyCard, ...]:
    """Parse a card field; a mistake goes into ``errors[field]`` (shown beside the field)."""
    try:
        cards = parse_cards(text or "")
        check_copies(cards, decks=decks, jokers=jokers)
    except (NotationError, TooManyCopiesError) as exc:
        errors[field] = say(exc)
        return ()
    return cards


def all_values(form: Mapping[str, Any], key: str) -> list[str]:
    """Every value a form sent for ``key`` (Werkzeug's ``getlist``, or a plain mapping's)."""
    getlist = getattr(form, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(key)]
    value = form.get(key)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
