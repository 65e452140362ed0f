"""Tiến lên (Thirteen): card order, combinations, verdicts and the hand's state machine.

Cards rank ``3 4 5 6 7 8 9 10 J Q K A 2`` (the 2 is the highest) and, on equal
rank, by suit ``♠ < ♣ < ♦ < ♥``.  A play must be the same kind and size as the
combination on the table with a higher highest card; the only plays that beat a
different kind are the bombs on 2s.

>>> str(check("♣5♥5", "♦5♠5").reason)
'the highest card decides: 5♥ is higher than 5♦'
>>> check("♣5♥6♦7", "♦5♦6♣7").legal
True
>>> v = check("3s 3h 4s 4h 5c 5d", "2h")
>>> v.legal, v.bomb, str(v.reason)
(True, True, 'a double sequence of 3 pairs bombs a single 2')
>>> str(check("8s", "8h").reason)
'8♠ is lower than 8♥'
>>> str(check("4s 5s 6s 7s", "3h 4h 5h").reason)
'a sequence must be beaten by a sequence of the same length: 4 cards on 3'

Decisions where the sheets are thin (each is tested):

* ``twos_in_sequences`` lets a 2 end a *sequence* (``Q K A 2``), never wrap
  (``K A 2 3`` is refused).  It does not apply to double sequences: RULES.md
  says "no 2" for both kinds and the switch names the sequence only, so a
  double sequence never holds a 2 (``K K A A 2 2`` stays refused).
* Beating a bomb: a four of a kind is beaten by a higher four of a kind, a
  double sequence only by a double sequence of the same number of pairs with a
  higher top (the ordinary same-kind rule).  A 4-pair double sequence does not
  beat a 3-pair one.  This holds whether or not the bomb was played on a 2:
  a verdict looks at the two combinations only.
* ``quad_beats_three_pairs``: any four of a kind beats a double sequence of
  exactly 3 pairs (whatever it was played on).  ``four_pairs_beat_quad``: a
  double sequence of 4 *or more* pairs beats any four of a kind, except four
  2s: nothing ever beats four 2s.
* ``quad_beats_pair_of_twos``: any four of a kind beats a pair of 2s.
* ``bomb_after_pass``: a player who passed and then bombs a 2 is back in the
  trick (no longer locked), so they may answer a counter-bomb.
* :attr:`Verdict.bomb` is true exactly when a legal play beats a *different
  kind* (a bomb row of RULES.md or one of the bomb switches).  A higher four of
  a kind on a four of a kind is legal by the same-kind rule, so ``bomb`` is
  false there, though :attr:`Combination.is_bomb` is true for both.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from referee.cards import (
    AnyCard,
    Card,
    CardsLike,
    NotationError,
    Rank,
    Suit,
    TooManyCopiesError,
    format_cards,
    parse_cards,
    suited_cards,
)
from referee.errors import RefereeError, RefusedAction, SeatError, StateMachine, can
from referee.records import Records
from referee.switches import SwitchError, bad_choice, not_on_or_off, rules_from_mapping, rules_to_dict
from referee.text import Message, message

__all__ = [
    "RANK_ORDER",
    "THREE_OF_SPADES",
    "rank_power",
    "card_power",
    "sort_cards",
    "Kind",
    "kind_name",
    "Combination",
    "parse_combination",
    "NotACombinationError",
    "table_combination",
    "classify",
    "TienLenRules",
    "DEFAULT_RULES",
    "Verdict",
    "check",
    "is_bomb",
    "lowest_cards",
    "beats",
    "ActionError",
    "IllegalPlayError",
    "NotYourTurnError",
    "CardAlreadyPlayedError",
    "HandOverError",
    "CardNotDealtError",
    "Chop",
    "InstantWinKind",
    "Setup",
    "PlayAction",
    "PassAction",
    "InstantWinAction",
    "NextHandAction",
    "Action",
    "action_from_dict",
    "RECORDS",
    "check_lowest_card",
    "Hand",
    "replay",
    "Game",
    "replay_game",
    "NotationError",
    "TooManyCopiesError",
    "SwitchError",
]


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
    referee.tienlen.NotACombinationError: the table 4♠ 5♥ is not a combination: a sequence needs at least three cards
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
    referee.tienlen.NotACombinationError: Q♠ K♠ A♠ 2♠ is not a combination: a 2 can never be part of a sequence
    >>> classify("Qs Ks As 2s", TienLenRules(twos_in_sequences=True)).kind
    <Kind.SEQUENCE: 'sequence'>
    >>> classify("4s 6s")
    Traceback (most recent call last):
    ...
    referee.tienlen.NotACombinationError: 4♠ 6♠ is not a combination: two cards of different ranks are not a pair
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
        if powers[1] - powers[0] == 1 and (rules.twos_in_sequences or Rank.TWO not in counts):
            raise _reject(found, message("a sequence needs at least three cards"))
        raise _reject(found, message("two cards of different ranks are not a pair"))
    shape = set(counts.values())
    if shape == {2}:
        kind = Kind.DOUBLE_SEQUENCE
        if Rank.TWO in counts:
            raise _reject(found, message("a 2 can never be part of a double sequence"))
    elif shape == {1}:
        kind = Kind.SEQUENCE
        if Rank.TWO in counts and not rules.twos_in_sequences:
            raise _reject(found, message("a 2 can never be part of a sequence"))
        if Rank.TWO in counts and Rank.THREE in counts and len(counts) < len(RANK_ORDER):
            raise _reject(found, message("a sequence cannot wrap round from 2 to 3"))
    else:
        many = max(counts, key=lambda r: (counts[r], rank_power(r)))
        if counts[many] >= 3:
            raise _reject(found, message(
                "{count} cards of rank {rank} fit no combination with other ranks",
                count=counts[many],
                rank=many.symbol,
            ))
        # Singles and pairs mixed: say what the player most likely meant.
        singles = [r for r in counts if counts[r] == 1]
        doubles = [r for r in counts if counts[r] == 2]
        if len(singles) > len(doubles):
            if Rank.TWO in counts and not rules.twos_in_sequences:
                raise _reject(found, message("a 2 can never be part of a sequence"))
            raise _reject(found, message(
                "rank {rank} is there twice: a sequence needs one card of each rank",
                rank=min(doubles, key=rank_power).symbol,
            ))
        if Rank.TWO in counts:
            raise _reject(found, message("a 2 can never be part of a double sequence"))
        raise _reject(found, message(
            "rank {rank} is not paired: a double sequence needs two cards of every rank",
            rank=min(singles, key=rank_power).symbol,
        ))
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


# ---------------------------------------------------------------------------
# House rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TienLenRules:
    """The table's house rules; field names are the switch ids of RULES.md.

    >>> rules_from_mapping(TienLenRules, {"first_lead": "any", "play_on": "on"}).play_on
    True
    >>> TienLenRules(first_lead="first")
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: house rule 'first_lead' must be one of contains_3s, \
three_spades_alone, any, not 'first'
    """

    twos_in_sequences: bool = False
    first_lead: str = "contains_3s"
    quad_beats_pair_of_twos: bool = False
    quad_beats_three_pairs: bool = False
    four_pairs_beat_quad: bool = False
    bomb_after_pass: bool = False
    play_on: bool = False
    instant_wins: bool = False

    CHOICES = {"first_lead": ("contains_3s", "three_spades_alone", "any")}

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            options = self.CHOICES.get(f.name)
            if options is not None:
                if value not in options:
                    raise bad_choice(f.name, options, value)
            elif not isinstance(value, bool):
                raise not_on_or_off(f.name, value)

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


DEFAULT_RULES = TienLenRules()


# ---------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play may go on the table, and the rule that decides it.

    ``bomb`` is true when the play is legal and beats a different kind (a bomb
    on 2s, or a bomb switch such as ``four_pairs_beat_quad``).
    """

    legal: bool
    play: Combination | None
    table: Combination | None
    bomb: bool
    reason: Message

    def __str__(self) -> str:
        return f"{'legal' if self.legal else 'not legal'}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "play": self.play.to_dict() if self.play else None,
            "table": self.table.to_dict() if self.table else None,
            "bomb": self.bomb,
            "reason": str(self.reason),
        }


