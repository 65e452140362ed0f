"""Tiến lên on the web: the check screen, the followed table and the evening's score sheet."""

from __future__ import annotations

from flask_babel import gettext

from referee.tienlen import TienLenRules
from referee.tienlen_scores import ScoreRules
from referee.web.games.tienlen import check, scores, scores_api, table
from referee.web.registry import CardOrder, GameEntry, HomeLink, PhoneScreen

ENTRY = GameEntry(
    slug="tienlen",
    name="Tiến lên",
    tagline=lambda: gettext("Vietnamese Thirteen: check a play, bombs on 2s, follow a game"),
    blueprints=(check.bp, table.bp, scores.bp),
    home="tienlen.index",
    links=(HomeLink(label=lambda: gettext("Check a play"), endpoint="tienlen.check_page"),),
    followed=(table.GAME, scores.SHEET),
    card_order=CardOrder(
        name="tienlen", ranks=("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"), suits="scdh"
    ),
    rules=(TienLenRules, ScoreRules),
    api=(check.API, scores_api.API),
    phone=(
        PhoneScreen(kind="tienlen-check", answer="referee.web.games.tienlen.answers:phone_check",
                    fragments=("tienlen/_verdict.html",), warm_up=(("table", "2h"), ("play", "2s"))),
        PhoneScreen(kind="tienlen-table", answer="referee.web.games.tienlen.answers:phone_table",
                    fragments=("tienlen/_dock.html",)),
    ),
)
