"""Trece on the web: the check screen and the followed two-player table."""

from __future__ import annotations

from flask_babel import gettext

from referee.trece import TreceRules
from referee.web.games.trece import views
from referee.web.registry import GameEntry, HomeLink, PhoneScreen

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
    phone=(
        PhoneScreen(kind="trece-check", answer="referee.web.games.trece.answers:phone_check",
                    fragments=("trece/_check_result.html",),
                    warm_up=(("top_rank", "K"), ("top_suit", "h"), ("play", "Kd"))),
        PhoneScreen(kind="trece-table", answer="referee.web.games.trece.answers:phone_table",
                    fragments=("trece/_dock.html",)),
    ),
)
