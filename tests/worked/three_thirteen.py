"""Worked examples of Three Thirteen for the shared suites (see :mod:`tests.worked`)."""

from __future__ import annotations

from referee import three_thirteen_sheet
from referee.web.games.three_thirteen import sheet
from tests.worked import Contract, Example, Screen, Typing, Worked

WORKED = Worked(
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
            typing=Typing(field="#picker-0-text", because="Mark who went out", stale="4♣ 5♣ 6♣",
                          send="button[type=submit]:has-text('Save round 1')", page="/round/1"),
        ),
    },
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
)
