"""Three Thirteen (3-13 rummy): the rounds, the melds, the score of a hand.

A round deals one card more than the last, and the rank that matches the
number dealt is wild.  At the end of a round every hand is split into sets
and runs; the cards outside them count against their holder.  The referee
finds the split that leaves the fewest points itself.

Round 4 deals six cards and 6s are wild.  Three 9s are a set, and the 6 of
clubs stands in for the 6 of hearts in a run of hearts, so this hand is out:

>>> split = best_split(parse_cards("9s 9h 9c 4h 5h 6c"), Rank.SIX)
>>> print(split)
4♥ 5♥ 6♣(6♥) | 9♠ 9♣ 9♥ | leftover: none, 0 points
>>> split.is_out
True

Cards that fit nothing count: a king 10, a 4 and an ace 1 make 15, or 18
when picture cards count by rank.

>>> best_split(parse_cards("Kd 4s Ac"), Rank.THREE).points
15
>>> best_split(parse_cards("Kd 4s Ac"), Rank.THREE, ThreeThirteenRules(faces="rank")).points
18
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from referee.cards import (
    JOKER,
    AnyCard,
    Card,
    CardsLike,
    Joker,
    Rank,
    Suit,
    cards_of,
    check_copies,
    format_cards,
    parse_cards,  # noqa: F401  (the examples use it)
)
from referee.errors import RefereeError, SeatError
from referee.switches import SwitchError, bad_choice, not_on_or_off, rules_from_mapping
from referee.text import Message, message
from referee.three_thirteen_solver import BIG, Plan, position_rank, solve

__all__ = [
    "ThreeThirteenRules",
    "Schedule",
    "Meld",
    "RankOnly",
    "Face",
    "Split",
    "OutClaim",
    "RoundScore",
    "HandSizeError",
    "ImpossibleHandError",
    "RoundNumberError",
    "rules_from_mapping",
    "decks_for",
    "card_points",
    "is_wild",
    "best_split",
    "split_hand",
    "check_out",
    "can_go_out",
    "go_out",
    "score_round",
    "MAX_HAND",
    "JOKER_POINTS",
    "FALSE_OUT_PENALTY",
]

MAX_HAND = 15
"""The largest hand the game deals (round 13 of the longer game)."""
JOKER_POINTS = 20
FALSE_OUT_PENALTY = 20
_MAX_DECKS = 8


# ---------------------------------------------------------------------------
# House rules


@dataclass(frozen=True, kw_only=True)
class ThreeThirteenRules:
    """The table's house rules; field names are the switch ids of RULES.md.

    >>> ThreeThirteenRules()
    ThreeThirteenRules(faces='ten', decks=None, aces='low', jokers=False, longer_game=False, \
up_and_back=False, doubles=False, false_out=False)
    >>> rules_from_mapping(ThreeThirteenRules, {"faces": "rank", "decks": "2", "jokers": "on"}).decks
    2
    >>> ThreeThirteenRules(decks=9)
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: house rule 'decks' takes 1 to 8 decks, not 9
    """

    faces: str = "ten"
    decks: int | None = None
    aces: str = "low"
    jokers: bool = False
    longer_game: bool = False
    up_and_back: bool = False
    doubles: bool = False
    false_out: bool = False

    CHOICES = {"faces": ("ten", "rank"), "aces": ("low", "high_or_low")}  # noqa: RUF012
    RANGES = {"decks": (1, _MAX_DECKS)}  # noqa: RUF012  # a number switch's bounds (the API's schema says them)

    def __post_init__(self) -> None:
        for name, options in self.CHOICES.items():
            value = getattr(self, name)
            if value not in options:
                raise bad_choice(name, options, value)
        if self.decks is not None and (
            isinstance(self.decks, bool) or not isinstance(self.decks, int) or not 1 <= self.decks <= _MAX_DECKS
        ):
            raise SwitchError("decks", message(
                "house rule 'decks' takes 1 to {most} decks, not {value}", most=_MAX_DECKS, value=repr(self.decks)
            ))
        for name in ("jokers", "longer_game", "up_and_back", "doubles", "false_out"):
            if not isinstance(getattr(self, name), bool):
                raise not_on_or_off(name, getattr(self, name))

    @property
    def aces_high(self) -> bool:
        """``Q K A`` is a run too (switch ``aces=high_or_low``)."""
        return self.aces == "high_or_low"


_DEFAULT_RULES = ThreeThirteenRules()


def decks_for(players: int, rules: ThreeThirteenRules = _DEFAULT_RULES) -> int:
    """Decks shuffled together: one for two players, two for three or four, one
    more for every two further players, unless the table fixed the number.

    >>> [decks_for(n) for n in range(2, 9)]
    [1, 2, 2, 3, 3, 4, 4]
    >>> decks_for(2, ThreeThirteenRules(decks=2))
    2
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise RefereeError(message("Three Thirteen needs 2 or more players, not {players}", players=repr(players)))
    if rules.decks is not None:
        return rules.decks
    return 1 if players == 2 else 2 + (players - 3) // 2


