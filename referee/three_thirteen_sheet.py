"""The Three Thirteen score sheet as a state machine: judging a round, the records, the totals.

A round is entered once for the whole table: for every seat either the cards left
in the hand (the referee splits them) or the points (typed when the cards were
not kept), and who went out.  :meth:`Sheet.judge_round` judges such an entry and
keeps every problem beside its seat; :meth:`Sheet.enter_round` saves a clean one
as a frozen :class:`RoundEntered` record (:class:`RoundCorrected` when the round
was saved before).  The rules of an entry:

- at least one player went out, and a player who went out enters the hand: it
  must go out (every card in a set or run), or with ``false_out`` the false claim
  adds 20 to what the hand counts;
- each other seat enters its cards or its points (a whole number, 0 to 999), not
  both; a hand holds the round's number of cards, and only cards the decks hold;
- across the whole table no card is entered more often than the decks hold it;
- in a doubled round (``doubles``: jacks, queens and kings wild) every hand counts
  twice; the false-out penalty does not.

The sheet keeps the contract of :mod:`referee.errors` (``check_x`` / ``can_x`` /
``x``, ``apply``, ``replay``, ``undo`` returning a new sheet).  A record keeps the
points the referee gave, and replaying trusts them: the totals of a saved game
never change with a later change of the solver.

>>> sheet = Sheet(SheetSetup(("Ana", "Bao"), first_dealer=1))
>>> sheet.dealer(1), sheet.starter(1), sheet.next_round
(1, 0, 1)
>>> verdict = sheet.judge_round(1, cards=["9s 9h 9c", ""], points=["", "12"], out=[0])
>>> verdict.ok, verdict.scores
(True, (0, 12))
>>> str(sheet.judge_round(1, cards=["9s 9h 8c", ""], points=["", "12"], out=[0]).errors[0])
'8♣ 9♠ 9♥ fit no set or run, so this hand cannot go out'
>>> sheet.enter_round(1, cards=["9s 9h 9c", ""], points=["", "12"], out=[0])
RoundEntered(round_number=1, out=(0,), hands=(HandEntry(cards='9♠ 9♥ 9♣', points=None), \
HandEntry(cards=None, points=12)), points=(0, 12), doubled=False, false_out=())
>>> sheet.totals, sheet.next_round, sheet.undo().totals
((0, 12), 2, (0, 0))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from referee.cards import JOKER, AnyCard, Joker, NotationError, TooManyCopiesError, cards_of, check_copies
from referee.errors import RefereeError, RefusedAction, SeatError, StateMachine, can
from referee.records import Records
from referee.text import Message, message
from referee.three_thirteen import (
    FALSE_OUT_PENALTY,
    HandSizeError,
    ImpossibleHandError,
    RoundNumberError,
    Schedule,
    Split,
    ThreeThirteenRules,
    best_split,
    check_out,
    decks_for,
    go_out,
)

__all__ = [
    "MAX_TYPED",
    "SheetSetup",
    "HandEntry",
    "RoundEntered",
    "RoundCorrected",
    "RECORDS",
    "record_from_dict",
    "SeatVerdict",
    "RoundVerdict",
    "judge_round",
    "preview_hand",
    "RoundRefused",
    "HandPreview",
    "ScoredRound",
    "Sheet",
    "replay",
    "jokers_for",
]

MAX_TYPED = 999
"""The most points a seat may type for a round."""
_DIGITS = re.compile(r"^[0-9]{1,3}$")  # ASCII digits only: "²" and "٣" are not points


def jokers_for(rules: ThreeThirteenRules, decks: int) -> dict[Joker, int] | None:
    """The jokers in play: two per deck with ``jokers``, else none."""
    return {JOKER: 2 * decks} if rules.jokers else None


# ---------------------------------------------------------------------------
# Setup and records


@dataclass(frozen=True, slots=True)
class SheetSetup:
    """The players in seat order (the order of play), the house rules and the first dealer.

    >>> SheetSetup(("Ana",))
    Traceback (most recent call last):
    ...
    referee.errors.RefereeError: Three Thirteen needs 2 or more players, not 1
    """

    players: tuple[str, ...]
    rules: ThreeThirteenRules = field(default_factory=ThreeThirteenRules)
    first_dealer: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        decks_for(len(self.players), self.rules)
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, int) or not (
            0 <= self.first_dealer < len(self.players)
        ):
            raise SeatError(self.first_dealer, len(self.players))

    @property
    def decks(self) -> int:
        return decks_for(len(self.players), self.rules)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What was entered for one seat: the cards (in notation) or the points typed."""

    cards: str | None = None
    points: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"cards": self.cards} if self.cards is not None else {"points": self.points}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandEntry:
        if data.get("cards"):
            return cls(cards=str(data["cards"]))
        points = data.get("points")
        return cls(points=None if points is None else int(points))


