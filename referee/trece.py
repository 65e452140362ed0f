"""Trece: the two-player shedding game with red and black jokers.

One 52-card deck plus a red and a black joker (54 cards).  Each player gets 13
cards, one card turned face up starts the pile and the other 27 are the stock.
The first player to hold no cards wins.

**Single card.**  A card goes on the top of the pile if its rank is one above or
one below, whatever the suit.  Ranks go round, so an ace sits between a king and
a 2:

>>> check_play("J♦", "Q♠").legal, check_play("J♦", "10♥").legal
(True, True)
>>> check_play("K♣", "A♥").legal, check_play("2♣", "A♥").legal, check_play("A♦", "K♠").legal
(True, True, True)
>>> print(check_play("J♦", "7♣").reason)
7♣ is not one rank from J♦

**Run.**  Several cards in one turn, in the order played.  The first card
follows the single-card rule; every next card is the suit of the card before it
and one rank above or below it.  The direction may turn, and ranks go round
inside a run too (``A♠ K♠`` and ``K♠ A♠`` both step by one).  After a king, any
queen or any ace of any suit may follow:

>>> check_play("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣").legal
True
>>> print(check_play("J♦", "Q♥ K♥ Q♣ J♥").reason)
J♥ is not a ♣: each card of a run is the suit of the card before it

**Jokers.**  A joker goes only on a king of its own colour (red on ♥ or ♦,
black on ♠ or ♣), alone or as the last card of a run; it ends the run.  The
other player must then play a card of that king's suit:

>>> v = check_play("Q♥", "K♥ RJ")
>>> v.legal, v.joker, v.demands_suit
(True, True, <Suit.HEARTS: 3>)
>>> print(check_play("K♠", "RJ").reason)
a red joker goes only on a red king, not on K♠
>>> print(check_play("Q♥", "K♥ RJ A♥").reason)
a joker ends the run: nothing may follow RJ
>>> print(check_play("RJ", "7♣", must_follow=Suit.HEARTS).reason)
you must play a ♥, not 7♣

Whoever cannot follow the demand picks up 13 cards; after that the two players
take turns to play the suit or pick up one card, until one of them plays it.
That card is played alone (house rule ``run_after_joker``: it may begin a run).
Once played it is the new top and the single-card rule applies to it, so a
joker is on top only while its demand is pending.

:class:`State` is the two-player game as the app sees it: the cards played and
how many cards each player and the stock hold, never the hands themselves.

Where the sheet says little, the referee decides so:

- The wrap applies inside a run as well (the sheet's own example steps ``A♠ K♠``).
- After a king only a queen or an ace may follow, even in the king's suit (its
  only neighbours anyway).
- Drawing ends the turn, outside a demand as inside it (the sheet has the
  players alternate one card each).  The app cannot see hands, so it takes the
  table's word that a player who draws could not play.
- The pile is turned into a new stock as soon as someone takes the last stock
  card (as the sheet says), and again in the middle of a 13-card pick-up when
  needed.  If even the pile cannot supply the cards due, the player takes what
  there is (possibly none) and the turn still passes.
- A card is refused as played twice while it lies in the pile.  Cards shuffled
  back into the stock may be played again once drawn: a player cannot play more
  of them than they have taken from the stock since (the referee cannot see
  which cards those were, only how many).
- "Last card" and "thirteen" are not turns: they may be said at any moment
  while a player holds one card.  A player who draws and comes back down to one
  card must say "last card" again.  The challenge costs the caught player 13
  cards (fewer if the stock and pile run dry), and a wrong challenge is refused
  without cost.
- A player who plays their last card wins at once, even with a joker.
- A joker cannot be the turned card that starts the pile: the table puts it
  back and turns the next one.  The dealer's opponent plays first by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import (
    BLACK_JOKER,
    RED_JOKER,
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
    format_cards,
    parse_cards,
)
from referee.errors import RefereeError, RefusedAction, StateMachine, can
from referee.records import Records
from referee.switches import not_on_or_off, rules_from_mapping, rules_to_dict
from referee.text import Message, message

__all__ = [
    "DECK_SIZE",
    "HAND_SIZE",
    "PENALTY",
    "TreceRules",
    "Verdict",
    "check_play",
    "is_one_rank_apart",
    "DuplicateCardError",
    "EmptyPlayError",
    "DemandError",
    "SetupError",
    "IllegalActionError",
    "IllegalPlayError",
    "Setup",
    "Play",
    "Draw",
    "LastCard",
    "Thirteen",
    "Record",
    "record_from_dict",
    "RECORDS",
    "State",
    "replay",
]

DECK_SIZE = 54
"""52 cards and two jokers."""
HAND_SIZE = 13
"""Cards dealt to each player."""
PENALTY = 13
"""Cards picked up for failing a joker's demand, or when caught by "thirteen"."""

