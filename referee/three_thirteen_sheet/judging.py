"""Judging a Three Thirteen round's entry: a verdict per seat, every problem beside its seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import JOKER, AnyCard, NotationError, TooManyCopiesError, cards_of, check_copies
from referee.errors import RefusedAction
from referee.text import Message, message
from referee.three_thirteen import (
    FALSE_OUT_PENALTY,
    HandSizeError,
    ImpossibleHandError,
    Schedule,
    Split,
    ThreeThirteenRules,
    best_split,
    check_out,
    decks_for,
    go_out,
)
from referee.three_thirteen_sheet.records import (
    _DIGITS,
    MAX_TYPED,
    HandEntry,
    RoundCorrected,
    RoundEntered,
    jokers_for,
)

# ---------------------------------------------------------------------------
# Judging a round's entry


@dataclass(frozen=True, slots=True)
class SeatVerdict:
    """What the referee made of one seat's entry.

    ``score`` is what the seat scores this round (doubled, plus a false-out
    penalty), ``None`` while the entry has a ``problem``.
    """

    seat: int
    cards: str
    points: str
    hand: tuple[AnyCard, ...] | None = None
    split: Split | None = None
    penalty: int = 0
    score: int | None = None
    problem: Message | None = None
    reason: Message | None = None

    @property
    def entry(self) -> HandEntry:
        if self.hand is not None:
            return HandEntry(cards=" ".join(str(c) for c in self.hand))
        return HandEntry(points=int(self.points) if _DIGITS.match(self.points) else None)


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    """A whole round's entry judged: a verdict per seat, and a problem of the table's."""

    round_number: int
    out: frozenset[int]
    doubled: bool
    seats: tuple[SeatVerdict, ...]
    problem: Message | None = None

    @property
    def errors(self) -> dict[int, Message]:
        """The problem of each seat that has one."""
        return {v.seat: v.problem for v in self.seats if v.problem is not None}

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.errors

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(v.score or 0 for v in self.seats)

    @property
    def factor(self) -> int:
        return 2 if self.doubled else 1

    @property
    def reason(self) -> Message:
        """One sentence for a refused entry: the table's problem, or the first seat's."""
        if self.problem is not None:
            return self.problem
        for v in self.seats:
            if v.problem is not None:
                return message("seat {seat}: {why}", seat=v.seat + 1, why=v.problem)
        return message("the round can be saved")

    def record(self, corrected: bool = False) -> RoundEntered:
        """The record a clean entry saves."""
        if not self.ok:
            raise RoundRefused(self)
        cls = RoundCorrected if corrected else RoundEntered
        return cls(
            self.round_number, tuple(sorted(self.out)), tuple(v.entry for v in self.seats), self.scores,
            self.doubled, tuple(v.seat for v in self.seats if v.penalty),
        )


class RoundRefused(RefusedAction):
    """A round entry with problems; ``verdict`` keeps every one beside its seat."""

    def __init__(self, verdict: RoundVerdict) -> None:
        self.verdict = verdict
        super().__init__(verdict.reason)


def _read_hand(text: str, decks: int, rules: ThreeThirteenRules) -> tuple[AnyCard, ...] | Message:
    """The cards of one hand, or why they are not cards the decks can hold."""
    try:
        hand = cards_of(text)
        check_copies(hand, decks=decks, jokers=jokers_for(rules, decks))
    except (NotationError, TooManyCopiesError) as exc:
        return exc.reason  # the mistake's own sentence
    return hand


def judge_round(
    rules: ThreeThirteenRules,
    players: int,
    round_number: int,
    cards: Sequence[str],
    points: Sequence[str | int | None],
    out: Iterable[int],
) -> RoundVerdict:
    """Judge a whole round's entry (cards as notation, points as typed); every problem is
    kept beside its seat.  Raises only for a round the game does not have.

    >>> v = judge_round(ThreeThirteenRules(), 3, 1, ["Ks Kh Kd", "Ks 4d", ""], ["", "", "x"], [0])
    >>> [str(m) for m in v.errors.values()]
    ['Round 1 deals 3 cards; this hand has 2.', 'Points are a whole number from 0 to 999.']
    """
    schedule = Schedule(rules)
    dealt = schedule.cards_dealt(round_number)
    wild = schedule.wild_rank(round_number)
    doubled = schedule.is_doubled(round_number)
    factor = 2 if doubled else 1
    decks = decks_for(players, rules)
    out_seats = frozenset(s for s in out if 0 <= s < players)
    texts = [(cards[s] if s < len(cards) else "").strip() for s in range(players)]
    typed = [str(points[s] if s < len(points) and points[s] is not None else "").strip() for s in range(players)]
    problems: dict[int, Message] = {}
    hands: dict[int, tuple[AnyCard, ...]] = {}
    for seat in range(players):
        text, typed_points = texts[seat], typed[seat]
        if text and typed_points:
            problems[seat] = message("Enter the cards or the points, not both.")
        elif not text:
            if seat in out_seats:
                problems[seat] = message("A player who went out enters the hand, so the referee can check it.")
            elif not typed_points:
                problems[seat] = message("Enter the cards left in the hand, or type the points.")
            elif not _DIGITS.match(typed_points):
                problems[seat] = message("Points are a whole number from 0 to {most}.", most=MAX_TYPED)
        else:
            read = _read_hand(text, decks, rules)
            if isinstance(read, Message):
                problems[seat] = read
                continue
            if len(read) != dealt:
                problems[seat] = HandSizeError(read, dealt, round_number).reason
            hands[seat] = read
    # Cards the decks cannot hold that many times across the whole table.
    table = Counter(c for seat, held in hands.items() if seat not in problems for c in held)
    for card, count in table.items():
        limit = 2 * decks if card == JOKER else decks
        if count > limit:
            for seat, held in hands.items():
                if card in held and seat not in problems:
                    problems[seat] = message(
                        "{card} is entered {count} times at this table, but the decks hold only {limit}",
                        card=card, count=count, limit=limit,
                    )
    seats: list[SeatVerdict] = []
    for seat in range(players):
        hand = hands.get(seat)
        base = SeatVerdict(seat, texts[seat], typed[seat], hand)
        if seat in problems:
            seats.append(_replace(base, problem=problems[seat]))
        elif hand is None:
            seats.append(_replace(base, score=int(typed[seat]) * factor))
        elif seat in out_seats:
            try:
                claim = go_out(hand, round_number, rules, decks=decks)
            except ImpossibleHandError as exc:
                seats.append(_replace(base, split=exc.split, problem=exc.verdict))
                continue
            score = claim.split.points * factor + claim.penalty
            reason = claim.reason if claim.penalty else None
            seats.append(_replace(base, split=claim.split, penalty=claim.penalty, score=score, reason=reason))
        else:
            split = best_split(hand, wild, rules, decks=decks)
            seats.append(_replace(base, split=split, score=split.points * factor))
    problem = None if out_seats else message("Mark who went out (at least one player).")
    return RoundVerdict(round_number, out_seats, doubled, tuple(seats), problem)


def _replace(v: SeatVerdict, **changes: Any) -> SeatVerdict:
    return replace(v, **changes)


@dataclass(frozen=True, slots=True)
class HandPreview:
    """One hand while it is being tapped in: how many cards so far, its split once
    complete, a problem (not cards, too many copies, a claimed out that cannot be),
    or a warning (a false out, with ``false_out``)."""

    dealt: int
    count: int = 0
    split: Split | None = None
    factor: int = 1
    problem: Message | None = None
    warning: Message | None = None


def preview_hand(rules: ThreeThirteenRules, players: int, round_number: int, text: str, *, out: bool) -> HandPreview:
    """The split of one hand while it is being entered (or why there is none yet).

    >>> str(preview_hand(ThreeThirteenRules(), 2, 5, "5s 6s 7s 6h 6d Kc 2h", out=True).problem)[:30]
    'no split puts every card in a '
    """
    schedule = Schedule(rules)
    dealt = schedule.cards_dealt(round_number)
    decks = decks_for(players, rules)
    hand = _read_hand(text or "", decks, rules)
    if isinstance(hand, Message):
        return HandPreview(dealt, problem=hand)
    if len(hand) != dealt:
        return HandPreview(dealt, len(hand))
    factor = 2 if schedule.is_doubled(round_number) else 1
    split = best_split(hand, schedule.wild_rank(round_number), rules, decks=decks)
    if not out or split.is_out:
        return HandPreview(dealt, len(hand), split, factor)
    if rules.false_out:
        warning = message(
            "These cards do not all fit: a false out adds {points} points to them.", points=FALSE_OUT_PENALTY
        )
        return HandPreview(dealt, len(hand), split, factor, warning=warning)
    # The referee's own verdict: it names the leftover truthfully even when those
    # cards would fit a meld that another card already fills.
    try:
        check_out(hand, round_number, rules, decks=decks)
    except ImpossibleHandError as exc:
        return HandPreview(dealt, len(hand), split, factor, problem=exc.verdict)
    return HandPreview(dealt, len(hand), split, factor)  # pragma: no cover - split says it is not out