# ---------------------------------------------------------------------------
# Rounds


class RoundNumberError(RefereeError):
    """A round the game does not have."""

    def __init__(self, round_number: object, rounds: int) -> None:
        self.round_number = round_number
        self.rounds = rounds
        super().__init__(message(
            "there is no round {round}: this game has rounds 1 to {rounds}", round=repr(round_number), rounds=rounds
        ))


def _wild_rank_for(dealt: int) -> Rank:
    """3 to 13 cards: the rank with that number; 14: aces; 15: 2s."""
    return Rank(dealt) if dealt <= 13 else Rank(dealt - 13)


@dataclass(frozen=True)
class Schedule:
    """The plan of rounds: cards dealt, wild rank, dealer and doubled rounds.

    Eleven rounds deal 3 to 13 cards; the wild rank is the number dealt.

    >>> s = Schedule()
    >>> s.rounds, s.cards_dealt(1), s.wild_rank(1).plural, s.wild_rank(9).plural, s.wild_rank(11).plural
    (11, 3, '3s', 'jacks', 'kings')

    The longer game adds 14 cards with aces wild and 15 with 2s wild; up and back
    comes down again, dealing 13 twice in a row.

    >>> long = Schedule(ThreeThirteenRules(longer_game=True))
    >>> long.rounds, long.cards_dealt(12), long.wild_rank(12).plural, long.wild_rank(13).plural
    (13, 14, 'aces', '2s')
    >>> Schedule(ThreeThirteenRules(up_and_back=True)).deals[9:13]
    (12, 13, 13, 12)

    With ``doubles`` the jack, queen and king rounds count double.

    >>> d = Schedule(ThreeThirteenRules(doubles=True))
    >>> [r for r in range(1, d.rounds + 1) if d.is_doubled(r)]
    [9, 10, 11]
    """

    rules: ThreeThirteenRules = _DEFAULT_RULES

    @property
    def deals(self) -> tuple[int, ...]:
        """Cards dealt in each round, first to last."""
        top = 15 if self.rules.longer_game else 13
        up = tuple(range(3, top + 1))
        return up + up[::-1] if self.rules.up_and_back else up

    @property
    def rounds(self) -> int:
        return len(self.deals)

    def _check(self, round_number: int) -> int:
        if isinstance(round_number, bool) or not isinstance(round_number, int) or not (
            1 <= round_number <= self.rounds
        ):
            raise RoundNumberError(round_number, self.rounds)
        return round_number

    def cards_dealt(self, round_number: int) -> int:
        """Cards each player holds in round ``round_number`` (1-based)."""
        return self.deals[self._check(round_number) - 1]

    def wild_rank(self, round_number: int) -> Rank:
        """The rank that is wild: the number of cards dealt."""
        return _wild_rank_for(self.cards_dealt(round_number))

    def is_doubled(self, round_number: int) -> bool:
        """With ``doubles``, rounds where jacks, queens or kings are wild count double."""
        wild = self.wild_rank(round_number)
        return self.rules.doubles and wild in (Rank.JACK, Rank.QUEEN, Rank.KING)

    def dealer(self, round_number: int, *, first_dealer: int, players: int) -> int:
        """The dealer's seat; seats are numbered in playing order, so the deal
        passes to the next seat (the left) each round.

        >>> [Schedule().dealer(r, first_dealer=2, players=3) for r in (1, 2, 3, 4)]
        [2, 0, 1, 2]
        """
        self._check_seat(first_dealer, players)
        return (first_dealer + self._check(round_number) - 1) % players

    def starter(self, round_number: int, *, first_dealer: int, players: int) -> int:
        """The round is opened by the seat after the dealer (play goes to the left).

        >>> Schedule().starter(1, first_dealer=2, players=3)
        0
        """
        return (self.dealer(round_number, first_dealer=first_dealer, players=players) + 1) % players

    @staticmethod
    def _check_seat(seat: int, players: int) -> None:
        decks_for(players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise SeatError(seat, players)


# ---------------------------------------------------------------------------
# Cards and points


def is_wild(card: AnyCard, wild_rank: Rank | int) -> bool:
    """Whether a card is wild: it has the round's wild rank, or it is a joker; it may replace any card of a meld.

    >>> is_wild(Card.parse("6c"), Rank.SIX), is_wild(JOKER, Rank.SIX), is_wild(Card.parse("7c"), 6)
    (True, True, False)
    """
    return isinstance(card, Joker) or card.rank == wild_rank


def card_points(card: AnyCard, rules: ThreeThirteenRules = _DEFAULT_RULES) -> int:
    """What a card left outside the melds costs (a wild card too: its usual value).

    >>> [card_points(c) for c in parse_cards("As 7d 10h Js Qs Ks JK")]
    [1, 7, 10, 10, 10, 10, 20]
    >>> [card_points(c, ThreeThirteenRules(faces="rank", aces="high_or_low")) for c in parse_cards("As Js Qs Ks")]
    [15, 11, 12, 13]
    """
    if isinstance(card, Joker):
        return JOKER_POINTS
    return _rank_points(int(card.rank), rules.faces == "rank", rules.aces_high)


def _rank_points(rank: int, faces_rank: bool, aces_high: bool) -> int:
    if rank == 1:
        return 15 if aces_high else 1
    if rank > 10 and not faces_rank:
        return 10
    return rank


def _sort_key(card: AnyCard) -> tuple[int, int, int]:
    if isinstance(card, Joker):
        return (1, 0, 0)
    return (0, int(card.rank), int(card.suit))


def _face_key(face: AnyCard | RankOnly) -> tuple[int, int, int]:
    if isinstance(face, RankOnly):
        return (0, int(face.rank), -1)
    return _sort_key(face)


def _sorted(cards: Iterable[AnyCard]) -> tuple[AnyCard, ...]:
    return tuple(sorted(cards, key=_sort_key))


# ---------------------------------------------------------------------------
# Value types


@dataclass(frozen=True, slots=True)
class RankOnly:
    """What a wild card stands for when the decks hold no spare copy of the card it
    fills: a card of the set's rank, or the rank's place in a run, no suit named.

    >>> print(best_split(parse_cards("7s 7h 7d 7c Js"), Rank.JACK, decks=1))
    7♠ 7♣ 7♦ 7♥ J♠(7) | leftover: none, 0 points
    """

    rank: Rank

    def __str__(self) -> str:
        return self.rank.symbol


Face = Card | RankOnly
"""What a card in a meld counts as."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run, and what each card in it counts as.

    ``faces[i]`` is the card ``cards[i]`` stands for: itself for a natural card,
    the card it replaces for a wild card.  A wild card only ever stands for a card
    the decks can supply besides the cards of the hand; when there is none, it
    stands for the rank alone (:class:`RankOnly`).

    >>> m = Meld("run", parse_cards("4h 5h 6c"), parse_cards("4h 5h 6h"))
    >>> print(m), m.stand_ins
    4♥ 5♥ 6♣(6♥) (None, ((Card.parse('6♣'), Card.parse('6♥')),))
    """

    kind: str
    cards: tuple[AnyCard, ...]
    faces: tuple[Face, ...]

    @property
    def stand_ins(self) -> tuple[tuple[AnyCard, Face], ...]:
        """The wild cards that stand for another card, with that card."""
        return tuple((c, f) for c, f in zip(self.cards, self.faces, strict=True) if c != f)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) if c == f else f"{c}({f})" for c, f in zip(self.cards, self.faces, strict=True))

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cards": format_cards(self.cards),
            "faces": " ".join(str(f) for f in self.faces),
            "text": str(self),
        }


