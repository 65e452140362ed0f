"""Tiến lên's card order and its combinations: what a set of cards is, read with the house rules.

>>> classify("3s 4s 5h").kind, sort_cards("2h 3s Ac")
(<Kind.SEQUENCE: 'sequence'>, (Card.parse('3♠'), Card.parse('A♣'), Card.parse('2♥')))
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from referee.cards import (
    AnyCard,
    Card,
    CardsLike,
    Rank,
    Suit,
    TooManyCopiesError,
    format_cards,
    parse_cards,
    suited_cards,
)
from referee.errors import RefereeError
from referee.text import Message, message
from referee.tienlen.rules import DEFAULT_RULES, TienLenRules

# ---------------------------------------------------------------------------
# Card order
# ---------------------------------------------------------------------------

#: Ranks from lowest to highest in Tiến lên.
RANK_ORDER: tuple[Rank, ...] = tuple(Rank(r) for r in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2))
_RANK_POWER = {r: i for i, r in enumerate(RANK_ORDER)}
THREE_OF_SPADES = Card(Rank.THREE, Suit.SPADES)


def rank_power(rank: Rank) -> int:
    """Position of a rank in the game's order: 3 is 0, ace 11, the 2 is 12.

    >>> rank_power(Rank.THREE), rank_power(Rank.ACE), rank_power(Rank.TWO)
    (0, 11, 12)
    """
    return _RANK_POWER[Rank(rank)]


def card_power(card: AnyCard) -> int:
    """Sort key: rank first, then suit ♠ < ♣ < ♦ < ♥; 3♠ is 0 and 2♥ is 51.

    >>> card_power(Card.parse("3s")), card_power(Card.parse("2h"))
    (0, 51)
    >>> card_power(Card.parse("5s")) > card_power(Card.parse("4h"))
    True
    >>> card_power(parse_cards("RJ")[0])
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: RJ is not in this game's deck: it has no jokers
    """
    if not isinstance(card, Card):
        raise TooManyCopiesError(card, 1, 0, message("{card} is not in this game's deck: it has no jokers", card=card))
    return rank_power(card.rank) * 4 + int(card.suit)


def sort_cards(cards: CardsLike) -> tuple[Card, ...]:
    """The cards from lowest to highest in game order.

    >>> format_cards(sort_cards("2s As 3h 3s"))
    '3♠ 3♥ A♠ 2♠'
    """
    return tuple(sorted(_cards(cards), key=card_power))


def _cards(cards: CardsLike) -> tuple[Card, ...]:
    """Parse text or take cards; refuse jokers and a card given twice (one deck)."""
    return suited_cards(cards, decks=1)


#: The 52 cards from the 3♠ up to the 2♥.
_CARDS_IN_ORDER: tuple[Card, ...] = tuple(Card(r, s) for r in RANK_ORDER for s in Suit)


# ---------------------------------------------------------------------------
# Combinations
# ---------------------------------------------------------------------------


class Kind(enum.Enum):
    """The kinds of combination; the values are the JSON API's strings."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FOUR_OF_A_KIND = "four_of_a_kind"
    SEQUENCE = "sequence"
    DOUBLE_SEQUENCE = "double_sequence"

    @property
    def label(self) -> str:
        """The name players say.

        >>> Kind.DOUBLE_SEQUENCE.label, Kind.SINGLE.label
        ('double sequence', 'single card')
        """
        return _KIND_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Kind:
        """Read an API value or a spoken name.

        >>> Kind.parse("double sequence"), Kind.parse("four_of_a_kind")
        (<Kind.DOUBLE_SEQUENCE: 'double_sequence'>, <Kind.FOUR_OF_A_KIND: 'four_of_a_kind'>)
        """
        key = text.strip().lower().replace(" ", "_").replace("-", "_")
        for kind in cls:
            if key in (kind.value, kind.label.replace(" ", "_")):
                return kind
        raise ValueError(f"{text!r} is not a kind of combination")


