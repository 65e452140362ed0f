"""Trece on the web: the check screen and the followed two-player table."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee import stats, trece
from referee.cards import Card
from referee.trece import TreceRules
from referee.web.games.trece import views
from referee.web.registry import Contract, Example, GameEntry, GroupStart, HomeLink, PhoneScreen, Screen


def table_results(game: Any) -> tuple[stats.Result, ...]:
    """A stored table as one game, for a group's evenings and stats."""
    return stats.trece_results(views.game_state(game))


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
    examples={
        views.KIND: Example(
            new={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"},
            legal=("/act", {"action": "draw"}),
            refused=("/act", {"action": "play", "cards": "9♦ 10♦"}),  # 9♦ is not one rank from Q♥
            typed="9♦ 10♦",
            unreadable=("/act", {"action": "play", "cards": "Q♦ K♦ 1x"}),
            watch_words="Top of the pile",
        ),
    },
    starts=(GroupStart(kind=views.KIND, endpoint="trece.new_game", least=2, most=2, hidden={"dealer": "0"},
                       extra="trece/_group_start.html",
                       label=lambda: gettext("A table (the first player picked deals)")),),
    results={views.KIND: table_results},
    screens=(
        Screen(endpoint="trece.index", words="Start the table"),
        Screen(endpoint="trece.check", words="Check a Trece play"),
        Screen(endpoint="trece.rules_page", words="Trece in a minute"),
    ),
    contracts=(
        Contract(
            name="trece",
            new=lambda: trece.State(trece.Setup(("Ana", "Ben"), Card.parse("J♦"))),
            act=lambda g: g.play(None, "Q♥"),
            refused=lambda g: g.play(None, "7♣"),  # not one rank from J♦
            can_refused=lambda g: g.can_play(None, "7♣"),
            bad_notation=lambda g: g.check_play(None, "5x"),
            can_bad_notation=lambda g: g.can_play(None, "5x"),
            snapshot=lambda g: g.to_dict(),
            records=trece.RECORDS,
            replay=lambda g, log: trece.replay(g.setup, log),
        ),
    ),
    phone=(
        PhoneScreen(kind="trece-check", answer="referee.web.games.trece.answers:phone_check",
                    fragments=("trece/_check_result.html",),
                    warm_up=(("top_rank", "K"), ("top_suit", "h"), ("play", "Kd"))),
        PhoneScreen(kind="trece-table", answer="referee.web.games.trece.answers:phone_table",
                    fragments=("trece/_dock.html",)),
    ),
)
