"""Worked examples of Trece for the shared suites (see :mod:`tests.worked`)."""

from __future__ import annotations

from referee import trece
from referee.cards import Card
from referee.web.games.trece import views
from tests.worked import Contract, Example, Screen, Typing, Worked

WORKED = Worked(
    examples={
        views.KIND: Example(
            new={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"},
            legal=("/act", {"action": "draw"}),
            refused=("/act", {"action": "play", "cards": "9♦ 10♦"}),  # 9♦ is not one rank from Q♥
            typed="9♦ 10♦",
            unreadable=("/act", {"action": "play", "cards": "Q♦ K♦ 1x"}),
            watch_words="Top of the pile",
            typing=Typing(field="#picker-cards-text", because="not one rank from Q♥", stale="K♥",
                          send="[data-action=play]"),
        ),
    },
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
)
