"""Worked examples of the tests' toy game, Higher for the shared suites (see :mod:`tests.worked`)."""

from __future__ import annotations

from tests.toy import KIND
from tests.toy.rules import RECORDS, Setup, State, parse_one, replay
from tests.worked import Contract, Example, Screen, Typing, Worked

WORKED = Worked(
    examples={
        KIND: Example(
            new={"name0": "Ana", "name1": "Ben", "start": "5h"},
            legal=("/play", {"cards": "9s"}),
            refused=("/play", {"cards": "2h"}),  # 2♥ is not higher than 5♥
            typed="2h",
            unreadable=("/play", {"cards": "Q♦ K♦ 1x"}),
            watch_words="Moves",
            typing=Typing(field="#toy-cards", because="is not higher than", stale="10s", send="[data-action=play]"),
        ),
    },
    screens=(Screen(endpoint="toy.index", words="Start the table"),),
    contracts=(
        Contract(
            name="toy",
            new=lambda: State(Setup(("Ana", "Ben"), parse_one("5h"))),
            act=lambda g: g.play("9s"),
            refused=lambda g: g.play("2h"),  # not higher than 5♥
            can_refused=lambda g: g.can_play("2h"),
            bad_notation=lambda g: g.check_play("5x"),
            can_bad_notation=lambda g: g.can_play("5x"),
            snapshot=lambda g: [r.to_dict() for r in g.log],
            records=RECORDS,
            replay=lambda g, log: replay(g.setup, log),
        ),
    ),
)