TRECE_JOKERS: Mapping[Joker, int] = {RED_JOKER: 1, BLACK_JOKER: 1}



# --------------------------------------------------------------------------- house rules


@dataclass(frozen=True, kw_only=True)
class TreceRules:
    """The house rules of Trece; field names are the switch ids of RULES.md.

    ``run_after_joker`` (off): the card that meets a joker's demand is played
    alone; when on it may begin a run.

    >>> TreceRules()
    TreceRules(run_after_joker=False)
    >>> rules_from_mapping(TreceRules, {"run_after_joker": "on"})
    TreceRules(run_after_joker=True)
    """

    run_after_joker: bool = False

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def __post_init__(self) -> None:
        if not isinstance(self.run_after_joker, bool):
            raise not_on_or_off("run_after_joker", self.run_after_joker)

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


# --------------------------------------------------------------------------- errors


class DuplicateCardError(TooManyCopiesError):
    """A card Trece's single deck holds once, seen twice: twice in one play, the
    same as the top of the pile, or already lying in the pile.

    >>> check_play("J♦", "Q♥ Q♥")
    Traceback (most recent call last):
    ...
    referee.trece.DuplicateCardError: Q♥ appears twice in the play, but the deck holds it only once
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


def _two_names(value: Any) -> tuple[str, str]:
    names = tuple(value)
    if len(names) != 2:
        raise SetupError(message("Trece needs two named players, not {players}", players=repr(names)))
    return (names[0], names[1])


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
    rules: TreceRules = TreceRules(),
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
    referee.trece.DuplicateCardError: 6♥ appears twice in the play, but the deck holds it only once
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


# --------------------------------------------------------------------------- the game records


def _player_index(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise SetupError(message("a player is 0 or 1, not {value}", value=repr(value)))
    return value


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game starts: the two players, who deals, who plays first, the turned card.

    The dealer's opponent plays first unless ``first`` says otherwise.  A joker
    cannot start the pile (it would demand a suit of nobody): the table puts it
    back and turns the next card.

    >>> s = Setup(("Ana", "Ben"), Card.parse("9♣"))
    >>> s.dealer, s.first
    (0, 1)
    >>> Setup.from_dict(s.to_dict()) == s
    True
    >>> Setup(("Ana", "Ben"), RED_JOKER)
    Traceback (most recent call last):
    ...
    referee.trece.SetupError: RJ cannot start the pile: put it back and turn the next card
    """

    players: tuple[str, str]
    turned: Card
    dealer: int = 0
    first: int | None = None
    rules: TreceRules = field(default_factory=TreceRules)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
            raise SetupError(message("Trece needs two named players, not {players}", players=repr(players)))
        if players[0] == players[1]:
            raise SetupError(message("the two players need different names, not {name} twice", name=repr(players[0])))
        object.__setattr__(self, "players", players)
        turned = card_of(self.turned)
        if not isinstance(turned, Card):
            raise SetupError(message("{card} cannot start the pile: put it back and turn the next card", card=turned))
        object.__setattr__(self, "turned", turned)
        object.__setattr__(self, "dealer", _player_index(self.dealer))
        first = 1 - self.dealer if self.first is None else _player_index(self.first)
        object.__setattr__(self, "first", first)
        if not isinstance(self.rules, TreceRules):
            raise TypeError(f"rules must be TreceRules, not {self.rules!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "turned": str(self.turned),
            "dealer": self.dealer,
            "first": self.first,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            players=_two_names(data["players"]),
            turned=Card.parse(data["turned"]),
            dealer=data.get("dealer", 0),
            first=data.get("first"),
            rules=rules_from_mapping(TreceRules, data.get("rules")),
        )


