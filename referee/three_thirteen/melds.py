"""What Three Thirteen's cards count, and the value types of a split: melds, faces, splits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.cards import (
    AnyCard,
    Card,
    Joker,
    Rank,
    format_cards,
)
from referee.text import Message, message
from referee.three_thirteen.rules import (
    _DEFAULT_RULES,
    JOKER_POINTS,
    ThreeThirteenRules,
)

# ---------------------------------------------------------------------------
# Cards and points


def is_wild(card: AnyCard, wild_rank: Rank | int) -> bool:
    """Whether a card is wild: it has the round's wild rank, or it is a joker; it may replace any card of a meld.

    >>> from referee.cards import JOKER
    >>> is_wild(Card.parse("6c"), Rank.SIX), is_wild(JOKER, Rank.SIX), is_wild(Card.parse("7c"), 6)
    (True, True, False)
    """
    return isinstance(card, Joker) or card.rank == wild_rank


def card_points(card: AnyCard, rules: ThreeThirteenRules = _DEFAULT_RULES) -> int:
    """What a card left outside the melds costs (a wild card too: its usual value).

    >>> from referee.cards import parse_cards
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

    >>> from referee.cards import parse_cards
    >>> from referee.three_thirteen import best_split
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

    >>> from referee.cards import parse_cards
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
