"""Tiến lên on the web: the check screen, the followed table and the evening's score sheet."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask_babel import gettext

from referee import stats, tienlen
from referee.evening_money import Sitting
from referee.tienlen import TienLenRules
from referee.tienlen_scores import ScoreRules
from referee.web.games.tienlen import check, evening, evening_money, scores, scores_api, table
from referee.web.registry import CardOrder, GameEntry, GroupStart, HomeLink, PhonePages, PhoneScreen
from referee.web.store import live_events, records_of


def sheet_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored score sheet's games, for a group's evenings and stats."""
    return stats.tienlen_sheet_results(evening.rebuild(game))


def table_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored table's finished hands, for a group's evenings and stats."""
    records = records_of(live_events(game))
    return stats.tienlen_table_results(tienlen.replay_game(tienlen.Setup.from_dict(game.setup), records), game.id)


def table_sitting(game: Any) -> Sitting:
    """A stored table for a group's evening: its finished hands (it plays for nothing: a hand is
    scored on a sheet, if at all) and when each was over, so that a group's end counts them in
    the order played with the evening's other games."""
    events = live_events(game)
    table = tienlen.Game(tienlen.Setup.from_dict(game.setup))
    entered: list[datetime] = []
    for event in events:
        table.apply({**event.payload, "action": event.kind})
        while len(entered) < sum(1 for hand in table.hands if hand.winner is not None):
            entered.append(event.created_at)
    return Sitting(results=stats.tienlen_table_results(table, game.id), entered=tuple(entered))


ENTRY = GameEntry(
    slug="tienlen",
    name="Tiến lên",
    tagline=lambda: gettext("Vietnamese Thirteen: check a play, bombs on 2s, follow a game"),
    blueprints=(check.bp, table.bp, scores.bp),
    home="tienlen.index",
    links=(HomeLink(label=lambda: gettext("Check a play"), endpoint="tienlen.check_page"),),
    forms=("tienlen_table.new", "tienlen_scores.index"),
    followed=(table.GAME, scores.SHEET),
    card_order=CardOrder(
        name="tienlen", ranks=("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"), suits="scdh"
    ),
    rules=(TienLenRules, ScoreRules),
    api=(check.API, scores_api.API),
    starts=(
        GroupStart(kind=evening.KIND, endpoint="tienlen_scores.new", least=scores.MIN_PLAYERS,
                   most=scores.MAX_PLAYERS, label=lambda: gettext("Tonight's score sheet")),
        GroupStart(kind=table.KIND, endpoint="tienlen_table.new", least=table.MIN_PLAYERS, most=table.MAX_PLAYERS,
                   label=lambda: gettext("A table followed turn by turn"), hidden={"hand_size": "13"},
                   extra="tienlen/_group_start.html"),
    ),
    results={evening.KIND: sheet_results, table.KIND: table_results},
    money={evening.KIND: evening_money.sitting, table.KIND: table_sitting},
    pages=PhonePages(draws=("referee.web.games.tienlen.table_pages", "referee.web.games.tienlen.score_pages"),
                     needs=("referee.web.games.tienlen.pages", "referee.web.games.tienlen.forms",
                            "referee.web.games.tienlen.evening_pages"),
                     templates=("tienlen/table.html", "tienlen_scores/sheet.html", "tienlen_scores/entry.html")),
    phone=(
        PhoneScreen(kind="tienlen-check", answer="referee.web.games.tienlen.answers:phone_check",
                    fragments=("tienlen/_verdict.html",), warm_up=(("table", "2h"), ("play", "2s"))),
        PhoneScreen(kind="tienlen-table", answer="referee.web.games.tienlen.answers:phone_table",
                    fragments=("tienlen/_dock.html",)),
    ),
)
