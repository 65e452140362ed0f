"""The Tiến lên score sheet on the web: the stored evening, read into the library's state machine.

The rules (judging a game typed by hand or from a followed table, corrections, following a
table, replay and undo) are :mod:`referee.tienlen_evening`; this module reads the stored
events into it, once per request, and words its verdicts in the reader's language.

An evening is a stored game of kind ``tienlen_scores`` (players, the score switches).
Each game of the evening is one event (``game``, or ``correct`` to re-enter game N)
whose payload holds the facts (:meth:`FinishedGame.to_dict`), where they came from (a
followed table's hand, or typed by hand), and the payments and points the referee
gave: the totals never depend on a later change of the scoring code.  A ``follow``
event links a followed Tiến lên table whose finished hands can then be added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from referee.errors import RefereeError
from referee.switches import rules_from_mapping
from referee.tienlen import Game, Setup, replay_game
from referee.tienlen_evening import (
    NOTHING_SAVED,
    EntryRefused,
    Evening,
    EveningSetup,
    GameAdded,
    replay,
    seat_map,
)
from referee.tienlen_scores import FinishedGame, Payment, ScoreError, ScoreInputError, ScoreRules
from referee.web import settle_up
from referee.web.extensions import db
from referee.web.games.tienlen.forms import FormVerdict, form_verdict, typed_from
from referee.web.games.tienlen.forms import typed_from_facts as _typed_from_facts
from referee.web.models import Event
from referee.web.models import Game as StoredGame
from referee.web.store import live_events, records_of
from referee.web.views import say

KIND = "tienlen_scores"
TABLE_KIND = "tienlen"
GAME = "game"
CORRECT = "correct"
FOLLOW = "follow"

Sheet = Evening
"""The sheet the pages show is the library's :class:`~referee.tienlen_evening.Evening`."""


# ---------------------------------------------------------------------------
# The sheet


def rules_of(raw: Mapping[str, Any] | None) -> ScoreRules:
    return rules_from_mapping(ScoreRules, dict(raw or {}))


def rebuild(game: StoredGame) -> Evening:
    """Replay the evening's effective events (:func:`referee.tienlen_evening.replay`)."""
    setup = EveningSetup(tuple(game.player_names), rules_of(game.rules))
    return replay(setup, records_of(live_events(game), leave=settle_up.EVENT_KINDS))  # the stake and end: not games


def build_sheet(game: StoredGame) -> Evening:
    """The evening as its pages show it (its ``FollowedGame`` builds it once per request)."""
    return rebuild(game)


def describe(payment: Payment, names: Sequence[str]) -> str:
    """One payment in plain words, in the reader's language."""
    return say(payment.sentence(names))


def last_move(sheet: Evening, game: StoredGame) -> str | None:
    """The latest entry still in force, in the players' words (the undo button)."""

    def entry_words(event: Event) -> str:
        if event.kind == CORRECT:
            return gettext("Game %(n)s corrected", n=event.payload.get("number"))
        if event.kind == FOLLOW:
            return gettext("Following a table")
        return gettext("Game %(n)s added", n=len(sheet.games))

    return settle_up.undo_words(game, entry_words)


# ---------------------------------------------------------------------------
# Followed tables


@dataclass
class TableHand:
    """A finished hand of a followed table, ready to be added to the sheet."""

    table: int
    hand: int
    winner: str
    added: bool
    token: str


def followed_table(table_id: int) -> StoredGame | None:
    game = db.session.get(StoredGame, table_id)
    return game if game is not None and game.kind == TABLE_KIND else None


def table_state(table: StoredGame) -> Game:
    return replay_game(Setup.from_dict(table.setup), [e.payload for e in live_events(table)])


def table_hands(sheet: Evening) -> list[TableHand]:
    """Every finished hand of the followed tables, newest first, marked when already added."""
    found: list[TableHand] = []
    added = sheet.added
    for table_id in sheet.tables:
        table = followed_table(table_id)
        if table is None:
            continue
        state = table_state(table)
        for i, hand in enumerate(state.hands):
            if hand.over and hand.winner is not None:
                found.append(TableHand(table_id, i, hand.players[hand.winner], (table_id, i) in added,
                                       table.keeper_token))
    return list(reversed(found))


# ---------------------------------------------------------------------------
# An entry on the page


@dataclass
class Entry:
    """What a form sent for one game, and the referee's verdict in the reader's language."""

    typed: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    problem: str | None = None
    record: GameAdded | None = None
    payments: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.record is not None

    def value(self, name: str) -> str:
        return self.typed.get(name, "")

    def take(self, verdict: FormVerdict, names: Sequence[str]) -> Entry:
        """Show the library's verdict: each mistake beside its field, or the payments."""
        self.errors = {name: say(why) for name, why in verdict.errors.items()}
        self.problem = say(verdict.problem) if verdict.problem is not None else None
        if self.errors and self.problem is None:
            self.problem = say(NOTHING_SAVED)
        self.record = verdict.record if isinstance(verdict.record, GameAdded) else None
        if self.record is not None:
            self.payments = [describe(p, names) for p in self.record.payments]
        return self


def refused_entry(typed: Mapping[str, str], exc: EntryRefused, names: Sequence[str], *,
                  left_field: str = "left") -> RefereeError:
    """The sheet's refusal of an entry, with the entry judged (each mistake beside its field) as
    its ``detail``."""
    verdict = form_verdict(exc.verdict, typed, left_field=left_field)
    shown = Entry(dict(typed)).take(verdict, names)
    return RefereeError(verdict.problem or (NOTHING_SAVED if shown.errors else exc.reason), detail=shown)


def typed_from_facts(facts: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """The by-hand form filled in from a saved game's facts (to correct it); facts saved before
    a check was added, that it now refuses, fill in only who went out."""
    try:
        return _typed_from_facts(FinishedGame.from_dict(facts, names))
    except ScoreError:
        return {"out": str(facts.get("winner", ""))}


__all__ = [
    "KIND", "GAME", "CORRECT", "FOLLOW", "Sheet", "Entry", "TableHand", "build_sheet", "rebuild",
    "refused_entry", "table_hands", "typed_from", "typed_from_facts", "seat_map", "followed_table",
    "last_move", "describe", "ScoreInputError",
]
