"""The worked examples the shared suites drive every game with: one module per game package
(``tests/worked/<slug>.py``, its ``WORKED``), so the app's registry holds only what the app uses.

A game's :class:`Worked` gives an :class:`Example` of the forms of each of its followed games (the
rows of every parametrised web suite, ``tests/games.py``), the pages outside its tables with a
sentence each shows (:class:`Screen`: the languages and weight suites), and a :class:`Contract`
per state machine of its rules library (``tests/test_contract.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.web.registry import GameEntry


@dataclass(frozen=True, slots=True, kw_only=True)
class Typing:
    """How a phone types an :class:`Example`'s refused write in a real browser
    (``tests/test_browser_followed_games.py``: the refusal, and the stale write)."""

    field: str
    """The CSS selector of the field the cards are typed in (``Example.typed`` for the refusal)."""
    because: str
    """Words of the refusal's sentence."""
    stale: str
    """Typed and sent by a phone that has not seen another phone's ``Example.legal`` write."""
    send: str
    """The CSS selector of the button that sends it."""
    page: str = ""
    """The page under the game's ``/g/<token>`` address where the typing happens."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """A worked example of one followed game's forms, read by the shared tests (one row per
    followed game in every parametrised suite) and by whoever reads them to learn the game.

    Paths are under the game's ``/g/<token>`` address; ``typed`` is what the refused write typed
    (kept in its field on a 409 and a 422).
    """

    new: Mapping[str, Any]
    """The form that starts a game (``POST <prefix>/new`` answers 303 to the keeper page)."""
    legal: tuple[str, Mapping[str, Any]]
    """A write the rules accept on the new game: (path after the token, form)."""
    refused: tuple[str, Mapping[str, Any]]
    """A write the rules refuse on the new game, with a typed card field."""
    typed: str
    unreadable: tuple[str, Mapping[str, Any]]
    """A write whose cards the referee cannot read: the third card is ``1x``."""
    watch_words: str
    """A sentence of the game's page, in English (the languages suite finds it translated)."""
    extra_pages: tuple[str, ...] = ()
    """Other pages under the token (a round page, a CSV)."""
    names_field: str = "name0"
    """The new-game field that holds the first player's name."""
    typing: Typing | None = None
    """How a phone types the refused write (``None``: the game's own phone tests do)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Contract:
    """A worked example of the game's state machine in the rules library, through the one
    contract of :mod:`referee.errors` (``tests/test_contract.py`` runs it for every game)."""

    name: str
    new: Callable[[], Any]
    """A fresh state."""
    act: Callable[[Any], Any]
    """An accepted action: returns its record."""
    refused: Callable[[Any], Any]
    """An action the rules refuse as the game stands."""
    can_refused: Callable[[Any], bool]
    bad_notation: Callable[[Any], Any]
    """The ``check_x`` of an action whose cards cannot be read (the third is ``9x`` or ``5x``)."""
    can_bad_notation: Callable[[Any], bool]
    snapshot: Callable[[Any], Any]
    records: Any
    """The game's :class:`~referee.records.Records`."""
    replay: Callable[[Any, list[Any]], Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Screen:
    """A page of the game outside its tables, with a sentence it shows (the languages and
    weight suites open each one)."""

    endpoint: str
    words: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Worked:
    """What the shared suites know of one game (its module's ``WORKED``)."""

    examples: Mapping[str, Example] = field(default_factory=dict)
    """A worked example per followed kind."""
    screens: tuple[Screen, ...] = ()
    contracts: tuple[Contract, ...] = ()
    """A worked example of each state machine of the game in the rules library."""


def worked(entry: GameEntry) -> Worked:
    """The worked examples of a registry entry (``tests/worked/<slug>.py``)."""
    found = getattr(importlib.import_module(f"tests.worked.{entry.slug}"), "WORKED", None)
    if not isinstance(found, Worked):
        raise TypeError(f"tests/worked/{entry.slug}.py has no WORKED = Worked(...)")
    return found