@dataclass(frozen=True, slots=True)
class Play:
    """A player put ``cards`` on the pile, in that order (a single card or a run).

    ``demands_suit`` is the suit the other player must now play when the play
    ended with a joker; ``won`` says it was the player's last card.
    """

    player: int
    cards: tuple[AnyCard, ...]
    demands_suit: Suit | None = None
    won: bool = False

    action: ClassVar[str] = "play"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "cards": format_cards(self.cards),
            "demands_suit": None if self.demands_suit is None else self.demands_suit.symbol,
            "won": self.won,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Play:
        suit = data.get("demands_suit")
        return cls(
            _player_index(data["player"]),
            parse_cards(data["cards"]),
            None if suit is None else Suit.parse(suit),
            bool(data.get("won", False)),
        )


@dataclass(frozen=True, slots=True)
class Draw:
    """A player picked up ``count`` cards instead of playing; the turn passed.

    ``penalty`` marks the 13 cards for not following a joker's demand.
    ``returned`` lists the pile cards shuffled back into the stock on the way
    (the stock ran out); ``count`` may be short of what was due when even the
    pile could not supply enough.
    """

    player: int
    count: int = 1
    penalty: bool = False
    returned: tuple[AnyCard, ...] = ()

    action: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "count": self.count,
            "penalty": self.penalty,
            "returned": format_cards(self.returned),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Draw:
        return cls(
            _player_index(data["player"]),
            int(data.get("count", 1)),
            bool(data.get("penalty", False)),
            parse_cards(data.get("returned", "")),
        )


@dataclass(frozen=True, slots=True)
class LastCard:
    """``player``, holding one card, said "last card"."""

    player: int

    action: ClassVar[str] = "last_card"

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "player": self.player}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LastCard:
        return cls(_player_index(data["player"]))


@dataclass(frozen=True, slots=True)
class Thirteen:
    """``player`` said "thirteen" before the other player said "last card".

    The other player (``target``) picked up ``count`` cards (13 unless the
    stock and pile held fewer); ``returned`` as for :class:`Draw`.
    """

    player: int
    target: int = 0
    count: int = PENALTY
    returned: tuple[AnyCard, ...] = ()

    action: ClassVar[str] = "thirteen"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "target": self.target,
            "count": self.count,
            "returned": format_cards(self.returned),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Thirteen:
        player = _player_index(data["player"])
        return cls(
            player,
            _player_index(data.get("target", 1 - player)),
            int(data.get("count", PENALTY)),
            parse_cards(data.get("returned", "")),
        )


Record = Play | Draw | LastCard | Thirteen
RECORDS: Records[Record] = Records("Trece", Play, Draw, LastCard, Thirteen)


def record_from_dict(data: Mapping[str, Any]) -> Record:
    """Read back any record written by ``to_dict()``.

    >>> record_from_dict({"action": "play", "player": 1, "cards": "K♥ RJ", "demands_suit": "♥"})
    Play(player=1, cards=(Card.parse('K♥'), Joker.parse('RJ')), demands_suit=<Suit.HEARTS: 3>, won=False)
    """
    return RECORDS.from_dict(data)


# --------------------------------------------------------------------------- the game state


