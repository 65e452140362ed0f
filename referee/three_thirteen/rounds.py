"""A Three Thirteen round's end: splitting each hand, going out, the round's scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.cards import (
    AnyCard,
    CardsLike,
    cards_of,
    format_cards,
)
from referee.errors import SeatError
from referee.text import Message, message
from referee.three_thirteen.melds import (
    Split,
)
from referee.three_thirteen.rules import (
    _DEFAULT_RULES,
    FALSE_OUT_PENALTY,
    ThreeThirteenRules,
    decks_for,
)
from referee.three_thirteen.schedule import Schedule
from referee.three_thirteen.splits import (
    HandSizeError,
    ImpossibleHandError,
    _fits_a_meld,
    _why_not_out,
    best_split,
)

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
    referee.three_thirteen.splits.HandSizeError: Round 4 deals 6 cards; this hand has 5.
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
    referee.three_thirteen.splits.ImpossibleHandError: 9♣ fits no set or run, so this hand cannot go out
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