@dataclass(frozen=True, slots=True)
class Split:
    """A hand split into melds and leftover cards, and what the leftover costs."""

    melds: tuple[Meld, ...]
    leftover: tuple[AnyCard, ...]
    points: int

    @property
    def is_out(self) -> bool:
        """Every card is in a meld."""
        return not self.leftover

    @property
    def cards(self) -> tuple[AnyCard, ...]:
        return tuple(c for m in self.melds for c in m.cards) + self.leftover

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        left = format_cards(self.leftover) if self.leftover else "none"
        parts.append(f"leftover: {left}, {self.points} point{'' if self.points == 1 else 's'}")
        return " | ".join(parts)

    def explain(self) -> Message:
        """One plain sentence for the players."""
        if self.is_out:
            return message("every card is in a set or run: 0 points")
        # "Left over", not "fit no set or run": one card, one job may leave over a
        # card that would fit a meld another card of the hand already fills.
        leftover = list(self.leftover)
        if len(leftover) > 1:
            return message("{leftover} are left over and count {points} points", leftover=leftover, points=self.points)
        if self.points == 1:
            return message("{leftover} is left over and counts 1 point", leftover=leftover)
        return message("{leftover} is left over and counts {points} points", leftover=leftover, points=self.points)

    def to_dict(self) -> dict[str, object]:
        return {
            "melds": [m.to_dict() for m in self.melds],
            "leftover": format_cards(self.leftover),
            "points": self.points,
        }