# Built with message("...") so that pybabel extracts each sentence for translators.
_MUST_MATCH = {
    Kind.SINGLE: message("a single card must be beaten by a single card"),
    Kind.PAIR: message("a pair must be beaten by a pair"),
    Kind.TRIPLE: message("a triple must be beaten by a triple"),
    Kind.FOUR_OF_A_KIND: message("four of a kind must be beaten by a higher four of a kind"),
    Kind.SEQUENCE: message("a sequence must be beaten by a sequence"),
    Kind.DOUBLE_SEQUENCE: message("a double sequence must be beaten by a double sequence"),
}


# The house rules' names as the switches show them on screen, for the sentences that name them.
SWITCH_NAMES: dict[str, Message] = {
    "twos_in_sequences": message("2s in sequences"),
    "first_lead": message("Opening play"),
    "quad_beats_pair_of_twos": message("Four of a kind on a pair of 2s"),
    "quad_beats_three_pairs": message("Four of a kind on three pairs"),
    "four_pairs_beat_quad": message("Four pairs on four of a kind"),
    "bomb_after_pass": message("Bomb after passing"),
    "play_on": message("Play on"),
    "instant_wins": message("Instant wins"),
}


def _judge(play: Combination, table: Combination, rules: TienLenRules) -> tuple[bool, bool, Message]:
    """(legal, bomb, reason) for ``play`` on a non-empty ``table``."""
    pk, tk = play.kind, table.kind
    quad, dseq = Kind.FOUR_OF_A_KIND, Kind.DOUBLE_SEQUENCE
    if table.is_twos and tk is quad:
        return False, False, message("nothing beats four 2s")
    if table.is_twos and pk is not tk:
        # The bomb rows of RULES.md.
        if tk is Kind.SINGLE:
            if pk is quad:
                return True, True, message("four of a kind bombs a single 2")
            if pk is dseq:
                return True, True, message("a double sequence of {pairs} pairs bombs a single 2", pairs=play.pairs)
            return False, False, message(
                "a single 2 is beaten only by a higher 2, four of a kind "
                "or a double sequence of 3 or more pairs"
            )
        if tk is Kind.PAIR:
            if pk is dseq and play.pairs >= 4:
                return True, True, message("a double sequence of {pairs} pairs beats a pair of 2s", pairs=play.pairs)
            if pk is quad and rules.quad_beats_pair_of_twos:
                return True, True, message(
                    "four of a kind beats a pair of 2s (house rule “{switch}”)",
                    switch=SWITCH_NAMES["quad_beats_pair_of_twos"],
                )
            if pk is quad:
                return False, False, message(
                    "four of a kind bombs only a single 2 (a pair of 2s needs house rule “{switch}”)",
                    switch=SWITCH_NAMES["quad_beats_pair_of_twos"],
                )
            if pk is dseq:
                return False, False, message(
                    "a pair of 2s is beaten only by a double sequence of 4 or more pairs, not {pairs}",
                    pairs=play.pairs,
                )
            if rules.quad_beats_pair_of_twos:
                return False, False, message(
                    "a pair of 2s is beaten only by a higher pair of 2s, four of a kind "
                    "or a double sequence of 4 or more pairs"
                )
            return False, False, message(
                "a pair of 2s is beaten only by a higher pair of 2s or a double sequence of 4 or more pairs"
            )
        # three 2s
        if pk is dseq and play.pairs >= 5:
            return True, True, message("a double sequence of {pairs} pairs beats three 2s", pairs=play.pairs)
        if pk is dseq:
            return False, False, message(
                "three 2s are beaten only by a double sequence of 5 or more pairs, not {pairs}", pairs=play.pairs
            )
        return False, False, message("three 2s are beaten only by a double sequence of 5 or more pairs")
    if pk is quad and tk is dseq:
        switch = SWITCH_NAMES["quad_beats_three_pairs"]
        if table.pairs != 3:
            # No switch makes this legal: name none.
            return False, False, message(
                "four of a kind does not beat a double sequence of {pairs} pairs", pairs=table.pairs
            )
        if not rules.quad_beats_three_pairs:
            return False, False, message(
                "four of a kind beats a double sequence of 3 pairs only with house rule “{switch}”", switch=switch
            )
        return True, True, message(
            "four of a kind beats a double sequence of 3 pairs (house rule “{switch}”)", switch=switch
        )
    if pk is dseq and tk is quad:
        switch = SWITCH_NAMES["four_pairs_beat_quad"]
        if play.pairs < 4:
            # No switch makes this legal: name none.
            return False, False, message("only a double sequence of 4 or more pairs beats four of a kind")
        if not rules.four_pairs_beat_quad:
            return False, False, message(
                "a double sequence of {pairs} pairs beats four of a kind only with house rule “{switch}”",
                pairs=play.pairs,
                switch=switch,
            )
        return True, True, message(
            "a double sequence of {pairs} pairs beats four of a kind (house rule “{switch}”)",
            pairs=play.pairs,
            switch=switch,
        )
    if pk is not tk:
        if tk is quad and rules.four_pairs_beat_quad:
            return False, False, message(
                "four of a kind is beaten only by a higher four of a kind or a double sequence "
                "of 4 or more pairs"
            )
        if tk is dseq and table.pairs == 3 and rules.quad_beats_three_pairs:
            return False, False, message(
                "a double sequence of 3 pairs is beaten only by a higher double sequence of 3 pairs "
                "or four of a kind"
            )
        return False, False, _MUST_MATCH[tk]
    if play.length != table.length:
        if tk is Kind.SEQUENCE:
            return False, False, message(
                "a sequence must be beaten by a sequence of the same length: {play} cards on {table}",
                play=play.length,
                table=table.length,
            )
        return False, False, message(
            "a double sequence must be beaten by a double sequence of the same length: {play} pairs on {table}",
            play=play.pairs,
            table=table.pairs,
        )
    # Each template is a literal so that pybabel extracts it for translators.
    higher = card_power(play.top) > card_power(table.top)
    if tk is Kind.SINGLE:
        if higher:
            return True, False, message("{play} is higher than {table}", play=play.top, table=table.top)
        return False, False, message("{play} is lower than {table}", play=play.top, table=table.top)
    # Two combinations of one kind and size: the one with the higher highest card wins.
    if higher:
        return True, False, message(
            "the highest card decides: {play} is higher than {table}", play=play.top, table=table.top
        )
    return False, False, message(
        "the highest card decides: {play} is lower than {table}", play=play.top, table=table.top
    )


