"""What the sheet's pages show and how a round's form is read, with no Flask: the server's views
(:mod:`referee.web.games.three_thirteen.views`) and the phone drawing a sheet started offline
(:mod:`referee.web.phone_pages`) both build their pages with these, so both say the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.errors import RefereeError
from referee.text import message
from referee.three_thirteen_sheet import RoundRefused
from referee.web import sheets
from referee.web.games.three_thirteen.answers import LiveSplit, SplitView
from referee.web.games.three_thirteen.sheet import (
    CORRECT,
    RoundEntry,
    Sheet,
    entry_from_payload,
    entry_from_verdict,
    judge_round,
    preview_hand,
    stored_rules,
)
from referee.web.numbers import whole_number
from referee.web.words import gettext


def round_words(kind: str, payload: Mapping[str, Any]) -> str:
    """A round's entry in the players' words (the undo button)."""
    if kind == CORRECT:
        return gettext("Round %(n)s corrected", n=payload.get("round"))
    return gettext("Round %(n)s entered", n=payload.get("round"))


def running_chart(sheet: Sheet) -> sheets.Chart | None:
    """The running totals, one line a player (inline SVG drawn by the sheet's template)."""
    steps = [(r.number, r.totals) for r in sheet.rounds]
    return sheets.running_chart(sheet.names, steps, sheet.schedule.rounds, sheet.totals)


def round_is_open(sheet: Sheet, number: int) -> bool:
    """Whether the sheet has a round ``number`` to show (saved, or the next one)."""
    try:
        sheet.state.check_round_open(number)
    except RefereeError:
        return False
    return True


def no_such_round(number: int) -> str:
    """The 404's sentence for a round the sheet has not reached."""
    return gettext("This game has no round %(n)s to show yet.", n=number)


def shown_entry(sheet: Sheet, number: int) -> RoundEntry:
    """What the round page's form holds when it is opened: the saved round (to correct it), or
    nothing typed yet."""
    saved = sheet.saved(number)
    if saved is not None:
        return entry_from_payload(saved.payload, sheet.players)
    return RoundEntry(number, [""] * sheet.players, [""] * sheet.players, set())


def saved_splits(sheet: Sheet, number: int) -> dict[int, SplitView]:
    """The splits of a saved round, for every hand entered as cards."""
    saved = sheet.saved(number)
    if saved is None:
        return {}
    judged = judge_round(
        sheet.rules, sheet.players, number,
        [str(h.get("cards") or "") for h in saved.payload["hands"]],
        [str(h["points"]) if h.get("points") is not None else "" for h in saved.payload["hands"]],
        set(saved.out),
    )
    return judged.splits


def phone_setup(sheet: Sheet, number: int) -> dict[str, Any]:
    """What the phone's engine needs to split a hand of this round by itself (the round page
    carries it): the same answer as the server's preview."""
    return {"rules": stored_rules(sheet.rules), "players": sheet.players, "number": number}


def round_context(sheet: Sheet, number: int, entry: RoundEntry, *, saved_splits: dict[int, SplitView] | None = None,
                  stale: bool = False, with_previews: bool = True) -> dict[str, Any]:
    """What ``three_thirteen/round.html`` shows of round ``number`` besides the sheet's own
    context: the banner, the entry typed (``entry``), the saved round and its splits, each
    hand's split so far (``with_previews``), whether the sheet moved on (``stale``)."""
    previews: dict[int, LiveSplit] = {}
    for seat in range(sheet.players if with_previews else 0):
        if entry.cards[seat] and seat not in entry.splits:
            previews[seat] = preview_hand(sheet.rules, sheet.players, number, entry.cards[seat], out=seat in entry.out)
        elif seat in entry.splits:
            dealt = sheet.schedule.cards_dealt(number)
            previews[seat] = LiveSplit(dealt=dealt, count=dealt, split=entry.splits[seat])
    return {"info": sheet.round_info(number), "entry": entry, "saved": sheet.saved(number),
            "saved_splits": saved_splits or {}, "previews": previews, "stale": stale, "posted": with_previews,
            "phone_setup": phone_setup(sheet, number), "decks": sheet.decks,
            "jokers": ("JK",) if sheet.rules.jokers else ()}


def stale_round(sheet: Sheet, number: int) -> int:
    """The round a stale entry of round ``number`` is shown on: the sheet may have fewer rounds now."""
    return min(number, sheet.next_round or sheet.schedule.rounds)


def read_round(form: Mapping[str, Any], outs: Sequence[str], number: int,
               players: int) -> tuple[list[str], list[str], set[int], RoundEntry]:
    """A round's form as typed: each seat's cards and points, who went out (``outs``, the form's
    ``out`` values: seats that exist), and the entry to put back in the form."""
    out = {seat for seat in (whole_number(raw, high=players - 1) for raw in outs) if seat is not None}
    cards = [str(form.get(f"cards_{i}", ""))[:400] for i in range(players)]
    points = [str(form.get(f"points_{i}", ""))[:10] for i in range(players)]
    entry = RoundEntry(number, [c.strip() for c in cards], [p.strip() for p in points], set(out))
    return cards, points, out, entry


def enter_round(sheet: Sheet, number: int, cards: list[str], points: list[str], out: set[int]) -> Any:
    """Round ``number`` entered on ``sheet`` (the library's record, appended to its state); the
    rules' refusal raises :class:`~referee.errors.RefereeError` with the judged entry as its
    ``detail``."""
    try:
        return sheet.state.enter_round(number, cards, points, out)
    except RoundRefused as exc:
        problem = exc.verdict.problem or message("Nothing was saved: fix the hands marked below.")
        raise RefereeError(problem, detail=entry_from_verdict(exc.verdict, cards, points, out)) from None