# ---------------------------------------------------------------------------
# Errors


class HandSizeError(RefereeError):
    """A hand with the wrong number of cards for the round."""

    def __init__(self, hand: Sequence[AnyCard], expected: int | None, round_number: int | None = None) -> None:
        self.hand = tuple(hand)
        self.expected = expected
        self.round_number = round_number
        if expected is None:
            reason = message("A hand holds at most {most} cards; this one has {count}.", most=MAX_HAND, count=len(self.hand))
        else:
            reason = message(
                "Round {round} deals {dealt} cards; this hand has {count}.",
                round=round_number, dealt=expected, count=len(self.hand),
            )
        super().__init__(reason)


class ImpossibleHandError(RefereeError):
    """A hand that cannot go out: the cards its best split leaves over are in ``leftover``
    (``fit_elsewhere``: some of them would fit a meld that another card already fills)."""

    def __init__(
        self, hand: Sequence[AnyCard], split: Split, penalty: int | None = None, *, fit_elsewhere: bool = False
    ) -> None:
        self.hand = tuple(hand)
        self.split = split
        self.leftover = split.leftover
        self.penalty = penalty
        self.fit_elsewhere = fit_elsewhere
        self.verdict = _why_not_out(split.leftover, fit_elsewhere, None)
        super().__init__(self.verdict)


def _why_not_out(leftover: Sequence[AnyCard], fit_elsewhere: bool, penalty: int | None) -> Message:
    """The sentence that refuses an out (or, with a ``penalty``, charges a false one):
    the leftover cards fit no meld at all, or (one card, one job) they would fit one
    that another card of the hand already fills, so the melds cannot take them all."""
    cards = list(leftover)
    if penalty is None:
        if fit_elsewhere:
            return message(
                "no split puts every card in a set or run (the best leaves {leftover} over), "
                "so this hand cannot go out",
                leftover=cards,
            )
        if len(cards) == 1:
            return message("{leftover} fits no set or run, so this hand cannot go out", leftover=cards)
        return message("{leftover} fit no set or run, so this hand cannot go out", leftover=cards)
    if fit_elsewhere:
        return message(
            "no split puts every card in a set or run (the best leaves {leftover} over), "
            "so this false claim adds {penalty} points",
            leftover=cards,
            penalty=penalty,
        )
    if len(cards) == 1:
        return message(
            "{leftover} fits no set or run, so this false claim adds {penalty} points", leftover=cards, penalty=penalty
        )
    return message("{leftover} fit no set or run, so this false claim adds {penalty} points", leftover=cards, penalty=penalty)


def _fits_a_meld(card: AnyCard, others: Sequence[AnyCard], wild_rank: Rank, aces_high: bool) -> bool:
    """Whether ``card`` makes a meld with some two of ``others`` (any meld holding a
    card holds a three-card one that does: three of its set, or three in a row of its run)."""
    for a, b in itertools.combinations(others, 2):
        naturals = [c for c in (card, a, b) if isinstance(c, Card) and not is_wild(c, wild_rank)]
        if len({c.rank for c in naturals}) <= 1:
            return True
        if len({c.suit for c in naturals}) != 1:
            continue
        ranks = sorted(int(c.rank) for c in naturals)
        for row in (ranks, sorted(14 if r == 1 else r for r in ranks) if aces_high else None):
            if row is not None and len(set(row)) == len(row) and row[-1] - row[0] <= 2:
                return True
    return False


