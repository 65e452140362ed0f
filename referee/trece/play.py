"""Trece's play rules: whether cards may go on the pile, and the mistakes a play can hold.

>>> check_play("J♦", "Q♥ K♥").legal
True
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import (
    AnyCard,
    Card,
    CardsLike,
    Joker,
    Rank,
    Suit,
    TooManyCopiesError,
    card_of,
    cards_of,
    check_copies,
)
from referee.errors import RefereeError, RefusedAction
from referee.text import Message, message
from referee.trece.rules import DEFAULT_RULES, TRECE_JOKERS, TreceRules

# --------------------------------------------------------------------------- errors


class DuplicateCardError(TooManyCopiesError):
    """A card Trece's single deck holds once, seen twice: twice in one play, the
    same as the top of the pile, or already lying in the pile.

    >>> check_play("J♦", "Q♥ Q♥")
    Traceback (most recent call last):
    ...
    referee.trece.play.DuplicateCardError: Q♥ appears twice in the play, but the deck holds it only once
    """

    def __init__(self, card: AnyCard, reason: Message) -> None:
        super().__init__(card, 2, 1, reason)


class EmptyPlayError(RefereeError):
    """A play with no cards in it."""

    def __init__(self) -> None:
        super().__init__(message("a play needs at least one card"))


class DemandError(RefereeError):
    """A top and a demanded suit that cannot go together in a game.

    A joker lies on top only while its demand is pending, so a joker on top
    needs the suit it demands, of the joker's colour; and a demand needs a
    joker on top.
    """

    def __init__(self, top: AnyCard, must_follow: Suit | None, reason: Message) -> None:
        self.top = top
        self.must_follow = must_follow
        super().__init__(reason)


class SetupError(RefereeError):
    """A game that cannot start as described (names, dealer, turned card)."""


class IllegalActionError(RefusedAction):
    """An action Trece's state refuses (the contract's :class:`~referee.errors.RefusedAction`)."""


class IllegalPlayError(IllegalActionError):
    """A play the rules forbid; carries the :class:`Verdict` and the cards."""

    def __init__(self, verdict: Verdict, play: tuple[AnyCard, ...]) -> None:
        self.verdict = verdict
        self.play = play
        super().__init__(verdict.reason)


# --------------------------------------------------------------------------- the play rules


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play is legal, and why, in one sentence naming the rule.

    ``joker`` says the play ends with a joker; ``demands_suit`` is the suit the
    other player must now play (only on a legal joker play).
    """

    legal: bool
    reason: Message
    joker: bool = False
    demands_suit: Suit | None = None

    def __bool__(self) -> bool:
        return self.legal


def is_one_rank_apart(a: Rank, b: Rank) -> bool:
    """True when ``b`` is one rank above or below ``a``; ranks go round (A K and A 2).

    >>> is_one_rank_apart(Rank.KING, Rank.ACE), is_one_rank_apart(Rank.ACE, Rank.TWO)
    (True, True)
    >>> is_one_rank_apart(Rank.KING, Rank.TWO), is_one_rank_apart(Rank.FIVE, Rank.FIVE)
    (False, False)
    """
    return (int(a) - int(b)) % 13 in (1, 12)


def _joker_fits(joker: Joker, king: AnyCard) -> bool:
    return isinstance(king, Card) and king.rank is Rank.KING and king.is_red == joker.is_red


def _joker_misplaced(joker: Joker, under: AnyCard) -> Message:
    if joker.is_red:
        return message("a red joker goes only on a red king, not on {card}", card=under)
    return message("a black joker goes only on a black king, not on {card}", card=under)


def _validate(top: AnyCard, play: tuple[AnyCard, ...], must_follow: Suit | None) -> None:
    if not play:
        raise EmptyPlayError()
    seen: set[AnyCard] = set()
    for card in play:
        if card in seen:
            raise DuplicateCardError(
                card, message("{card} appears twice in the play, but the deck holds it only once", card=card)
            )
        seen.add(card)
        if card == top:
            raise DuplicateCardError(card, message("{card} is the top of the pile already; the deck holds one", card=card))
    check_copies((top, *play), jokers=TRECE_JOKERS)
    if isinstance(top, Joker):
        if must_follow is None:
            raise DemandError(top, None, message("{top} lies on top only while it demands a suit: give that suit", top=top))
        if Suit(must_follow).is_red != top.is_red:
            raise DemandError(
                top, must_follow, message(
                    "{top} cannot demand {suit}: its king is of its colour", top=top, suit=Suit(must_follow).symbol
                )
            )
    elif must_follow is not None:
        raise DemandError(top, must_follow, message("only a joker demands a suit, and {top} is on top", top=top))


