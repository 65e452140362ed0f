"""Three Thirteen on the web: the score page and the followed eleven-round sheet."""

from __future__ import annotations

from flask_babel import gettext

from referee.three_thirteen import ThreeThirteenRules
from referee.web.games.three_thirteen import views
from referee.web.registry import GameEntry, HomeLink, PhoneScreen

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
