"""Three Thirteen on the web: the score page and the followed eleven-round sheet."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee import stats
from referee.three_thirteen import ThreeThirteenRules
from referee.web.games.three_thirteen import money, sheet, views
from referee.web.registry import GameEntry, GroupStart, HomeLink, PhonePages, PhoneScreen
from referee.web.store import MAX_PLAYERS, history


def sheet_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored sheet as one game and its rounds, for a group's evenings and stats."""
    return stats.three_thirteen_results(sheet.rebuild(game, history(game)))


ENTRY = GameEntry(
    slug="three_thirteen",
    name="Three Thirteen",
    tagline=lambda: gettext("3-13 rummy: best split of a hand, the eleven-round score sheet"),
    blueprints=(views.bp,),
    home="three_thirteen.index",
    links=(HomeLink(label=lambda: gettext("Score a hand"), endpoint="three_thirteen.score"),),
    followed=(views.GAME,),
    rules=(ThreeThirteenRules,),
    api=(views.API,),
    starts=(GroupStart(kind=sheet.KIND, endpoint="three_thirteen.new_game", least=2, most=MAX_PLAYERS,
                       names="names", hidden={"dealer": "0"},
                       label=lambda: gettext("Tonight's sheet (the first player picked deals first)")),),
    results={sheet.KIND: sheet_results},
    money={sheet.KIND: money.sitting},
    pages=PhonePages(draws=("referee.web.games.three_thirteen.phone_pages",),
                     needs=("referee.web.games.three_thirteen.sheet", "referee.web.games.three_thirteen.pages"),
                     templates=("three_thirteen/game.html", "three_thirteen/round.html")),
    phone=(
        PhoneScreen(kind="three-thirteen-score", answer="referee.web.games.three_thirteen.answers:phone_score",
                    fragments=("three_thirteen/_score_result.html",), warm_up=(("hand", "3s 4s 5s 6h"),)),
        PhoneScreen(kind="three-thirteen-preview", answer="referee.web.games.three_thirteen.answers:phone_preview",
                    fragments=("three_thirteen/_preview.html",), warm_up=(("cards_0", "3s 4s 5s"),),
                    warm_setup={"rules": {}, "players": 2, "number": 1, "seat": 0}),
        PhoneScreen(kind="three-thirteen-round", answer="referee.web.games.three_thirteen.answers:phone_round",
                    fragments=("three_thirteen/_round_judged.html",)),
    ),
)