def beats(play: Combination, table: Combination, rules: TienLenRules | None = None) -> bool:
    """Whether ``play`` may go on ``table``.

    >>> beats(parse_combination("5s 5h 5c 5d"), parse_combination("2d"))
    True
    >>> beats(parse_combination("6s 6h 6c 6d"), parse_combination("2d 2h"))
    False
    >>> beats(parse_combination("6s 6h 6c 6d"), parse_combination("2d 2h"), TienLenRules(quad_beats_pair_of_twos=True))
    True
    """
    return _judge(play, table, rules or DEFAULT_RULES)[0]


def check(
    play_cards: CardsLike,
    table_cards: CardsLike = (),
    rules: TienLenRules | None = None,
    first_play: bool = False,
    *,
    opening_card: Card = THREE_OF_SPADES,
) -> Verdict:
    """Judge a play against the table (empty for a lead).

    An illegal play gives a verdict that says so; bad input raises: text that
    is not a card (:class:`NotationError`), a joker or a card given twice, or a
    card both in the play and on the table (:class:`TooManyCopiesError`), a
    table that is not a combination (:class:`NotACombinationError` with
    ``where="table"``).  ``first_play`` applies the opening rule ``first_lead``
    to ``opening_card``: the 3♠, or with 2–3 players the lowest card dealt.

    >>> str(check("4s 4h", first_play=True).reason)
    'the first play of the game must contain the 3♠'
    >>> str(check("3s 4h 5c", first_play=True).reason)
    'the first play of the game contains the 3♠'
    >>> str(check("3d 4d 5d", first_play=True, opening_card=Card.parse("3c")).reason)
    'the first play of the game must contain the 3♣'
    >>> str(check("3s 3d 3h", first_play=True, opening_card=Card.parse("3d")).reason)
    '3♠ was not dealt: the lowest card dealt is 3♦'
    >>> str(check("3s 3h", "9h").reason)
    'a single card must be beaten by a single card'
    >>> check("3s", "3s")
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: 3♠ is both on the table and in the play
    >>> check("3s", "4s 5h")
    Traceback (most recent call last):
    ...
    referee.tienlen.NotACombinationError: the table 4♠ 5♥ is not a combination: a sequence needs at least three cards
    """
    rules = rules or DEFAULT_RULES
    played = _cards(play_cards)
    on_table = _cards(table_cards)
    common = set(played) & set(on_table)
    if common:
        card = min(common, key=card_power)
        raise TooManyCopiesError(card, 2, 1, message("{card} is both on the table and in the play", card=card))
    table: Combination | None = None
    if on_table:
        table = table_combination(on_table, rules)
    if first_play and table is not None:
        raise RefereeError(message("the first play of the game is made on an empty table"))
    try:
        play = classify(played, rules)
    except NotACombinationError as err:
        return Verdict(False, None, table, False, err.why)
    if table is None:
        card = opening_card
        if first_play:
            below = [c for c in play.cards if card_power(c) < card_power(card)]
            if below:  # with 2–3 players the cards below the lowest dealt are in nobody's hand
                return Verdict(False, play, None, False, message(
                    "{card} was not dealt: the lowest card dealt is {lowest}", card=below[0], lowest=card))
        if first_play and rules.first_lead == "contains_3s":
            if card not in play.cards:
                return Verdict(False, play, None, False,
                               message("the first play of the game must contain the {card}", card=card))
            return Verdict(True, play, None, False, message("the first play of the game contains the {card}", card=card))
        if first_play and rules.first_lead == "three_spades_alone":
            if play.cards != (card,):
                return Verdict(False, play, None, False,
                               message("the first play of the game must be the {card} alone", card=card))
            return Verdict(True, play, None, False, message("the first play of the game is the {card} alone", card=card))
        return Verdict(True, play, None, False, message("any combination may be led on an empty table"))
    legal, bomb, reason = _judge(play, table, rules)
    return Verdict(legal, play, table, bomb, reason)