def best_split(
    hand: Iterable[AnyCard],
    wild_rank: Rank | int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    decks: int | None = None,
) -> Split:
    """The split of ``hand`` into melds that leaves the fewest points.

    A **set** is three or more cards of one rank; with two decks or more it may
    hold twin cards.  A **run** is three or more cards of one suit in a row,
    each rank once; aces are low and nothing wraps.  A wild card stands in for
    any card of a set or run, a meld may hold several, even be all wild, and a
    card belongs to one meld at most.  On equal points the split leaves fewer
    cards, then uses fewer (longer) melds.

    >>> print(best_split(parse_cards("4h 6h 5d"), Rank.FIVE))
    4♥ 5♦(5♥) 6♥ | leftover: none, 0 points
    >>> print(best_split(parse_cards("9d 5s 5h"), Rank.FIVE))
    9♦ 5♠(9♠) 5♥(9♣) | leftover: none, 0 points
    >>> print(best_split(parse_cards("2c 6c 9c"), Rank.THREE))
    leftover: 2♣ 6♣ 9♣, 17 points
    >>> print(best_split(parse_cards("5s 6s 7s 6h 6d"), Rank.KING))
    6♠ 6♦ 6♥ | leftover: 5♠ 7♠, 12 points
    >>> print(best_split(parse_cards("9h 9h 9s"), Rank.THREE, decks=2))
    9♠ 9♥ 9♥ | leftover: none, 0 points
    >>> print(best_split(parse_cards("Qh Kh Ah"), Rank.THREE))
    leftover: A♥ Q♥ K♥, 21 points
    >>> print(best_split(parse_cards("Qh Kh Ah"), Rank.THREE, ThreeThirteenRules(aces="high_or_low")))
    Q♥ K♥ A♥ | leftover: none, 0 points
    """
    rules = rules if rules is not None else _DEFAULT_RULES
    cards = tuple(hand)
    wild = Rank(int(wild_rank))
    _check_cards(cards, rules, decks)
    faces_rank = rules.faces == "rank"
    aces_high = rules.aces_high
    wild_cards = [c for c in cards if is_wild(c, wild)]
    naturals = [c for c in cards if isinstance(c, Card) and not is_wild(c, wild)]
    counts = Counter((int(c.rank), int(c.suit)) for c in naturals)
    points = {p: _rank_points(p if p <= 13 else 1, faces_rank, aces_high) for p in range(1, 15)}
    plan = solve(counts, len(wild_cards), aces_high, points)
    split = _rebuild(plan, wild_cards, wild, aces_high, rules)
    return _fix_labels(split, decks if decks is not None else (rules.decks or _MAX_DECKS), rules)


def _rebuild(
    plan: Plan,
    wild_cards: list[AnyCard],
    wild_rank: Rank,
    aces_high: bool,
    rules: ThreeThirteenRules,
) -> Split:
    """Deal the wild cards into the plan's gaps (and spare ones into a meld)."""
    top = 14 if aces_high else 13
    runs = [(s, list(entries)) for s, entries in plan.runs]
    sets = [(rank, list(naturals)) for rank, naturals in plan.sets]
    dead: list[AnyCard] = list(plan.dead)
    key = plan.key
    wilds = sorted(wild_cards, key=_sort_key)
    # Run slots: (run index, position) needing a wild card.
    run_slots: list[list[int]] = []
    run_specs: list[tuple[int, list[tuple[int, bool]]]] = []
    for s, entries in runs:
        positions = [p for p, _n in entries]
        low, high = positions[0], positions[-1]
        while high - low + 1 < 3:
            if high < top and not (low == 1 and high + 1 == 14):
                high += 1
                entries = entries + [(high, False)]
            else:
                low -= 1
                entries = [(low, False)] + entries
        if high - low + 1 > 13:  # ace low and ace high: two runs instead
            run_specs.append((s, entries[:7]))
            run_specs.append((s, entries[7:]))
        else:
            run_specs.append((s, entries))
    for _s, entries in run_specs:
        run_slots.append([p for p, natural in entries if not natural])
    # Wild cards that can stand for themselves in a run go there first.
    assigned: dict[tuple[int, int], AnyCard] = {}
    for i, (s, _entries) in enumerate(run_specs):
        for p in run_slots[i]:
            me = Card(position_rank(p), Suit(s))
            if me in wilds:
                wilds.remove(me)
                assigned[(i, p)] = me
    melds: list[Meld] = []
    for i, (s, entries) in enumerate(run_specs):
        cards: list[AnyCard] = []
        faces: list[Card] = []
        for p, natural in entries:
            face = Card(position_rank(p), Suit(s))
            if natural:
                cards.append(face)
            elif (i, p) in assigned:
                cards.append(assigned[(i, p)])
            else:
                cards.append(wilds.pop(0))
            faces.append(face)
        melds.append(Meld("run", tuple(cards), tuple(faces)))
    for rank, naturals in sets:
        need = max(0, 3 - len(naturals))
        extra = [wilds.pop(0) for _ in range(need)]
        melds.append(_make_set(rank, naturals, extra))
    if not melds and len(wilds) >= 3:
        melds.append(_make_set(wild_rank, [], wilds))  # all wild: a set of the wild rank
        wilds = []
    if melds and wilds:
        melds = _absorb(melds, wilds, top)
        wilds = []
    leftover = _sorted(dead + wilds)
    melds.sort(key=lambda m: (_face_key(m.faces[0]), m.kind))
    points = sum(card_points(c, rules) for c in leftover)
    if not wilds:
        assert points == key // BIG, (points, key)
    return Split(tuple(melds), leftover, points)