class State(StateMachine["Setup", "Record"]):
    """A two-player game of Trece as the referee sees it: counts and the pile, never hands.

    It keeps the contract of :mod:`referee.errors`: for each action ``check_x``
    (raises :class:`IllegalActionError`, :class:`IllegalPlayError` or the error of
    bad input), ``can_x`` (``True`` exactly when ``x`` would be accepted, bad
    notation included) and the doer ``x`` that returns a frozen record and appends
    it to ``log``.  A refused action changes nothing; ``undo()`` returns a new state.

    >>> game = State(Setup(("Ana", "Ben"), Card.parse("J♦")))
    >>> game.counts, game.stock, game.top, game.turn_name
    ((13, 13), 27, Card.parse('J♦'), 'Ben')
    >>> game.play("Ben", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣").cards[-1]
    Card.parse('10♣')
    >>> game.counts, game.turn_name
    ((13, 6), 'Ana')
    >>> game.play("Ana", "9♣ 10♣")
    Traceback (most recent call last):
    ...
    referee.trece.DuplicateCardError: 10♣ is the top of the pile already; the deck holds one

    Drawing (when a player cannot play) takes one card and ends the turn:

    >>> game.draw()
    Draw(player=0, count=1, penalty=False, returned=())
    >>> game.counts, game.stock, game.turn_name
    ((14, 6), 26, 'Ben')

    A joker demands the suit of the king under it; the other player who cannot
    follow picks up 13, then the players take turns to follow or pick up one:

    >>> game.play("Ben", "J♥").cards, game.turn_name
    ((Card.parse('J♥'),), 'Ana')
    >>> game.play("Ana", "Q♦ K♦ RJ").demands_suit
    <Suit.DIAMONDS: 2>
    >>> game.demand, game.next_draw
    (<Suit.DIAMONDS: 2>, 13)
    >>> game.draw().count, game.draw().count, game.counts
    (13, 1, (12, 18))
    >>> game.can_play("Ben", "5♥"), game.can_play("Ben", "5♦ 6♦"), game.can_play("Ben", "5♦")
    (False, False, True)
    >>> game.play("Ben", "5♦").cards, game.demand, game.turn_name
    ((Card.parse('5♦'),), None, 'Ana')
    """

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.rules = setup.rules
        self._counts = [HAND_SIZE, HAND_SIZE]
        self._stock = DECK_SIZE - 2 * HAND_SIZE - 1
        self._pile: list[AnyCard] = [setup.turned]
        self._turn: int = 1 - setup.dealer if setup.first is None else setup.first
        self._demand: Suit | None = None
        self._penalty_due = False
        self._called = [False, False]
        self._winner: int | None = None
        self._returned: list[AnyCard] = []
        # How many cards each player took from a stock made of shuffled-back cards,
        # less those played again: at most that many shuffled-back cards are in the hand.
        self._drawn_back = [0, 0]

    # ---------------------------------------------------------------- what the table shows

    @property
    def players(self) -> tuple[str, str]:
        return self.setup.players

    @property
    def counts(self) -> tuple[int, int]:
        """How many cards each player holds."""
        return (self._counts[0], self._counts[1])

    @property
    def stock(self) -> int:
        """How many cards lie face down in the stock."""
        return self._stock

    @property
    def pile(self) -> tuple[AnyCard, ...]:
        """The cards in the pile since the last reshuffle, bottom first; the last is the top."""
        return tuple(self._pile)

    @property
    def top(self) -> AnyCard:
        return self._pile[-1]

    @property
    def returned(self) -> frozenset[AnyCard]:
        """Cards shuffled from the pile back into the stock and not played since.

        They may be in the stock or in a hand again, so they may be played again.
        """
        return frozenset(self._returned) - set(self._pile)

    @property
    def played(self) -> tuple[AnyCard, ...]:
        """Every card played in the game, in order (a card may recur after a reshuffle)."""
        return tuple(c for r in self.log if isinstance(r, Play) for c in r.cards)

    @property
    def turn(self) -> int | None:
        """The player to act (0 or 1), or ``None`` once the game is won."""
        return None if self._winner is not None else self._turn

    @property
    def turn_name(self) -> str | None:
        turn = self.turn
        return None if turn is None else self.players[turn]

    @property
    def demand(self) -> Suit | None:
        """The suit the player on turn must play because of a joker, if any."""
        return self._demand

    @property
    def next_draw(self) -> int:
        """How many cards the player on turn picks up when they draw: 13 to refuse a
        joker's demand the first time, else 1."""
        return PENALTY if self._penalty_due else 1

    @property
    def last_card_called(self) -> tuple[bool, bool]:
        """Whether each player holding one card has said "last card"."""
        return (self._called[0] and self._counts[0] == 1, self._called[1] and self._counts[1] == 1)

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    def index(self, player: int | str) -> int:
        """A player's index from the index or the name.

        >>> State(Setup(("Ana", "Ben"), Card.parse("2♠"))).index("Ben")
        1
        """
        if isinstance(player, str):
            if player not in self.players:
                raise IllegalActionError(message("{name} is not playing this game", name=player))
            return self.players.index(player)
        try:
            return _player_index(player)
        except SetupError:
            raise IllegalActionError(message("{name} is not playing this game", name=player)) from None

    def to_dict(self) -> dict[str, Any]:
        """The state as plain JSON data (what the app shows)."""
        return {
            "players": list(self.players),
            "counts": list(self.counts),
            "stock": self.stock,
            "pile": format_cards(self.pile),
            "top": str(self.top),
            "turn": self.turn,
            "demand": None if self.demand is None else self.demand.symbol,
            "next_draw": self.next_draw,
            "last_card_called": list(self.last_card_called),
            "winner": self.winner,
            "returned": format_cards(sorted(self.returned, key=_sort_key)),
            "actions": len(self.log),
        }

    def __repr__(self) -> str:
        return f"<trece.State {self.to_dict()!r}>"

    # ---------------------------------------------------------------- common checks

    def _check_open(self) -> None:
        if self._winner is not None:
            raise IllegalActionError(
                message("the game is over: {name} has no cards left", name=self.players[self._winner])
            )

    def _check_turn(self, player: int | str | None) -> int:
        self._check_open()
        if player is not None and self.index(player) != self._turn:
            return self._not_your_turn()
        return self._turn

    def _not_your_turn(self) -> int:
        raise IllegalActionError(message("it is {name}'s turn", name=self.players[self._turn]))

    def _take(self, n: int, player: int) -> tuple[int, tuple[AnyCard, ...]]:
        """Move up to ``n`` cards out of the stock into ``player``'s hand, reshuffling the
        pile when it runs out."""
        taken = 0
        returned: list[AnyCard] = []
        while taken < n:
            if self._stock == 0:
                back = self._reshuffle()
                if not back:
                    break
                returned += back
            k = min(n - taken, self._stock)
            self._stock -= k
            taken += k
            if self._returned:  # after the first reshuffle the stock is only shuffled-back cards
                self._drawn_back[player] += k
        if self._stock == 0:
            # The sheet: whoever takes the last face-down card turns the pile over at once.
            returned += self._reshuffle()
        return taken, tuple(returned)

    def _reshuffle(self) -> list[AnyCard]:
        back = self._pile[:-1]
        self._pile = self._pile[-1:]
        self._stock += len(back)
        self._returned += back
        return back

    # ---------------------------------------------------------------- play

    def check_play(self, player: int | str | None, cards: CardsLike) -> Verdict:
        """Raise unless ``player`` (checked to be on turn; ``None``: whoever is) may play ``cards``.

        Returns the legal :class:`Verdict`.  A card already in the pile is refused
        by name; a play of more cards than the player holds is refused.
        """
        p = self._check_turn(player)
        cards = cards_of(cards)
        below = set(self._pile[:-1])
        for card in cards:
            if card in below:
                raise DuplicateCardError(card, message("{card} is already in the pile; the deck holds one", card=card))
        self._check_drawn_back(cards, p)
        verdict = check_play(self.top, cards, self._demand, self.rules)
        if len(cards) > self._counts[p]:
            if self._counts[p] == 1:
                raise IllegalActionError(message("{name} holds 1 card, too few to play {play}",
                                                 name=self.players[p], play=cards))
            raise IllegalActionError(message("{name} holds {count} cards, too few to play {play}",
                                             name=self.players[p], count=self._counts[p], play=cards))
        if not verdict.legal:
            raise IllegalPlayError(verdict, cards)
        return verdict

    def _check_drawn_back(self, cards: Sequence[AnyCard], player: int) -> None:
        """Refuse cards shuffled back into the stock that ``player`` cannot have drawn yet.

        The stock is refilled only when empty, so after a reshuffle every card taken
        from it is a shuffled-back card: a player holds at most as many of them as
        they took, less those they played again.
        """
        returned = self.returned
        back = [c for c in cards if c in returned]
        drawn = self._drawn_back[player]
        if len(back) <= drawn:
            return
        name = self.players[player]
        if drawn == 0:
            reason = message(
                "{card} went back into the stock with the pile, and {name} has not drawn it since",
                card=back[0], name=name,
            )
        else:
            reason = message(
                "{cards} went back into the stock with the pile, and {name} can hold only {drawn} of those cards",
                cards=back, name=name, drawn=drawn,
            )
        raise DuplicateCardError(back[0], reason)

    can_play = can(check_play)

    def verdict(self, cards: CardsLike) -> Verdict:
        """The verdict on ``cards`` against the pile now, without raising for an illegal play."""
        try:
            return self.check_play(None, cards)
        except IllegalPlayError as exc:
            return exc.verdict

    def play(self, player: int | str | None, cards: CardsLike) -> Play:
        """Put ``cards`` on the pile; the turn passes.  Holding no cards wins the game."""
        verdict = self.check_play(player, cards)
        cards = cards_of(cards)
        p = self._turn
        self._drawn_back[p] -= sum(1 for c in cards if c in self.returned)
        self._pile += cards
        self._counts[p] -= len(cards)
        if self._counts[p] == 1:
            self._called[p] = False
        won = self._counts[p] == 0
        if won:
            self._winner = p
        self._demand = verdict.demands_suit
        self._penalty_due = verdict.demands_suit is not None
        self._turn = 1 - p
        record = Play(p, cards, verdict.demands_suit, won)
        self.log.append(record)
        return record

    # ---------------------------------------------------------------- draw

    def check_draw(self, player: int | str | None = None) -> None:
        """Raise unless the player on turn may pick up (always, but for turn and game over).

        The app does not see hands, so it takes the table's word that the player
        cannot play.
        """
        self._check_turn(player)

    can_draw = can(check_draw)

    def draw(self, player: int | str | None = None) -> Draw:
        """Pick up :attr:`next_draw` cards; the turn passes to the other player."""
        self.check_draw(player)
        p = self._turn
        penalty = self._penalty_due
        count, returned = self._take(PENALTY if penalty else 1, p)
        self._counts[p] += count
        self._penalty_due = False
        self._turn = 1 - p
        record = Draw(p, count, penalty, returned)
        self.log.append(record)
        return record

    # ---------------------------------------------------------------- "last card"

    def check_call_last_card(self, player: int | str) -> None:
        """Raise unless ``player`` holds one card and has not said "last card" yet."""
        self._check_open()
        p = self.index(player)
        if self._counts[p] != 1:
            raise IllegalActionError(
                message(
                    "{name} holds {count} cards, not one: only a player with one card says last card",
                    name=self.players[p],
                    count=self._counts[p],
                )
            )
        if self._called[p]:
            raise IllegalActionError(message("{name} said last card already", name=self.players[p]))

    can_call_last_card = can(check_call_last_card)

    def call_last_card(self, player: int | str) -> LastCard:
        """``player`` says "last card"; from now on "thirteen" cannot catch them."""
        self.check_call_last_card(player)
        p = self.index(player)
        self._called[p] = True
        record = LastCard(p)
        self.log.append(record)
        return record

    # ---------------------------------------------------------------- "thirteen"

    def check_call_thirteen(self, player: int | str) -> None:
        """Raise unless the other player holds one card and has not said "last card"."""
        self._check_open()
        p = self.index(player)
        q = 1 - p
        other = self.players[q]
        if self._counts[q] != 1:
            raise IllegalActionError(
                message(
                    "{name} holds {count} cards, not one: thirteen catches only a player with one card",
                    name=other,
                    count=self._counts[q],
                )
            )
        if self._called[q]:
            raise IllegalActionError(message("{name} said last card in time, so thirteen costs nothing", name=other))

    can_call_thirteen = can(check_call_thirteen)

    def call_thirteen(self, player: int | str) -> Thirteen:
        """``player`` says "thirteen": the other player picks up 13.  The turn does not change."""
        self.check_call_thirteen(player)
        p = self.index(player)
        q = 1 - p
        count, returned = self._take(PENALTY, q)
        self._counts[q] += count
        record = Thirteen(p, q, count, returned)
        self.log.append(record)
        return record

    # ---------------------------------------------------------------- replay (undo: StateMachine)

    def apply(self, action: Record | Mapping[str, Any]) -> Record:
        """Do the action a record (or its dict) describes; derived fields are recomputed."""
        record = record_from_dict(action) if isinstance(action, Mapping) else action
        if isinstance(record, Play):
            return self.play(record.player, record.cards)
        if isinstance(record, Draw):
            return self.draw(record.player)
        if isinstance(record, LastCard):
            return self.call_last_card(record.player)
        if isinstance(record, Thirteen):
            return self.call_thirteen(record.player)
        raise TypeError(f"not a Trece action: {action!r}")


def replay(setup: Setup | Mapping[str, Any], actions: Sequence[Record | Mapping[str, Any]]) -> State:
    """Rebuild a game from its setup and its log (records or their dicts).

    >>> setup = Setup(("Ana", "Ben"), Card.parse("5♥"))
    >>> game = State(setup)
    >>> _ = game.play(1, "6♥"), game.draw(), game.play(1, "7♥ 8♥")
    >>> again = replay(setup.to_dict(), [r.to_dict() for r in game.log])
    >>> again.to_dict() == game.to_dict()
    True
    >>> before = game.undo()
    >>> before.top, before.turn_name, game.top
    (Card.parse('6♥'), 'Ben', Card.parse('8♥'))
    """
    return State.replay(Setup.from_dict(setup) if isinstance(setup, Mapping) else setup, actions)


def _sort_key(card: AnyCard) -> tuple[int, int]:
    if isinstance(card, Joker):
        return (99, 0 if card.is_red else 1)
    return (int(card.rank), int(card.suit))