# ---------------------------------------------------------------------------
# Errors refused by the state machine
# ---------------------------------------------------------------------------


class ActionError(RefusedAction):
    """An action the hand refuses (the contract's :class:`~referee.errors.RefusedAction`);
    ``reason`` is the :class:`Message` to show."""


class IllegalPlayError(ActionError):
    """A play the rules refuse; carries the :class:`Verdict`."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(verdict.reason)


class NotYourTurnError(ActionError):
    """A player acting out of turn, or one who has gone out."""


class CardAlreadyPlayedError(ActionError):
    """A play holding a card that was already played this hand; ``card`` names it."""

    def __init__(self, card: Card, reason: Message) -> None:
        self.card = card
        super().__init__(reason)


class HandOverError(ActionError):
    """An action after the hand has ended, or a next hand before it has."""


class CardNotDealtError(ActionError):
    """A card lower than the lowest card dealt (2–3 players): nobody holds it; ``card`` names it."""

    def __init__(self, card: Card, reason: Message) -> None:
        self.card = card
        super().__init__(reason)


# ---------------------------------------------------------------------------
# Setup and action records
# ---------------------------------------------------------------------------


class InstantWinKind(enum.Enum):
    """Dealt hands that win at once when ``instant_wins`` is on."""

    FOUR_TWOS = "four_twos"
    DRAGON = "dragon"
    SIX_PAIRS = "six_pairs"

    @property
    def label(self) -> str:
        return {"four_twos": "four 2s", "dragon": "a dragon (3 to ace)", "six_pairs": "six pairs"}[self.value]


# The same names as sentences' parts, so that they are translated with the sentence.
INSTANT_WIN_NAMES: dict[InstantWinKind, Message] = {
    InstantWinKind.FOUR_TWOS: message("four 2s"),
    InstantWinKind.DRAGON: message("a dragon (3 to ace)"),
    InstantWinKind.SIX_PAIRS: message("six pairs"),
}


def check_lowest_card(card: Card, dealt: int) -> None:
    """Raise unless ``card`` can be the lowest of ``dealt`` cards dealt from one deck.

    >>> check_lowest_card(Card.parse("6c"), 39)
    >>> check_lowest_card(Card.parse("3d"), 52)
    Traceback (most recent call last):
    ...
    referee.errors.RefereeError: with all 52 cards dealt the lowest card dealt is the 3♠, not 3♦
    """
    if card_power(card) > 52 - dealt:
        if dealt == 52:
            raise RefereeError(message("with all 52 cards dealt the lowest card dealt is the 3♠, not {card}",
                                       card=card))
        raise RefereeError(message("with {dealt} cards dealt the lowest card dealt is at most {highest}, not {card}",
                                   dealt=dealt, highest=_CARDS_IN_ORDER[52 - dealt], card=card))


@dataclass(frozen=True, slots=True)
class Setup:
    """Who sits where (seat order is turn order), the house rules and who leads.

    ``leader`` is the seat holding the 3♠ when ``opening`` is true (the first
    hand of a game: the opening rule ``first_lead`` applies), otherwise the
    previous hand's winner, who leads freely.

    With 2 or 3 players the 3♠ may not have been dealt: ``lowest_card`` is then
    the lowest card dealt, named by the table; ``leader`` holds it and it plays
    the part of the 3♠ in the opening rule.  Cards below it were not dealt.

    >>> Setup(("A", "B", "C"), leader=2, lowest_card=Card.parse("3d")).lowest_card
    Card.parse('3♦')
    >>> Setup(("A", "B", "C", "D"), lowest_card=Card.parse("3d"))
    Traceback (most recent call last):
    ...
    referee.errors.RefereeError: with all 52 cards dealt the lowest card dealt is the 3♠, not 3♦
    >>> Setup(("A", "B", "C"), lowest_card=Card.parse("7s"))
    Traceback (most recent call last):
    ...
    referee.errors.RefereeError: with 39 cards dealt the lowest card dealt is at most 6♣, not 7♠
    """

    players: tuple[str, ...]
    rules: TienLenRules = DEFAULT_RULES
    leader: int = 0
    opening: bool = True
    hand_size: int = 13
    lowest_card: Card = THREE_OF_SPADES

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if not 2 <= len(self.players) <= 4:
            raise RefereeError(message("Tiến lên is played by 2 to 4 players, not {count}", count=len(self.players)))
        if not 0 <= self.leader < len(self.players):
            raise SeatError(self.leader, len(self.players))
        if not 1 <= self.hand_size <= 52 // len(self.players):
            raise RefereeError(message(
                "a hand of {size} cards cannot be dealt to {count} players", size=self.hand_size, count=len(self.players)
            ))
        if not isinstance(self.lowest_card, Card):
            raise RefereeError(message("{card} is not in this game's deck", card=self.lowest_card))
        check_lowest_card(self.lowest_card, self.hand_size * len(self.players))

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "leader": self.leader,
            "opening": self.opening,
            "hand_size": self.hand_size,
            "lowest_card": str(self.lowest_card),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            tuple(data["players"]),
            rules_from_mapping(TienLenRules, data.get("rules")),
            int(data.get("leader", 0)),
            bool(data.get("opening", True)),
            int(data.get("hand_size", 13)),
            Card.parse(str(data.get("lowest_card") or THREE_OF_SPADES)),
        )


#: The 52 cards from the 3♠ up to the 2♥.
_CARDS_IN_ORDER: tuple[Card, ...] = tuple(Card(r, s) for r in RANK_ORDER for s in Suit)


def lowest_cards(players: int, hand_size: int = 13) -> tuple[Card, ...]:
    """Every card that can be the lowest card dealt to ``players`` players of ``hand_size`` cards.

    The cards not dealt are the lowest ones at most: with ``dealt`` cards dealt the lowest
    card dealt is at most the ``52 - dealt + 1``-th card in game order.

    >>> lowest_cards(4)
    (Card.parse('3♠'),)
    >>> lowest_cards(3)[-1], len(lowest_cards(3))
    (Card.parse('6♣'), 14)
    >>> lowest_cards(2)[-1], len(lowest_cards(2))
    (Card.parse('9♦'), 27)
    """
    dealt = players * hand_size
    if not 2 <= players <= 4 or not 1 <= hand_size <= 52 // players:
        raise RefereeError(message("a hand of {size} cards cannot be dealt to {count} players",
                                   size=hand_size, count=players))
    return _CARDS_IN_ORDER[: 52 - dealt + 1]


@dataclass(frozen=True, slots=True)
class Chop:
    """One bomb of a chop chain: ``by`` bombed the play of seat ``on``.

    The first bomb of a trick's chain beats a play of 2s (``twos`` names them),
    or a bomb (``twos`` empty); each later one beats the bomb before it, so its
    ``on`` is the previous ``by``.  :class:`Hand` records the chains as it goes.

    >>> Chop(3, 1, (Card.parse("2h"),)).to_dict()
    {'by': 3, 'from': 1, 'twos': '2♥'}
    >>> Chop.from_dict({"by": 0, "from": 3})
    Chop(by=0, on=3, twos=())
    """

    by: int
    on: int
    twos: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"by": self.by, "from": self.on}
        if self.twos:
            data["twos"] = format_cards(self.twos)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Chop:
        return cls(int(data["by"]), int(data["from"]), _cards(data.get("twos") or ""))


@dataclass(frozen=True, slots=True)
class PlayAction:
    """A seat played cards.  ``bomb`` and ``went_out`` are recorded for history; replay re-derives them."""

    action: ClassVar[str] = "play"

    seat: int
    cards: tuple[Card, ...]
    bomb: bool = False
    went_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"action": "play", "seat": self.seat, "cards": format_cards(self.cards),
                "bomb": self.bomb, "went_out": self.went_out}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayAction:
        return cls(int(data["seat"]), _cards(data["cards"]), bool(data.get("bomb")), bool(data.get("went_out")))


@dataclass(frozen=True, slots=True)
class PassAction:
    """A seat passed.  ``cleared`` records that this pass cleared the table."""

    action: ClassVar[str] = "pass"

    seat: int
    cleared: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"action": "pass", "seat": self.seat, "cleared": self.cleared}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PassAction:
        return cls(int(data["seat"]), bool(data.get("cleared")))


@dataclass(frozen=True, slots=True)
class InstantWinAction:
    """A seat declared an instant win; ``cards`` are the hand if it was entered (checked), else empty."""

    action: ClassVar[str] = "instant_win"

    seat: int
    kind: InstantWinKind
    cards: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"action": "instant_win", "seat": self.seat, "kind": self.kind.value,
                "cards": format_cards(self.cards)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InstantWinAction:
        return cls(int(data["seat"]), InstantWinKind(data["kind"]), _cards(data.get("cards", "")))


@dataclass(frozen=True, slots=True)
class NextHandAction:
    """In a :class:`Game`: the next hand was dealt, led by ``leader`` (the last winner)."""

    action: ClassVar[str] = "next_hand"

    leader: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": "next_hand", "leader": self.leader}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NextHandAction:
        return cls(int(data["leader"]))


Action = PlayAction | PassAction | InstantWinAction | NextHandAction
RECORDS: Records[Action] = Records("Tiến lên", PlayAction, PassAction, InstantWinAction, NextHandAction)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild any action record from its :meth:`to_dict`.

    >>> action_from_dict(PlayAction(0, sort_cards("3s 4s 5h")).to_dict())
    PlayAction(seat=0, cards=(Card.parse('3♠'), Card.parse('4♠'), Card.parse('5♥')), bomb=False, went_out=False)
    """
    return RECORDS.from_dict(data)


