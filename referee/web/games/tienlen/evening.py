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

from dataclasses import dataclass

from referee.tienlen import Game, Setup, replay_game
from referee.tienlen_evening import Evening, seat_map
from referee.tienlen_scores import ScoreInputError
from referee.web.extensions import db
from referee.web.games.tienlen.evening_pages import (
    CORRECT,
    FOLLOW,
    GAME,
    KIND,
    TABLE_KIND,
    Entry,
    Sheet,
    describe,
    refused_entry,
    replayed,
    typed_from_facts,
)
from referee.web.games.tienlen.evening_pages import last_move as _last_move
from referee.web.games.tienlen.forms import typed_from
from referee.web.models import Game as StoredGame
from referee.web.store import live_events

# ---------------------------------------------------------------------------
# The sheet (its Flask-free parts: :mod:`referee.web.games.tienlen.evening_pages`)


def rebuild(game: StoredGame) -> Evening:
    """Replay the evening's effective events (:func:`referee.tienlen_evening.replay`)."""
    return replayed(game.player_names, game.rules, live_events(game))


def build_sheet(game: StoredGame) -> Evening:
    """The evening as its pages show it (its ``FollowedGame`` builds it once per request)."""
    return rebuild(game)


def last_move(sheet: Evening, game: StoredGame) -> str | None:
    """The latest entry still in force, in the players' words (the undo button)."""
    return _last_move(sheet, live_events(game))


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


__all__ = [
    "KIND", "GAME", "CORRECT", "FOLLOW", "Sheet", "Entry", "TableHand", "build_sheet", "rebuild",
    "refused_entry", "table_hands", "typed_from", "typed_from_facts", "seat_map", "followed_table",
    "last_move", "describe", "ScoreInputError", "TABLE_KIND",
]