def _fix_labels(split: Split, decks: int, rules: ThreeThirteenRules) -> Split:
    """Name what each wild card stands for with cards the decks can supply.

    A card the hand holds as many times as the decks hold it cannot also be stood
    for.  A run's wild card stands for a fixed card: when the hand holds every copy
    of it, one held in a set (or, at equal points, left over) trades places with the
    wild card; when none can, the wild card stands for the rank's place in the run
    (:class:`RankOnly`).  A set's wild cards then stand for cards of its rank still
    to be had (suits the set lacks first), or for the rank alone.  Points never change.
    """
    held = Counter(c for c in split.cards if isinstance(c, Card))
    used: Counter[Card] = Counter()
    cards = [list(m.cards) for m in split.melds]
    faces: list[list[Face]] = [list(m.faces) for m in split.melds]
    kinds = [m.kind for m in split.melds]
    leftover = list(split.leftover)

    def room(card: Card) -> int:
        return decks - held[card] - used[card]

    for i, kind in enumerate(kinds):
        if kind != "run":
            continue
        for j, (card, face) in enumerate(zip(cards[i], faces[i], strict=True)):
            if card == face or not isinstance(face, Card):
                continue
            if room(face) <= 0:
                _trade(face, card, i, j, cards, faces, kinds, leftover, rules)
            if cards[i][j] == face:
                continue
            if room(face) > 0:
                used[face] += 1
            else:  # every copy is held and none can trade places: the wild card fills the rank's place
                faces[i][j] = RankOnly(face.rank)
    for i, kind in enumerate(kinds):
        if kind != "set":
            continue
        rank = faces[i][0].rank
        naturals = sorted(c for c, f in zip(cards[i], faces[i], strict=True) if c == f and isinstance(c, Card))
        wilds = [c for c, f in zip(cards[i], faces[i], strict=True) if c != f]
        suits = [s for s in Suit if all(c.suit != s for c in naturals)]
        suits += [s for s in Suit if s not in suits]
        new_cards: list[AnyCard] = list(naturals)
        new_faces: list[Face] = list(naturals)
        for w in wilds:
            label: Face = RankOnly(rank)
            for k, suit in enumerate(suits):
                if room(Card(rank, suit)) > 0:
                    label = Card(rank, suit)
                    used[label] += 1
                    suits.append(suits.pop(k))  # the next wild card tries another suit first
                    break
            new_cards.append(w)
            new_faces.append(label)
        cards[i], faces[i] = new_cards, new_faces
    melds = tuple(Meld(k, tuple(c), tuple(f)) for k, c, f in zip(kinds, cards, faces, strict=True))
    rest = _sorted(leftover)
    points = sum(card_points(c, rules) for c in rest)
    assert points == split.points, (points, split.points)
    return Split(melds, rest, points)


def _trade(
    face: Card, wild: AnyCard, i: int, j: int, cards: list[list[AnyCard]], faces: list[list[Face]],
    kinds: list[str], leftover: list[AnyCard], rules: ThreeThirteenRules,
) -> None:
    """Put a held copy of ``face`` in run ``i`` at ``j`` in place of ``wild``, which takes
    its place: a wild card standing for another card in a run, any card of a set, or a
    card left over that costs the same."""
    for k, kind in enumerate(kinds):
        for m, (card, stands) in enumerate(zip(cards[k], faces[k], strict=True)):
            if card != face or (k, m) == (i, j):
                continue
            if kind == "run" and stands != card:  # a wild card standing for another card: they swap
                cards[k][m] = wild
            elif kind == "set":
                cards[k][m], faces[k][m] = wild, RankOnly(face.rank)  # named again with the set
            else:
                continue
            cards[i][j] = face
            return
    for m, card in enumerate(leftover):
        if card == face and card_points(card, rules) == card_points(wild, rules):
            leftover[m] = wild
            cards[i][j] = face
            return


def _make_set(rank: Rank, naturals: list[Card], extra: list[AnyCard]) -> Meld:
    """A set of ``rank``; each wild card stands for a suit the set lacks, if any."""
    naturals = sorted(naturals)
    missing = [s for s in Suit if all(c.suit != s for c in naturals)] or list(Suit)
    cards: list[AnyCard] = list(naturals)
    faces: list[Card] = list(naturals)
    for i, w in enumerate(extra):
        cards.append(w)
        if isinstance(w, Card) and w.rank == rank:
            faces.append(w)
        else:
            faces.append(Card(rank, missing[i % len(missing)]))
    return Meld("set", tuple(cards), tuple(faces))