_KIND_LABELS = {
    Kind.SINGLE: "single card",
    Kind.PAIR: "pair",
    Kind.TRIPLE: "triple",
    Kind.FOUR_OF_A_KIND: "four of a kind",
    Kind.SEQUENCE: "sequence",
    Kind.DOUBLE_SEQUENCE: "double sequence",
}
_SAME_RANK_KINDS = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIPLE, 4: Kind.FOUR_OF_A_KIND}


def kind_name(kind: Kind) -> str:
    """The human name of a kind: ``kind_name(Kind.FOUR_OF_A_KIND) == 'four of a kind'``."""
    return kind.label


@dataclass(frozen=True, slots=True)
class Combination:
    """A valid combination: its kind and its cards, sorted in game order.

    Build one with :func:`classify` or :func:`parse_combination`.

    >>> c = parse_combination("5c 3s 4h")
    >>> c
    Combination.parse('3♠ 4♥ 5♣')
    >>> c.kind, str(c.top), c.length, str(c)
    (<Kind.SEQUENCE: 'sequence'>, '5♣', 3, '3♠ 4♥ 5♣')
    >>> d = parse_combination("3s 3h 4s 4h 5c 5d")
    >>> d.pairs, d.is_bomb, d.name
    (3, True, 'double sequence of 3 pairs')
    """

    kind: Kind
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = sort_cards(self.cards)
        object.__setattr__(self, "cards", cards)
        found = classify(cards, TienLenRules(twos_in_sequences=True))
        if found.kind is not self.kind:
            raise ValueError(f"{format_cards(cards)} is a {found.kind.label}, not a {self.kind.label}")

    @classmethod
    def parse(cls, text: str, rules: TienLenRules | None = None) -> Combination:
        """Same as :func:`parse_combination`."""
        return parse_combination(text, rules)

    @property
    def top(self) -> Card:
        """The highest card, which decides what beats what."""
        return self.cards[-1]

    @property
    def length(self) -> int:
        """Number of cards."""
        return len(self.cards)

    @property
    def pairs(self) -> int:
        """Number of pairs of a double sequence (0 for other kinds)."""
        return len(self.cards) // 2 if self.kind is Kind.DOUBLE_SEQUENCE else 0

    @property
    def rank(self) -> Rank:
        """The rank of the top card (the rank of a single, pair, triple or four of a kind)."""
        return self.top.rank

    @property
    def is_bomb(self) -> bool:
        """Four of a kind or a double sequence: the combinations that can bomb a 2."""
        return self.kind in (Kind.FOUR_OF_A_KIND, Kind.DOUBLE_SEQUENCE)

    @property
    def is_twos(self) -> bool:
        """A single 2, a pair, three or four 2s.

        >>> parse_combination("2s 2h").is_twos, parse_combination("Qs Ks As 2s", \
TienLenRules(twos_in_sequences=True)).is_twos
        (True, False)
        """
        return all(c.rank is Rank.TWO for c in self.cards)

    @property
    def is_sequence(self) -> bool:
        return self.kind is Kind.SEQUENCE

    @property
    def is_double_sequence(self) -> bool:
        return self.kind is Kind.DOUBLE_SEQUENCE

    @property
    def is_four_of_a_kind(self) -> bool:
        return self.kind is Kind.FOUR_OF_A_KIND

    @property
    def name(self) -> str:
        """A short English description.

        >>> [parse_combination(t).name for t in ("2h", "5s 5d", "2s 2c 2d", "7s 8s 9s 10s")]
        ['single 2', 'pair of 5s', 'three 2s', 'sequence of 4 cards']
        """
        plural = self.rank.plural
        if self.kind is Kind.SINGLE:
            return f"single {self.rank.symbol}"
        if self.kind is Kind.PAIR:
            return f"pair of {plural}"
        if self.kind is Kind.TRIPLE:
            return f"three {plural}"
        if self.kind is Kind.FOUR_OF_A_KIND:
            return f"four {plural}"
        if self.kind is Kind.SEQUENCE:
            return f"sequence of {self.length} cards"
        return f"double sequence of {self.pairs} pairs"

    def to_dict(self) -> dict[str, Any]:
        """For JSON: ``{"kind": "pair", "cards": "5♦ 5♥", "top": "5♥"}``."""
        return {"kind": self.kind.value, "cards": str(self), "top": str(self.top)}

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        if self.kind is Kind.SEQUENCE and any(c.rank is Rank.TWO for c in self.cards):
            return f"Combination.parse({str(self)!r}, TienLenRules(twos_in_sequences=True))"
        return f"Combination.parse({str(self)!r})"