# ---------------------------------------------------------------------------
# The hand
# ---------------------------------------------------------------------------


class Hand(StateMachine["Setup", "Action"]):
    """One hand, from the lead to the last player out, as a state machine.

    Turns go round in seat order.  A player who passes is locked out until the
    table is cleared (with ``bomb_after_pass`` they are still given their turn
    while 2s are on the table, and may then only bomb them; a player who bombs
    is back in the trick).  When every other
    player still in the hand has passed since the last play, the table is
    cleared and the last player to play leads; if they have gone out, the next
    player still in leads.  By default the hand ends when the first player
    goes out; with ``play_on`` it goes on until one player is left.

    >>> hand = Hand(Setup(("Ana", "Bao", "Chi", "Dung"), leader=2))
    >>> hand.turn
    2
    >>> hand.play(2, "3s 4s 5h")
    PlayAction(seat=2, cards=(Card.parse('3♠'), Card.parse('4♠'), Card.parse('5♥')), bomb=False, went_out=False)
    >>> hand.can_play(3, "6s 7s 8s"), hand.can_play(0, "6s 7s 8s")
    (True, False)
    >>> str(hand.refusal_to_play(0, "6s 7s 8s"))
    "it is Dung's turn, not Ana's"
    >>> _ = hand.pass_(3); _ = hand.pass_(0); _ = hand.pass_(1)
    >>> hand.table is None, hand.turn, hand.cards_left
    (True, 2, (13, 13, 10, 13))

    What scoring needs is recorded as the hand goes: each trick's chop chain
    (:attr:`chops`), who has played no card (:attr:`played_no_card`), the cards
    left and the silent seats when the first player went out
    (:attr:`cards_left_at_first_out`, :attr:`no_card_at_first_out`), and the
    cards still unseen (:attr:`unseen`).

    >>> h = Hand(Setup(("A", "B", "C"), leader=0, opening=False, hand_size=6))
    >>> _ = h.play(0, "2h"); _ = h.play(1, "4s 4h 5s 5h 6s 6h")
    >>> h.chops
    [(Chop(by=1, on=0, twos=(Card.parse('2♥'),)),)]
    >>> h.played_no_card
    (2,)
    """

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.rules = setup.rules
        n = len(setup.players)
        self.table: Combination | None = None
        self.table_seat: int | None = None
        self.locked: set[int] = set()
        self.waiting: set[int] = set()
        self.turn: int | None = setup.leader
        self._cards_left = [setup.hand_size] * n
        self.out: list[int] = []
        self.played: set[Card] = set()
        self.opening_pending = setup.opening
        self.instant_win: InstantWinAction | None = None
        self.over = False
        # What scoring needs (referee.tienlen_scores), kept as the hand goes.
        self.chops: list[tuple[Chop, ...]] = []
        self._chain_open = False
        self.played_by: list[list[Card]] = [[] for _ in range(n)]
        self.cards_left_at_first_out: tuple[int, ...] | None = None
        self.no_card_at_first_out: tuple[int, ...] | None = None
        self.played_after_first_out: list[list[Card]] = [[] for _ in range(n)]

    # -- derived state ---------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def cards_left(self) -> tuple[int, ...]:
        """Cards still held per seat (the hand size minus the cards played)."""
        return tuple(self._cards_left)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not gone out."""
        return tuple(s for s in range(len(self.players)) if s not in self.out)

    @property
    def winner(self) -> int | None:
        """The first player out (or the instant winner), once known."""
        if self.instant_win is not None:
            return self.instant_win.seat
        return self.out[0] if self.out else None

    @property
    def played_no_card(self) -> tuple[int, ...]:
        """Seats that have not played a single card yet."""
        return tuple(s for s, cards in enumerate(self.played_by) if not cards)

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards nobody has played yet this hand (held, or not dealt)."""
        return frozenset(_CARDS_IN_ORDER) - self.played

    @property
    def not_dealt(self) -> frozenset[Card]:
        """Cards known not to be in any hand: those below the lowest card dealt (first hand only)."""
        if not self.setup.opening:
            return frozenset()
        return frozenset(_CARDS_IN_ORDER[: card_power(self.setup.lowest_card)])

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats in the order they went out; with ``play_on``, the last player is appended at the end."""
        return tuple(self.out)

    def _next_from(self, seat: int, among: Iterable[int]) -> int | None:
        pool = set(among)
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if candidate in pool:
                return candidate
        return None

    def _eligible(self, seat: int) -> bool:
        """May ``seat`` still act on the current table?"""
        if seat in self.out or seat == self.table_seat:
            return False
        if seat in self.locked:
            return bool(self.rules.bomb_after_pass and self.table is not None and self.table.is_twos)
        return True

    # -- checks -----------------------------------------------------------------------
    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise HandOverError(message("the hand is over"))
        if not 0 <= seat < len(self.players):
            raise SeatError(seat, len(self.players))
        if seat in self.out:
            raise NotYourTurnError(message("{player} has already gone out", player=self.players[seat]))
        if seat != self.turn:
            raise NotYourTurnError(
                message("it is {turn}'s turn, not {player}'s",
                        turn=self.players[self.turn or 0], player=self.players[seat])
            )

    def check_play(self, seat: int, cards: CardsLike) -> Verdict:
        """Raise if ``seat`` may not play ``cards`` now; otherwise return the verdict."""
        found = _cards(cards)
        self._check_seat(seat)
        for card in sort_cards(found):
            if card in self.played:
                raise CardAlreadyPlayedError(card, message("{card} has already been played", card=card))
            if card in self.not_dealt:
                raise CardNotDealtError(card, message(
                    "{card} was not dealt: the lowest card dealt is {lowest}",
                    card=card, lowest=self.setup.lowest_card))
        if len(found) > self._cards_left[seat]:
            left, player = self._cards_left[seat], self.players[seat]
            if left == 1:
                raise ActionError(message("{player} has only 1 card left", player=player))
            raise ActionError(message("{player} has only {count} cards left", player=player, count=left))
        table = self.table.cards if self.table is not None else ()
        verdict = check(found, table, self.rules, first_play=self.opening_pending,
                        opening_card=self.setup.lowest_card)
        if not verdict.legal:
            raise IllegalPlayError(verdict)
        if seat in self.locked and not verdict.bomb:
            raise IllegalPlayError(
                Verdict(False, verdict.play, verdict.table, False,
                        message("a player who passed may only bomb the 2s until the table is cleared"))
            )
        return verdict

    can_play = can(check_play)

    def refusal_to_play(self, seat: int, cards: CardsLike) -> Message | None:
        """The reason :meth:`play` would refuse (bad notation included), or ``None``."""
        try:
            self.check_play(seat, cards)
        except RefereeError as err:
            return err.reason
        return None

    def check_pass(self, seat: int) -> None:
        """Raise if ``seat`` may not pass now (out of turn, or leading an empty table)."""
        self._check_seat(seat)
        if self.table is None:
            raise ActionError(message("the table is empty: {player} must lead", player=self.players[seat]))

    can_pass = can(check_pass)

    def check_instant_win(self, seat: int, kind: InstantWinKind | str, cards: CardsLike = ()) -> None:
        """Raise unless ``seat`` may declare ``kind`` now: switch on, before the first play, cards (if given) fit."""
        kind = InstantWinKind(kind)
        found = sort_cards(cards)
        if self.over:
            raise HandOverError(message("the hand is over"))
        if not 0 <= seat < len(self.players):
            raise SeatError(seat, len(self.players))
        if not self.rules.instant_wins:
            raise ActionError(message("instant wins are off (house rule “{switch}”)", switch=SWITCH_NAMES["instant_wins"]))
        if self.log:
            raise ActionError(message("an instant win must be declared before the first play"))
        if found:
            if len(found) != self.setup.hand_size:
                raise ActionError(message("a dealt hand has {size} cards, not {count}",
                                          size=self.setup.hand_size, count=len(found)))
            if not _holds_instant_win(found, kind):
                raise ActionError(message("{cards} does not hold {kind}", cards=found, kind=INSTANT_WIN_NAMES[kind]))

    can_declare_instant_win = can(check_instant_win)

    # -- doers ------------------------------------------------------------------------
    def play(self, seat: int, cards: CardsLike) -> PlayAction:
        """Play ``cards`` from ``seat``; returns the record appended to :attr:`log`."""
        verdict = self.check_play(seat, cards)
        assert verdict.play is not None
        combo = verdict.play
        self._record_chop(seat, combo, verdict)
        self.played.update(combo.cards)
        if self.cards_left_at_first_out is not None:
            self.played_after_first_out[seat].extend(combo.cards)
        self.played_by[seat].extend(combo.cards)
        self._cards_left[seat] -= combo.length
        self.opening_pending = False
        # A player who passed and then bombed a 2 (bomb_after_pass) is back in the trick.
        self.locked.discard(seat)
        self.table, self.table_seat = combo, seat
        went_out = self._cards_left[seat] == 0
        if went_out:
            self.out.append(seat)
            if self.cards_left_at_first_out is None:
                self.cards_left_at_first_out = tuple(self._cards_left)
                self.no_card_at_first_out = self.played_no_card
        record = PlayAction(seat, combo.cards, verdict.bomb, went_out)
        self.log.append(record)
        if went_out and (not self.rules.play_on or len(self.in_hand) <= 1):
            self._finish()
            return record
        self.waiting = {s for s in self.in_hand if self._eligible(s)}
        self._advance(seat)
        return record

    def _record_chop(self, seat: int, combo: Combination, verdict: Verdict) -> None:
        """A bomb on 2s starts a chop chain; a bomb on a bomb extends the trick's chain (or starts one)."""
        table, on = self.table, self.table_seat
        if table is None or on is None or not combo.is_bomb:
            return
        if table.is_twos and verdict.bomb:
            self.chops.append((Chop(seat, on, table.cards),))
            self._chain_open = True
        elif table.is_bomb:
            step = Chop(seat, on)
            if self._chain_open and self.chops[-1][-1].by == on:
                self.chops[-1] = (*self.chops[-1], step)
            else:
                self.chops.append((step,))
                self._chain_open = True

    def pass_(self, seat: int) -> PassAction:
        """Pass; the player is locked out until the table is cleared."""
        self.check_pass(seat)
        self.locked.add(seat)
        self.waiting.discard(seat)
        cleared = not self.waiting
        record = PassAction(seat, cleared)
        self.log.append(record)
        self._advance(seat)
        return record

    pass_turn = pass_

    def declare_instant_win(self, seat: int, kind: InstantWinKind | str, cards: CardsLike = ()) -> InstantWinAction:
        """Record a claimed instant win (the app cannot see the cards; they are checked if entered)."""
        self.check_instant_win(seat, kind, cards)
        record = InstantWinAction(seat, InstantWinKind(kind), sort_cards(cards))
        self.log.append(record)
        self.instant_win = record
        self._finish()
        return record

    def apply(self, action: Action | Mapping[str, Any]) -> Action:
        """Apply a record (or its dict) again, as :func:`replay` does."""
        if isinstance(action, Mapping):
            action = action_from_dict(action)
        if isinstance(action, PlayAction):
            return self.play(action.seat, action.cards)
        if isinstance(action, PassAction):
            return self.pass_(action.seat)
        if isinstance(action, InstantWinAction):
            return self.declare_instant_win(action.seat, action.kind, action.cards)
        raise ValueError(f"{action!r} is not an action within a hand")

    def _advance(self, actor: int) -> None:
        if self.waiting:
            self.turn = self._next_from(actor, self.waiting)
            return
        # Everyone else has passed since the last play: clear the table.
        last = self.table_seat if self.table_seat is not None else actor
        self.table, self.table_seat = None, None
        self._chain_open = False
        self.locked.clear()
        self.turn = last if last not in self.out else self._next_from(last, self.in_hand)

    def _finish(self) -> None:
        self.over = True
        self.turn = None
        self.waiting = set()
        if self.instant_win is not None:
            self.cards_left_at_first_out = tuple(self._cards_left)
            self.no_card_at_first_out = ()
        if self.instant_win is None and self.rules.play_on:
            self.out.extend(self.in_hand)

    def to_dict(self) -> dict[str, Any]:
        """A snapshot for a table screen."""
        return {
            "players": list(self.players),
            "turn": self.turn,
            "table": self.table.to_dict() if self.table else None,
            "table_seat": self.table_seat,
            "passed": sorted(self.locked),
            "cards_left": list(self._cards_left),
            "out": list(self.out),
            "over": self.over,
            "winner": self.winner,
            "opening": self.opening_pending,
        }