def _absorb(melds: list[Meld], wilds: list[AnyCard], top: int) -> list[Meld]:
    """Put spare wild cards into a meld: a set takes any number, a run grows to 13."""
    for i, m in enumerate(melds):
        if m.kind == "set":
            naturals = [c for c, f in zip(m.cards, m.faces, strict=True) if c == f]
            others = [c for c, f in zip(m.cards, m.faces, strict=True) if c != f]
            melds[i] = _make_set(m.faces[0].rank, naturals, others + wilds)
            return melds
    for i, m in enumerate(melds):
        cards, faces = list(m.cards), [f for f in m.faces if isinstance(f, Card)]  # a run's faces are cards
        positions = [_run_position(f, j, faces) for j, f in enumerate(faces)]
        suit = faces[0].suit
        while wilds and positions[-1] - positions[0] + 1 < 13:
            if positions[-1] < top and not (positions[0] == 1 and positions[-1] == 13):
                positions.append(positions[-1] + 1)
                cards.append(wilds.pop(0))
                faces.append(Card(position_rank(positions[-1]), suit))
            else:
                positions.insert(0, positions[0] - 1)
                cards.insert(0, wilds.pop(0))
                faces.insert(0, Card(position_rank(positions[0]), suit))
        melds[i] = Meld("run", tuple(cards), tuple(faces))
        if not wilds:
            return melds
    # Only thirteen-card runs: two spare wilds make a set with the run's top card;
    # one splits the run and extends its lower half (standing for a card the upper half holds too).
    m = melds[0]
    if len(wilds) >= 2:
        melds[0] = Meld("run", m.cards[:-1], m.faces[:-1])
        rank = m.faces[-1].rank
        top_card = m.cards[-1]
        naturals = [top_card] if top_card == m.faces[-1] else []
        melds.append(_make_set(rank, naturals, ([] if naturals else [top_card]) + wilds))
    else:
        low = Meld("run", m.cards[:6] + (wilds[0],), m.faces[:7])
        melds[0] = low
        melds.append(Meld("run", m.cards[6:], m.faces[6:]))
    return melds


def _run_position(face: Card, index: int, faces: list[Card]) -> int:
    """Position 1..14 of a run card: an ace is 14 when it follows a king."""
    if face.rank == Rank.ACE and index > 0:
        return 14
    return int(face.rank)


def _check_cards(cards: Sequence[AnyCard], rules: ThreeThirteenRules, decks: int | None) -> None:
    if len(cards) > MAX_HAND:
        raise HandSizeError(cards, None)
    n = decks if decks is not None else (rules.decks or _MAX_DECKS)
    check_copies(cards, decks=n, jokers={JOKER: 2 * n} if rules.jokers else None)


# ---------------------------------------------------------------------------
# Rounds: splitting hands, going out, scoring


def split_hand(
    hand: CardsLike,
    round_number: int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    players: int | None = None,
    decks: int | None = None,
) -> Split:
    """The best split of a hand at the end of round ``round_number``.

    The hand must hold the round's number of cards, and only cards the decks
    can hold (the number of decks follows the players unless given).

    >>> print(split_hand("9s 9h 9c 4h 5h 6c", 4, players=2))
    4♥ 5♥ 6♣(6♥) | 9♠ 9♣ 9♥ | leftover: none, 0 points
    >>> split_hand("9s 9h 9c 4h 5h", 4, players=2)
    Traceback (most recent call last):
    ...
    referee.three_thirteen.HandSizeError: Round 4 deals 6 cards; this hand has 5.
    >>> split_hand("9s 9h 9s", 1, players=2)
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: 9♠ appears 2 times, but one deck holds it only once
    """
    cards = cards_of(hand)
    schedule = Schedule(rules)
    expected = schedule.cards_dealt(round_number)
    if len(cards) != expected:
        raise HandSizeError(cards, expected, round_number)
    n = _decks(rules, players, decks)
    return best_split(cards, schedule.wild_rank(round_number), rules, decks=n)


def _decks(rules: ThreeThirteenRules, players: int | None, decks: int | None) -> int | None:
    if decks is not None:
        return decks
    if rules.decks is not None:
        return rules.decks
    if players is not None:
        return decks_for(players, rules)
    return None