class NotACombinationError(RefereeError):
    """Cards that make no combination.  ``reason`` is the whole sentence a player reads
    (it names the cards), ``why`` the rule they break, both as a :class:`Message`.

    >>> try:
    ...     classify("4s 6h 5c 7d 9s")
    ... except NotACombinationError as err:
    ...     print(err.why)
    ...     print(err.reason)
    ranks 7 and 9 are not consecutive
    4♠ 5♣ 6♥ 7♦ 9♠ is not a combination: ranks 7 and 9 are not consecutive
    >>> print(table_combination("4s 5h").reason)
    Traceback (most recent call last):
    ...
    referee.tienlen.combinations.NotACombinationError: the table 4♠ 5♥ is not a combination: a sequence needs at least three cards
    """

    def __init__(self, cards: Sequence[Card], why: Message, *, where: str = "") -> None:
        self.cards = tuple(cards)
        self.why = why
        self.where = where
        if where == "table":
            reason = message("the table {cards} is not a combination: {why}", cards=self.cards, why=why)
        elif self.cards:
            reason = message("{cards} is not a combination: {why}", cards=self.cards, why=why)
        else:
            reason = why
        super().__init__(reason)


def _reject(cards: Sequence[Card], reason: Message) -> NotACombinationError:
    # The caller builds ``reason`` with ``message("...")`` so that pybabel extracts the template.
    return NotACombinationError(cards, reason)


def classify(cards: CardsLike, rules: TienLenRules | None = None) -> Combination:
    """Name the combination the cards make, or say precisely why they make none.

    >>> classify("3s 3h").kind, classify("9h").kind, classify("5s 5h 5c 5d").kind
    (<Kind.PAIR: 'pair'>, <Kind.SINGLE: 'single'>, <Kind.FOUR_OF_A_KIND: 'four_of_a_kind'>)
    >>> classify("Qs Ks As 2s")
    Traceback (most recent call last):
    ...
    referee.tienlen.combinations.NotACombinationError: Q♠ K♠ A♠ 2♠ is not a combination: a 2 can never be part of a sequence
    >>> classify("Qs Ks As 2s", TienLenRules(twos_in_sequences=True)).kind
    <Kind.SEQUENCE: 'sequence'>
    >>> classify("4s 6s")
    Traceback (most recent call last):
    ...
    referee.tienlen.combinations.NotACombinationError: 4♠ 6♠ is not a combination: two cards of different ranks are not a pair
    """
    rules = rules or DEFAULT_RULES
    found = sort_cards(_cards(cards))
    n = len(found)
    if n == 0:
        raise _reject(found, message("a play needs at least one card"))
    counts = Counter(c.rank for c in found)
    if len(counts) == 1:
        return _make(_SAME_RANK_KINDS[n], found)
    powers = sorted(rank_power(r) for r in counts)
    if n == 2:
        raise _reject(found, _two_ranks(counts, powers, rules))
    kind = _kind_of_shape(found, counts, rules)
    for low, high in pairwise(powers):
        if high != low + 1:
            raise _reject(found, message(
                "ranks {low} and {high} are not consecutive",
                low=RANK_ORDER[low].symbol,
                high=RANK_ORDER[high].symbol,
            ))
    if kind is Kind.DOUBLE_SEQUENCE and len(counts) < 3:
        raise _reject(found, message("a double sequence needs at least three pairs"))
    return _make(kind, found)


def _two_ranks(counts: Counter[Rank], powers: list[int], rules: TienLenRules) -> Message:
    """Why two cards of two ranks are no combination.

    >>> str(_two_ranks(Counter({Rank.FOUR: 1, Rank.FIVE: 1}), [1, 2], DEFAULT_RULES))
    'a sequence needs at least three cards'
    """
    if powers[1] - powers[0] == 1 and (rules.twos_in_sequences or Rank.TWO not in counts):
        return message("a sequence needs at least three cards")
    return message("two cards of different ranks are not a pair")


