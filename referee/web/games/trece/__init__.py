"""Trece on the web: the check screen and the followed two-player table."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee import stats
from referee.trece import TreceRules
from referee.web.games.trece import money, views
from referee.web.registry import GameEntry, GroupStart, HomeLink, PhonePages, PhoneScreen


def table_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored table as one game, for a group's evenings and stats."""
    return stats.trece_results(views.game_state(game))


def table_money(game: Any) -> Any:
    """A stored table as far as money goes (:func:`referee.web.games.trece.money.sitting`)."""
    return money.sitting(game, views.game_state(game))


ENTRY = GameEntry(
    slug="trece",
    name="Trece",
    tagline=lambda: gettext("Two players, runs and jokers: check a play, follow a game"),
    blueprints=(views.bp,),
    home="trece.index",
    links=(HomeLink(label=lambda: gettext("Check a play"), endpoint="trece.check"),),
    followed=(views.GAME,),
    rules=(TreceRules,),
    api=(views.API,),
    starts=(GroupStart(kind=views.KIND, endpoint="trece.new_game", least=2, most=2, hidden={"dealer": "0"},
                       extra="trece/_group_start.html",
                       label=lambda: gettext("A table (the first player picked deals)")),),
    results={views.KIND: table_results},
    money={views.KIND: table_money},
    pages=PhonePages(draws=("referee.web.games.trece.phone_pages",), needs=("referee.web.games.trece.pages",),
                     templates=("trece/table.html",)),
    phone=(
        PhoneScreen(kind="trece-check", answer="referee.web.games.trece.answers:phone_check",
                    fragments=("trece/_check_result.html",),
                    warm_up=(("top_rank", "K"), ("top_suit", "h"), ("play", "Kd"))),
        PhoneScreen(kind="trece-table", answer="referee.web.games.trece.answers:phone_table",
                    fragments=("trece/_dock.html",)),
    ),
)
