"""Worked examples of Tiến lên for the shared suites (see :mod:`tests.worked`)."""

from __future__ import annotations

from referee import tienlen, tienlen_evening
from referee.web.games.tienlen import evening, table
from tests.worked import Contract, Example, Screen, Typing, Worked

# The sheet's contract: a game entered by hand is its facts (the JSON API's body).
_NOT_FROZEN = {"players": 2, "winner": 0, "cards_left": [0, 13], "frozen": [False, False]}
_BAD_CARDS = {"players": 2, "winner": 0, "cards_left": [0, 3], "leftover": [None, "9s 9h 9x"]}

WORKED = Worked(
    examples={
        table.KIND: Example(
            new={"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "0", "hand_size": "13"},
            legal=("/play", {"seat": "0", "cards": "3s"}),
            refused=("/play", {"seat": "0", "cards": "4s 4h"}),  # the opening must contain 3♠
            typed="4s 4h",
            unreadable=("/play", {"seat": "0", "cards": "3s 4s 1x"}),
            watch_words="Players in seat order",
            typing=Typing(field="#picker-cards-text", because="must contain the 3♠", stale="5♠", send=".tl-go"),
        ),
        evening.KIND: Example(
            new={"name0": "An", "name1": "Binh", "name2": "Chi"},
            legal=("/add", {"out": "0", "left_1": "5", "left_2": "13"}),
            refused=("/add", {"out": "0", "left_1": "5", "cards_1": "2h 7d", "left_2": "13"}),  # 5 left, 2 named
            typed="2h 7d",
            unreadable=("/add", {"out": "0", "left_1": "5", "cards_1": "2h 7d 1x", "left_2": "13"}),
            watch_words="Enter a game by hand",
            extra_pages=("/add", "/scores.csv"),
        ),
    },
    screens=(
        Screen(endpoint="tienlen.index", words="Start a game"),
        Screen(endpoint="tienlen.check_page", words="Check a play"),
        Screen(endpoint="tienlen.rules_page", words="Beating what is on the table"),
        Screen(endpoint="tienlen_table.new", words="Start the game"),
        Screen(endpoint="tienlen_scores.index", words="How the table scores"),
    ),
    contracts=(
        Contract(
            name="tienlen",
            new=lambda: tienlen.Hand(tienlen.Setup(("Ana", "Bao", "Chi"), leader=0, opening=False)),
            act=lambda h: h.play(0, "3s 4s 5h"),
            refused=lambda h: h.play(1, "6s"),  # not Bao's turn
            can_refused=lambda h: h.can_play(1, "6s"),
            bad_notation=lambda h: h.check_play(0, "5x"),
            can_bad_notation=lambda h: h.can_play(0, "5x"),
            snapshot=lambda h: h.to_dict(),
            records=tienlen.RECORDS,
            replay=lambda h, log: tienlen.replay(h.setup, log),
        ),
        Contract(
            name="tienlen_evening",
            new=lambda: tienlen_evening.Evening(tienlen_evening.EveningSetup(("Ana", "Bao"))),
            act=lambda e: e.add_by_hand({"players": 2, "winner": 0, "cards_left": [0, 5]}),
            refused=lambda e: e.add_by_hand(_NOT_FROZEN),  # 13 left: frozen
            can_refused=lambda e: e.can_add_by_hand(_NOT_FROZEN),
            bad_notation=lambda e: e.check_add_by_hand(_BAD_CARDS),
            can_bad_notation=lambda e: e.can_add_by_hand(_BAD_CARDS),
            snapshot=lambda e: e.to_dict(),
            records=tienlen_evening.RECORDS,
            replay=lambda e, log: tienlen_evening.replay(e.setup, log),
        ),
    ),
)
