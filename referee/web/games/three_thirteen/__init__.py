"""Three Thirteen on the web: the score page and the followed eleven-round sheet."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee import stats, three_thirteen_sheet
from referee.three_thirteen import ThreeThirteenRules
from referee.web.games.three_thirteen import sheet, views
from referee.web.registry import Contract, Example, GameEntry, GroupStart, HomeLink, PhoneScreen, Screen
from referee.web.store import MAX_PLAYERS


def sheet_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored sheet as one game and its rounds, for a group's evenings and stats."""
    return stats.three_thirteen_results(sheet.rebuild(game))


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
    examples={
        sheet.KIND: Example(
            new={"names": ["Ann", "Bao"], "dealer": "0"},
            legal=("/round/1", {"out": ["0"], "cards_0": "A♥ 2♥ 3♥", "points_1": "17"}),
            refused=("/round/1", {"cards_0": "A♥ 2♥ 3♥", "points_1": "17"}),  # nobody marked as out
            typed="A♥ 2♥ 3♥",
            unreadable=("/round/1", {"out": ["0"], "cards_0": "A♥ 2♥ 1x", "points_1": "17"}),
            watch_words="Score sheet",
            extra_pages=("/round/1", "/sheet.csv", "/round/1/preview/0?cards_0=3s"),
            names_field="names",
        ),
    },
    starts=(GroupStart(kind=sheet.KIND, endpoint="three_thirteen.new_game", least=2, most=MAX_PLAYERS,
                       names="names", hidden={"dealer": "0"},
                       label=lambda: gettext("Tonight's sheet (the first player picked deals first)")),),
    results={sheet.KIND: sheet_results},
    screens=(
        Screen(endpoint="three_thirteen.index", words="Start the sheet"),
        Screen(endpoint="three_thirteen.rules_page", words="The chart of rounds"),
        Screen(endpoint="three_thirteen.score", words="Score a hand"),
    ),
    contracts=(
        Contract(
            name="three_thirteen",
            new=lambda: three_thirteen_sheet.Sheet(three_thirteen_sheet.SheetSetup(("Ana", "Bao"))),
            act=lambda s: s.enter_round(1, ["9s 9h 9c", ""], ["", "12"], [0]),
            refused=lambda s: s.enter_round(1, ["9s 9h 8c", ""], ["", "12"], [0]),  # the out does not fit
            can_refused=lambda s: s.can_enter_round(1, ["9s 9h 8c", ""], ["", "12"], [0]),
            bad_notation=lambda s: s.check_enter_round(1, ["9s 9h 9x", ""], ["", "12"], [0]),
            can_bad_notation=lambda s: s.can_enter_round(1, ["9s 9h 9x", ""], ["", "12"], [0]),
            snapshot=lambda s: s.to_dict(),
            records=three_thirteen_sheet.RECORDS,
            replay=lambda s, log: three_thirteen_sheet.replay(s.setup, log),
        ),
    ),
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
