"""The Three Thirteen score sheet: judging a round's entry and replaying the log (no Flask:
the phone draws a sheet started offline with it too, :mod:`referee.web.phone_pages`).

A round entry is one event (``round`` for a new round, ``correct`` to re-enter a
past one) whose payload holds what was typed for every seat and the points the
referee gave; the sheet is rebuilt by replaying the effective events, so undo and
corrections come for free and the totals never depend on a later solver change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.three_thirteen import FALSE_OUT_PENALTY, Schedule, ThreeThirteenRules
from referee.three_thirteen_sheet import MAX_TYPED, RoundVerdict, ScoredRound, SheetSetup, jokers_for, replay
from referee.three_thirteen_sheet import Sheet as SheetState
from referee.three_thirteen_sheet import judge_round as rules_judge_round
from referee.web.events import effective_events, records_of
from referee.web.games.three_thirteen.answers import (
    SplitView,
    card_view,
    preview_hand,
    rules_of,
    seat_split,
    split_view,
    stored_rules,
)
from referee.web.sheets import Change, change_history
from referee.web.words import rank_plural, say

KIND = "three_thirteen"
ROUND = "round"
CORRECT = "correct"
__all__ = ["MAX_TYPED", "jokers_for"]
# Rules and splits as the pages show them: shared with the phone (answers.py).
__all__ += ["card_view", "preview_hand", "rules_of", "split_view", "stored_rules"]


# ---------------------------------------------------------------------------
# Rules and table


# ---------------------------------------------------------------------------
# Judging one round's entry


@dataclass
class RoundEntry:
    """What the form sent for a round, and what the referee made of it."""

    round_number: int
    cards: list[str]
    points: list[str]
    out: set[int]
    errors: dict[int, str] = field(default_factory=dict)
    problem: str | None = None
    splits: dict[int, SplitView] = field(default_factory=dict)
    payload: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.payload is not None


def judge_round(
    rules: ThreeThirteenRules, players: int, round_number: int,
    cards: Sequence[str], points: Sequence[str], out: set[int],
) -> RoundEntry:
    """Judge a whole round's entry (the rules live in :mod:`referee.three_thirteen_sheet`);
    every problem is kept beside its seat, in the reader's language."""
    return entry_from_verdict(rules_judge_round(rules, players, round_number, cards, points, out), cards, points, out)


def entry_from_verdict(verdict: RoundVerdict, cards: Sequence[str], points: Sequence[str], out: set[int]) -> RoundEntry:
    """A judged round's entry, every problem kept beside its seat in the reader's language."""
    round_number = verdict.round_number
    entry = RoundEntry(round_number, [c.strip() for c in cards], [p.strip() for p in points], set(out))
    entry.errors = {seat: say(why) for seat, why in verdict.errors.items()}
    entry.problem = say(verdict.problem) if verdict.problem is not None else None
    for seat in verdict.seats:
        view = seat_split(seat, verdict.factor)
        if view is not None:
            entry.splits[seat.seat] = view
    if verdict.ok:
        entry.payload = verdict.record().to_dict()
    return entry


def entry_from_payload(payload: Mapping[str, Any], players: int) -> RoundEntry:
    """The form values of a saved round (to correct it)."""
    hands = list(payload.get("hands", []))
    cards = [str(h.get("cards", "")) if h.get("cards") else "" for h in hands]
    points = [str(h["points"]) if h.get("points") is not None else "" for h in hands]
    while len(cards) < players:
        cards.append("")
        points.append("")
    return RoundEntry(int(payload["round"]), cards, points, set(payload.get("out", [])))


# ---------------------------------------------------------------------------
# The sheet


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundInfo:
    """A round as the pages say it: its banner, a row of the chart of rounds."""

    number: int
    rounds: int
    dealt: int
    wild: str
    wild_plural: str
    doubled: bool
    short: bool
    """Five cards or fewer: going out takes a single meld."""
    dealer: str = ""
    starter: str = ""

    @classmethod
    def of(cls, schedule: Schedule, number: int, *, dealer: str = "", starter: str = "") -> RoundInfo:
        wild = schedule.wild_rank(number)
        return cls(number=number, rounds=schedule.rounds, dealt=schedule.cards_dealt(number), wild=wild.symbol,
                   wild_plural=rank_plural(wild), doubled=schedule.is_doubled(number),
                   short=schedule.cards_dealt(number) <= 5, dealer=dealer, starter=starter)