@dataclass(frozen=True, slots=True)
class RoundEntered:
    """A round saved for the whole table, with the points the referee gave each seat."""

    action: ClassVar[str] = "round"

    round_number: int
    out: tuple[int, ...]
    hands: tuple[HandEntry, ...]
    points: tuple[int, ...]
    doubled: bool = False
    false_out: tuple[int, ...] = ()

    @property
    def typed(self) -> tuple[bool, ...]:
        """Seats whose points were typed, not worked out from cards."""
        return tuple(h.cards is None for h in self.hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "round": self.round_number,
            "out": list(self.out),
            "hands": [h.to_dict() for h in self.hands],
            "points": list(self.points),
            "doubled": self.doubled,
            "false_out": list(self.false_out),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundEntered:
        return cls(
            int(data["round"]),
            tuple(int(s) for s in data.get("out", [])),
            tuple(HandEntry.from_dict(h) for h in data.get("hands", [])),
            tuple(int(p) for p in data["points"]),
            bool(data.get("doubled")),
            tuple(int(s) for s in data.get("false_out", [])),
        )


@dataclass(frozen=True, slots=True)
class RoundCorrected(RoundEntered):
    """A saved round entered again: it replaces the earlier entry of that round."""

    action: ClassVar[str] = "correct"


RECORDS: Records[RoundEntered] = Records("Three Thirteen", RoundEntered, RoundCorrected)


def record_from_dict(data: Mapping[str, Any]) -> RoundEntered:
    """Read back a record; its kind is ``data["action"]`` (``round`` or ``correct``).

    >>> record_from_dict({"action": "correct", "round": 2, "out": [1], "points": [5, 0],
    ...                   "hands": [{"points": 5}, {"cards": "3s 4s 5s 6s"}]}).round_number
    2
    """
    return RECORDS.from_dict(data)


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


# ---------------------------------------------------------------------------
# The sheet


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round on the sheet: its record, whether it was corrected, the totals after it."""

    record: RoundEntered
    corrected: bool
    totals: tuple[int, ...]

    @property
    def number(self) -> int:
        return self.record.round_number


class Sheet(StateMachine["SheetSetup", "RoundEntered"]):
    """An eleven-round (or longer) score sheet, one record per round entered.

    ``check_enter_round`` raises :class:`RoundRefused` (carrying the whole
    :class:`RoundVerdict`) for an entry with problems, or :class:`RefusedAction`
    for a round that is not open yet; ``can_enter_round`` answers whether
    ``enter_round`` would save it; ``enter_round`` appends the record.
    """

    def __init__(self, setup: SheetSetup) -> None:
        super().__init__(setup)
        self._rounds: dict[int, tuple[RoundEntered, bool]] = {}

    # -- what the sheet shows -------------------------------------------------------
    @property
    def rules(self) -> ThreeThirteenRules:
        return self.setup.rules

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def schedule(self) -> Schedule:
        return Schedule(self.rules)

    @property
    def decks(self) -> int:
        return self.setup.decks

    @property
    def rounds(self) -> tuple[ScoredRound, ...]:
        """The rounds saved, in order, each with the running totals."""
        totals = [0] * self.players
        scored = []
        for n in sorted(self._rounds):
            record, corrected = self._rounds[n]
            totals = [a + b for a, b in zip(totals, record.points, strict=True)]
            scored.append(ScoredRound(record, corrected, tuple(totals)))
        return tuple(scored)

    @property
    def totals(self) -> tuple[int, ...]:
        rounds = self.rounds
        return rounds[-1].totals if rounds else (0,) * self.players

    @property
    def next_round(self) -> int | None:
        """The round to enter next, or ``None`` once every round is saved."""
        n = len(self._rounds) + 1
        return n if n <= self.schedule.rounds else None

    @property
    def finished(self) -> bool:
        return self.next_round is None

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the lowest total (after at least one round)."""
        if not self._rounds:
            return ()
        totals = self.totals
        return tuple(s for s, t in enumerate(totals) if t == min(totals))

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders if self.finished else ()

    def saved(self, round_number: int) -> RoundEntered | None:
        entry = self._rounds.get(round_number)
        return entry[0] if entry else None

    def dealer(self, round_number: int) -> int:
        return self.schedule.dealer(round_number, first_dealer=self.setup.first_dealer, players=self.players)

    def starter(self, round_number: int) -> int:
        return self.schedule.starter(round_number, first_dealer=self.setup.first_dealer, players=self.players)

    # -- entering a round ---------------------------------------------------------------
    def judge_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundVerdict:
        """The verdict on an entry, problems and all (see :func:`judge_round`)."""
        return judge_round(self.rules, self.players, round_number, cards, points, out)

    def preview_hand(self, round_number: int, text: str, *, out: bool) -> HandPreview:
        return preview_hand(self.rules, self.players, round_number, text, out=out)

    def check_round_open(self, round_number: int) -> None:
        """Raise unless ``round_number`` may be entered: the next round, or a saved one (to correct)."""
        limit = self.next_round or self.schedule.rounds
        if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= limit:
            if isinstance(round_number, int) and 1 <= round_number <= self.schedule.rounds:
                raise RefusedAction(message(
                    "round {round} cannot be entered before round {next}", round=round_number, next=limit
                ))
            raise RoundNumberError(round_number, self.schedule.rounds)

    def check_enter_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundVerdict:
        """Raise unless the entry may be saved; otherwise return its clean verdict."""
        self.check_round_open(round_number)
        verdict = self.judge_round(round_number, cards, points, out)
        if not verdict.ok:
            raise RoundRefused(verdict)
        return verdict

    can_enter_round = can(check_enter_round)

    def enter_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundEntered:
        """Save the round (a correction if it was saved before); returns the record."""
        verdict = self.check_enter_round(round_number, cards, points, out)
        return self._append(verdict.record(corrected=round_number in self._rounds))

    # -- replay and undo -----------------------------------------------------------------
    def apply(self, action: RoundEntered | Mapping[str, Any]) -> RoundEntered:
        """Add a saved record again (its points are trusted, not worked out again)."""
        record = record_from_dict(action) if isinstance(action, Mapping) else action
        self.check_round_open(record.round_number)
        if len(record.points) != self.players or len(record.hands) not in (0, self.players):
            raise RefereeError(message(
                "round {round} has {count} scores, but the table has {players} players",
                round=record.round_number, count=len(record.points), players=self.players,
            ))
        return self._append(record)

    def _append(self, record: RoundEntered) -> RoundEntered:
        n = record.round_number
        self._rounds[n] = (record, isinstance(record, RoundCorrected) or n in self._rounds)
        self.log.append(record)
        return record

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "rounds": [{"round": r.number, "points": list(r.record.points), "totals": list(r.totals),
                        "corrected": r.corrected} for r in self.rounds],
            "totals": list(self.totals),
            "next_round": self.next_round,
            "winners": list(self.winners),
        }


def replay(setup: SheetSetup, actions: Iterable[RoundEntered | Mapping[str, Any]]) -> Sheet:
    """Rebuild a sheet from its setup and its records (or their dicts)."""
    return Sheet.replay(setup, actions)