def _holds_instant_win(cards: Sequence[Card], kind: InstantWinKind) -> bool:
    counts = Counter(c.rank for c in cards)
    if kind is InstantWinKind.FOUR_TWOS:
        return counts[Rank.TWO] == 4
    if kind is InstantWinKind.DRAGON:
        return all(counts[r] >= 1 for r in RANK_ORDER[:-1])
    return sum(v // 2 for v in counts.values()) >= 6


def replay(setup: Setup, actions: Iterable[Action | Mapping[str, Any]]) -> Hand:
    """Rebuild a hand from its setup and its log (records or their dicts).

    >>> s = Setup(("A", "B"), leader=1)
    >>> h = replay(s, [{"action": "play", "seat": 1, "cards": "3s"}, {"action": "pass", "seat": 0}])
    >>> h.turn, h.table
    (1, None)
    """
    return Hand.replay(setup, actions)


# ---------------------------------------------------------------------------
# A game: a series of hands
# ---------------------------------------------------------------------------


class Game(StateMachine["Setup", "Action"]):
    """Hands one after another, with a tally of hands won per seat.

    The first hand uses ``setup`` (``leader`` holds the 3♠); each next hand is
    led by the previous winner with no opening rule.

    >>> g = Game(Setup(("A", "B"), leader=0, hand_size=1))
    >>> _ = g.play(0, "3s")
    >>> g.hand.over, g.tally
    (True, (1, 0))
    >>> _ = g.next_hand()
    >>> g.hand.turn, g.hand.setup.opening
    (0, False)
    """

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.hands: list[Hand] = [Hand(setup)]

    @property
    def hand(self) -> Hand:
        return self.hands[-1]

    @property
    def tally(self) -> tuple[int, ...]:
        """Hands won per seat."""
        wins = [0] * len(self.setup.players)
        for hand in self.hands:
            if hand.over and hand.winner is not None:
                wins[hand.winner] += 1
        return tuple(wins)

    def check_next_hand(self) -> None:
        if not self.hand.over:
            raise HandOverError(message("the hand is not over yet"))

    can_next_hand = can(check_next_hand)

    def next_hand(self) -> NextHandAction:
        self.check_next_hand()
        winner = self.hand.winner
        assert winner is not None
        # A new deal: nobody names its lowest card, and no opening rule applies.
        self.hands.append(Hand(dataclasses.replace(self.setup, leader=winner, opening=False,
                                                   lowest_card=THREE_OF_SPADES)))
        record = NextHandAction(winner)
        self.log.append(record)
        return record

    def play(self, seat: int, cards: CardsLike) -> PlayAction:
        record = self.hand.play(seat, cards)
        self.log.append(record)
        return record

    def pass_(self, seat: int) -> PassAction:
        record = self.hand.pass_(seat)
        self.log.append(record)
        return record

    pass_turn = pass_

    def declare_instant_win(self, seat: int, kind: InstantWinKind | str, cards: CardsLike = ()) -> InstantWinAction:
        record = self.hand.declare_instant_win(seat, kind, cards)
        self.log.append(record)
        return record

    def apply(self, action: Action | Mapping[str, Any]) -> Action:
        if isinstance(action, Mapping):
            action = action_from_dict(action)
        if isinstance(action, NextHandAction):
            dealt = self.next_hand()
            if dealt.leader != action.leader:
                raise ValueError(f"the log says seat {action.leader} leads, but seat {dealt.leader} won")
            return dealt
        record = self.hand.apply(action)
        self.log.append(record)
        return record


def replay_game(setup: Setup, actions: Iterable[Action | Mapping[str, Any]]) -> Game:
    """Rebuild a game (several hands) from its first setup and its log."""
    return Game.replay(setup, actions)