def check_out(
    hand: CardsLike,
    round_number: int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    players: int | None = None,
    decks: int | None = None,
) -> Split:
    """Going out: the whole hand must split into melds with nothing left over
    (with 3, 4 or 5 cards that is one single meld).  Returns that split, or
    raises :class:`ImpossibleHandError` naming the cards that do not fit.

    >>> print(check_out("3s 4s 5s 6s", 2))
    3♠ 4♠ 5♠ 6♠ | leftover: none, 0 points
    >>> check_out("4h 5s 6s 9c", 2)
    Traceback (most recent call last):
    ...
    referee.three_thirteen.ImpossibleHandError: 9♣ fits no set or run, so this hand cannot go out
    """
    cards = cards_of(hand)
    split = split_hand(cards, round_number, rules, players=players, decks=decks)
    if not split.is_out:
        wild = Schedule(rules).wild_rank(round_number)
        rest = list(cards)
        fit_elsewhere = False
        for card in split.leftover:
            others = list(rest)
            others.remove(card)
            fit_elsewhere = fit_elsewhere or _fits_a_meld(card, others, wild, rules.aces_high)
        raise ImpossibleHandError(
            cards, split, FALSE_OUT_PENALTY if rules.false_out else None, fit_elsewhere=fit_elsewhere
        )
    return split


def can_go_out(
    hand: CardsLike,
    round_number: int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    players: int | None = None,
    decks: int | None = None,
) -> bool:
    """Whether :func:`check_out` accepts the hand.

    >>> can_go_out("9s 9h 9c 4h 5h 6c", 4), can_go_out("9s 9h 9c 4h 5h 7c", 4)
    (True, False)
    """
    try:
        check_out(hand, round_number, rules, players=players, decks=decks)
    except ImpossibleHandError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class OutClaim:
    """The verdict on a player's claim to go out."""

    hand: tuple[AnyCard, ...]
    round_number: int
    out: bool
    penalty: int
    split: Split
    reason: Message = field(compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "hand": format_cards(self.hand),
            "round_number": self.round_number,
            "out": self.out,
            "penalty": self.penalty,
            "split": self.split.to_dict(),
            "reason": str(self.reason),
        }


def go_out(
    hand: CardsLike,
    round_number: int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    players: int | None = None,
    decks: int | None = None,
) -> OutClaim:
    """Judge a claim to go out.  A hand that cannot go out is refused
    (:class:`ImpossibleHandError`), or with ``false_out`` adds 20 points to the hand.

    >>> claim = go_out("4h 5s 6s 9c", 2, ThreeThirteenRules(false_out=True))
    >>> claim.out, claim.penalty, str(claim.reason)
    (False, 20, '9♣ fits no set or run, so this false claim adds 20 points')
    """
    cards = cards_of(hand)
    try:
        split = check_out(cards, round_number, rules, players=players, decks=decks)
    except ImpossibleHandError as err:
        if not rules.false_out:
            raise
        reason = _why_not_out(err.leftover, err.fit_elsewhere, FALSE_OUT_PENALTY)
        return OutClaim(cards, round_number, False, FALSE_OUT_PENALTY, err.split, reason)
    return OutClaim(cards, round_number, True, 0, split, message("every card is in a set or run: out"))


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Each player's points for a round, and the split that gave them."""

    round_number: int
    points: tuple[int, ...]
    splits: tuple[Split, ...]
    doubled: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "round_number": self.round_number,
            "points": list(self.points),
            "splits": [s.to_dict() for s in self.splits],
            "doubled": self.doubled,
        }


def score_round(
    hands: Sequence[CardsLike],
    round_number: int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    out: int | None = None,
    decks: int | None = None,
) -> RoundScore:
    """Score a round: each hand's leftover points (doubled in the jack, queen and
    king rounds with ``doubles``); the player who went out (seat ``out``) scores 0
    and must hold a hand that goes out.

    >>> score_round(["9s 9h 9c 4h 5h 6c", "Kd 4s Ac 2h 7c 8d"], 4, out=0).points
    (0, 32)
    >>> r = score_round(["Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 3c", "Js Jd Jc 2c 3c 4c 5h 6h 7h 8h 10h"],
    ...                 9, ThreeThirteenRules(doubles=True))
    >>> r.points, r.doubled
    ((76, 0), True)
    """
    parsed = [cards_of(h) for h in hands]
    n = _decks(rules, len(parsed), decks)
    if out is not None and not (0 <= out < len(parsed)):
        raise SeatError(out, len(parsed))
    splits = []
    for seat, cards in enumerate(parsed):
        if seat == out:
            splits.append(check_out(cards, round_number, rules, decks=n))
        else:
            splits.append(split_hand(cards, round_number, rules, decks=n))
    doubled = Schedule(rules).is_doubled(round_number)
    factor = 2 if doubled else 1
    return RoundScore(round_number, tuple(s.points * factor for s in splits), tuple(splits), doubled)