@dataclass(frozen=True)
class SheetRound:
    """A saved round as the pages show it (a view of the library's :class:`ScoredRound`)."""

    scored: ScoredRound
    schedule: Schedule

    @property
    def number(self) -> int:
        return self.scored.number

    @property
    def dealt(self) -> int:
        return self.schedule.cards_dealt(self.number)

    @property
    def wild(self) -> str:
        return self.schedule.wild_rank(self.number).symbol

    @property
    def doubled(self) -> bool:
        return self.scored.record.doubled

    @property
    def points(self) -> list[int]:
        return list(self.scored.record.points)

    @property
    def typed(self) -> list[bool]:
        return list(self.scored.record.typed)

    @property
    def out(self) -> list[int]:
        return list(self.scored.record.out)

    @property
    def false_out(self) -> list[int]:
        return list(self.scored.record.false_out)

    @property
    def totals(self) -> list[int]:
        return list(self.scored.totals)

    @property
    def corrected(self) -> bool:
        return self.scored.corrected

    @property
    def payload(self) -> dict[str, Any]:
        return self.scored.record.to_dict()


@dataclass(frozen=True)
class Sheet:
    """The sheet as the pages show it: the library's sheet (:attr:`state`, the only copy of the
    rounds) seen through a few helpers, and the game's history of changes (``events()``: every
    event of the game as of its version, oldest first, undos too, read when the page asks: a
    write done on this state adds one)."""

    state: SheetState
    game: Any
    events: Callable[[], Sequence[Any]] = tuple

    @property
    def rules(self) -> ThreeThirteenRules:
        return self.state.rules

    @property
    def names(self) -> list[str]:
        return list(self.state.names)

    @property
    def first_dealer(self) -> int:
        return self.state.setup.first_dealer

    @property
    def rounds(self) -> list[SheetRound]:
        schedule = self.schedule
        return [SheetRound(r, schedule) for r in self.state.rounds]

    @property
    def history(self) -> list[Change]:
        return change_history(self.events(), number="round")

    false_out_penalty = FALSE_OUT_PENALTY

    @property
    def schedule(self) -> Schedule:
        return self.state.schedule

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def decks(self) -> int:
        return self.state.decks

    @property
    def totals(self) -> list[int]:
        return list(self.state.totals)

    @property
    def next_round(self) -> int | None:
        return self.state.next_round

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def leaders(self) -> list[int]:
        """Seats with the lowest total (after at least one round)."""
        return list(self.state.leaders)

    @property
    def winners(self) -> list[int]:
        return list(self.state.winners)

    @property
    def winner_names(self) -> list[str]:
        return [self.names[s] for s in self.winners]

    def round_info(self, number: int) -> RoundInfo:
        return RoundInfo.of(self.schedule, number, dealer=self.names[self.state.dealer(number)],
                            starter=self.names[self.state.starter(number)])

    def all_rounds(self) -> list[RoundInfo]:
        return [self.round_info(n) for n in range(1, self.schedule.rounds + 1)]

    def saved(self, number: int) -> SheetRound | None:
        scored = next((r for r in self.state.rounds if r.number == number), None)
        return SheetRound(scored, self.schedule) if scored is not None else None


def rebuild(game: Any, events: Sequence[Any]) -> SheetState:
    """Replay the game's effective events (:func:`referee.three_thirteen_sheet.replay`):
    ``events`` is every event of ``game`` as of its version (the server's
    :func:`referee.web.store.history`, or the phone's records)."""
    rules = rules_of(game.rules)
    setup = SheetSetup(tuple(game.player_names), rules, int(game.setup.get("first_dealer", 0)))
    return replay(setup, records_of(event for event in effective_events(events) if event.kind in (ROUND, CORRECT)))


def build_sheet(game: Any, events: Callable[[], Sequence[Any]]) -> Sheet:
    """The sheet as its pages show it (its ``FollowedGame`` builds it once per request), from
    ``events()``, every event of ``game`` as of its version."""
    return Sheet(rebuild(game, events()), game, events)