def check_play(
    top: AnyCard | str,
    play: CardsLike,
    must_follow: Suit | None = None,
    rules: TreceRules = DEFAULT_RULES,
) -> Verdict:
    """Judge ``play`` (cards in the order played) on the pile's ``top``.

    ``must_follow`` is the suit a joker on top demands (then ``top`` is that
    joker).  Cards may be given as notation text.  Bad input raises: an empty
    play (:class:`EmptyPlayError`), a card twice or equal to the top
    (:class:`DuplicateCardError`), a colourless joker
    (:class:`referee.cards.TooManyCopiesError`), a joker on top without its
    demand (:class:`DemandError`).

    >>> print(check_play("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣").reason)
    Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣ is a run on J♦
    >>> print(check_play("5♠", "6♥ 5♥ 6♥"))
    Traceback (most recent call last):
    ...
    referee.trece.play.DuplicateCardError: 6♥ appears twice in the play, but the deck holds it only once
    >>> print(check_play("10♠", "J♥ Q♥ K♥ 2♣").reason)
    after a king any queen or ace may follow, not 2♣
    >>> print(check_play("RJ", "9♦", must_follow=Suit.DIAMONDS).reason)
    9♦ is a ♦, as the joker demands
    >>> print(check_play("RJ", "9♦ 10♦", must_follow=Suit.DIAMONDS).reason)
    the ♦ that meets a joker's demand is played alone
    >>> check_play("RJ", "9♦ 10♦", must_follow=Suit.DIAMONDS, rules=TreceRules(run_after_joker=True)).legal
    True
    """
    top = card_of(top)
    cards = cards_of(play)
    if must_follow is not None:
        must_follow = Suit(must_follow)
    _validate(top, cards, must_follow)
    ends_with_joker = isinstance(cards[-1], Joker)

    def illegal(reason: Message) -> Verdict:
        return Verdict(False, reason, ends_with_joker, None)

    for i, card in enumerate(cards):
        prev = top if i == 0 else cards[i - 1]
        if i == 0 and must_follow is not None:
            if isinstance(card, Joker) or card.suit is not must_follow:
                return illegal(message("you must play a {suit}, not {card}", suit=must_follow.symbol, card=card))
            continue
        if isinstance(prev, Joker):
            return illegal(message("a joker ends the run: nothing may follow {joker}", joker=prev))
        assert isinstance(prev, Card)
        if i == 1 and must_follow is not None and not rules.run_after_joker:
            return illegal(
                message("the {suit} that meets a joker's demand is played alone", suit=must_follow.symbol)
            )
        if isinstance(card, Joker):
            if not _joker_fits(card, prev):
                return illegal(_joker_misplaced(card, prev))
            continue
        if i == 0:
            if not is_one_rank_apart(prev.rank, card.rank):
                return illegal(message("{card} is not one rank from {top}", card=card, top=prev))
            continue
        if prev.rank is Rank.KING:
            # Any queen or ace; in the king's suit those are also its only neighbours.
            if card.rank in (Rank.QUEEN, Rank.ACE):
                continue
            return illegal(message("after a king any queen or ace may follow, not {card}", card=card))
        if card.suit is not prev.suit:
            return illegal(
                message(
                    "{card} is not a {suit}: each card of a run is the suit of the card before it",
                    card=card,
                    suit=prev.suit.symbol,
                )
            )
        if not is_one_rank_apart(prev.rank, card.rank):
            return illegal(message("{card} is not one rank from {prev}", card=card, prev=prev))

    if ends_with_joker:
        king = top if len(cards) == 1 else cards[-2]
        assert isinstance(king, Card)
        return Verdict(
            True,
            message(
                "{joker} on {king}: the other player must play a {suit}",
                joker=cards[-1],
                king=king,
                suit=king.suit.symbol,
            ),
            True,
            king.suit,
        )
    if must_follow is not None and len(cards) == 1:
        return Verdict(True, message("{card} is a {suit}, as the joker demands", card=cards[0], suit=must_follow.symbol))
    if must_follow is not None:
        return Verdict(True, message("{play} starts with a {suit}, as the joker demands", play=cards,
                                     suit=must_follow.symbol))
    if len(cards) == 1:
        return Verdict(True, message("{card} is one rank from {top}", card=cards[0], top=top))
    return Verdict(True, message("{play} is a run on {top}", play=cards, top=top))
