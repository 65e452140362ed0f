"""Judging a Three Thirteen round's entry: a verdict per seat, every problem beside its seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import JOKER, AnyCard, NotationError, Rank, TooManyCopiesError, cards_of, check_copies
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
    deal = _Deal(rules, round_number, schedule.cards_dealt(round_number), decks_for(players, rules))
    doubled = schedule.is_doubled(round_number)
    out_seats = frozenset(s for s in out if 0 <= s < players)
    texts = [(cards[s] if s < len(cards) else "").strip() for s in range(players)]
    typed = [str(points[s] if s < len(points) and points[s] is not None else "").strip() for s in range(players)]
    problems: dict[int, Message] = {}
    hands: dict[int, tuple[AnyCard, ...]] = {}
    for seat in range(players):
        read = _read_entry(texts[seat], typed[seat], seat in out_seats, deal)
        if isinstance(read, Message):
            problems[seat] = read
        elif isinstance(read, tuple):
            hands[seat] = read
            if len(read) != deal.dealt:
                problems[seat] = HandSizeError(read, deal.dealt, round_number).reason
    problems.update(_copies_across_the_table(hands, problems, deal.decks))
    factor = 2 if doubled else 1
    wild = schedule.wild_rank(round_number)
    seats = tuple(
        _seat_verdict(SeatVerdict(seat, texts[seat], typed[seat], hands.get(seat)), problems.get(seat),
                      seat in out_seats, deal, wild, factor)
        for seat in range(players)
    )
    problem = None if out_seats else message("Mark who went out (at least one player).")
    return RoundVerdict(round_number, out_seats, doubled, seats, problem)


@dataclass(frozen=True, slots=True)
class _Deal:
    """What every seat of a round is judged against."""

    rules: ThreeThirteenRules
    round_number: int
    dealt: int
    decks: int


def _read_entry(text: str, typed: str, out: bool, deal: _Deal) -> tuple[AnyCard, ...] | Message | None:
    """One seat's entry: its cards (of any count: the count is checked after), the problem
    with it, or ``None`` for typed points.

    >>> deal = _Deal(ThreeThirteenRules(), 1, 3, 1)
    >>> str(_read_entry("", "", True, deal))
    'A player who went out enters the hand, so the referee can check it.'
    >>> _read_entry("", "12", False, deal) is None, len(_read_entry("Ks Kh", "", False, deal))
    (True, 2)
    """
    if text and typed:
        return message("Enter the cards or the points, not both.")
    if text:
        return _read_hand(text, deal.decks, deal.rules)
    if out:
        return message("A player who went out enters the hand, so the referee can check it.")
    if not typed:
        return message("Enter the cards left in the hand, or type the points.")
    if not _DIGITS.match(typed):
        return message("Points are a whole number from 0 to {most}.", most=MAX_TYPED)
    return None


def _copies_across_the_table(
    hands: dict[int, tuple[AnyCard, ...]], problems: dict[int, Message], decks: int
) -> dict[int, Message]:
    """The seats without a problem yet holding a card the decks cannot hold that many times
    across the whole table, each with the sentence that says so.

    >>> from referee.cards import cards_of
    >>> found = _copies_across_the_table({0: cards_of("Ks 4d"), 1: cards_of("Ks 5d")}, {}, 1)
    >>> sorted(found), str(found[0])
    ([0, 1], 'K♠ is entered 2 times at this table, but the decks hold only 1')
    """
    table = Counter(c for seat, held in hands.items() if seat not in problems for c in held)
    found: dict[int, Message] = {}
    for card, count in table.items():
        limit = 2 * decks if card == JOKER else decks
        if count <= limit:
            continue
        for seat, held in hands.items():
            if card in held and seat not in problems and seat not in found:  # the first card found says it
                found[seat] = message(
                    "{card} is entered {count} times at this table, but the decks hold only {limit}",
                    card=card, count=count, limit=limit,
                )
    return found


def _seat_verdict(base: SeatVerdict, problem: Message | None, out: bool, deal: _Deal, wild: Rank,
                  factor: int) -> SeatVerdict:
    """A seat's verdict: its problem, its typed points, its claim to have gone out judged, or
    its hand's best split.

    >>> from referee.cards import cards_of
    >>> deal = _Deal(ThreeThirteenRules(), 1, 3, 1)
    >>> seat = SeatVerdict(0, "Ks Kh Kd", "", cards_of("Ks Kh Kd"))
    >>> _seat_verdict(seat, None, True, deal, Rank.THREE, 1).score
    0
    >>> _seat_verdict(SeatVerdict(1, "", "7", None), None, False, deal, Rank.THREE, 2).score
    14
    """
    hand = base.hand
    if problem is not None:
        return _replace(base, problem=problem)
    if hand is None:
        return _replace(base, score=int(base.points) * factor)
    if not out:
        split = best_split(hand, wild, deal.rules, decks=deal.decks)
        return _replace(base, split=split, score=split.points * factor)
    try:
        claim = go_out(hand, deal.round_number, deal.rules, decks=deal.decks)
    except ImpossibleHandError as exc:
        return _replace(base, split=exc.split, problem=exc.verdict)
    reason = claim.reason if claim.penalty else None
    return _replace(base, split=claim.split, penalty=claim.penalty, score=claim.split.points * factor + claim.penalty,
                    reason=reason)


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