def _kind_of_shape(found: tuple[Card, ...], counts: Counter[Rank], rules: TienLenRules) -> Kind:
    """A sequence (one card a rank) or a double sequence (two a rank) that may hold its ranks,
    or the reason the cards' shape is neither (raised); the ranks' order is checked after.

    >>> _kind_of_shape((), Counter({Rank.FOUR: 2, Rank.FIVE: 2}), DEFAULT_RULES)
    <Kind.DOUBLE_SEQUENCE: 'double_sequence'>
    """
    shape = set(counts.values())
    if shape == {2}:
        if Rank.TWO in counts:
            raise _reject(found, message("a 2 can never be part of a double sequence"))
        return Kind.DOUBLE_SEQUENCE
    if shape == {1}:
        if Rank.TWO in counts and not rules.twos_in_sequences:
            raise _reject(found, message("a 2 can never be part of a sequence"))
        if Rank.TWO in counts and Rank.THREE in counts and len(counts) < len(RANK_ORDER):
            raise _reject(found, message("a sequence cannot wrap round from 2 to 3"))
        return Kind.SEQUENCE
    raise _reject(found, _mixed_counts(counts, rules))


def _mixed_counts(counts: Counter[Rank], rules: TienLenRules) -> Message:
    """Ranks held a different number of times: say what the player most likely meant.

    >>> str(_mixed_counts(Counter({Rank.FOUR: 2, Rank.FIVE: 1, Rank.SIX: 1}), DEFAULT_RULES))
    'rank 4 is there twice: a sequence needs one card of each rank'
    >>> str(_mixed_counts(Counter({Rank.FOUR: 3, Rank.FIVE: 1}), DEFAULT_RULES))
    '3 cards of rank 4 fit no combination with other ranks'
    """
    many = max(counts, key=lambda r: (counts[r], rank_power(r)))
    if counts[many] >= 3:
        return message(
            "{count} cards of rank {rank} fit no combination with other ranks",
            count=counts[many],
            rank=many.symbol,
        )
    singles = [r for r in counts if counts[r] == 1]
    doubles = [r for r in counts if counts[r] == 2]
    if len(singles) > len(doubles):
        if Rank.TWO in counts and not rules.twos_in_sequences:
            return message("a 2 can never be part of a sequence")
        return message(
            "rank {rank} is there twice: a sequence needs one card of each rank",
            rank=min(doubles, key=rank_power).symbol,
        )
    if Rank.TWO in counts:
        return message("a 2 can never be part of a double sequence")
    return message(
        "rank {rank} is not paired: a double sequence needs two cards of every rank",
        rank=min(singles, key=rank_power).symbol,
    )


def _make(kind: Kind, cards: tuple[Card, ...]) -> Combination:
    """Build without re-checking (classify has checked)."""
    combo = object.__new__(Combination)
    object.__setattr__(combo, "kind", kind)
    object.__setattr__(combo, "cards", cards)
    return combo


def is_bomb(cards: CardsLike) -> bool:
    """Whether the cards are a bomb: four of a kind or a double sequence (3 or more pairs),
    whatever they were played on (led, on a 2, on another bomb).

    >>> is_bomb("7s 7c 8s 8c 9s 9c"), is_bomb("5s 5h 5c 5d"), is_bomb("2s 2h"), is_bomb("3s 4h")
    (True, True, False, False)
    """
    try:
        return classify(cards).is_bomb
    except NotACombinationError:
        return False


def table_combination(cards: CardsLike, rules: TienLenRules | None = None) -> Combination:
    """The combination on the table; its mistake says it is the table's.

    >>> table_combination("9h 9d").name
    'pair of 9s'
    """
    try:
        return classify(cards, rules)
    except NotACombinationError as err:
        raise NotACombinationError(err.cards, err.why, where="table") from None


def parse_combination(text: str, rules: TienLenRules | None = None) -> Combination:
    """Parse cards written in any notation (``♣5``, ``5c``, ``5♣``) and classify them.

    >>> parse_combination("♣5♥5")
    Combination.parse('5♣ 5♥')
    """
    return classify(parse_cards(text), rules)
