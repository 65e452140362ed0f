"""A two-player game of Trece as a state machine (:class:`State`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import (
    AnyCard,
    CardsLike,
    Joker,
    Suit,
    cards_of,
    format_cards,
)
from referee.states import StateMachine, can
from referee.text import message
from referee.trece.actions import (
    Draw,
    LastCard,
    Play,
    Record,
    Setup,
    Thirteen,
    _player_index,
    record_from_dict,
)
from referee.trece.play import (
    DuplicateCardError,
    IllegalActionError,
    IllegalPlayError,
    SetupError,
    Verdict,
    check_play,
)
from referee.trece.rules import DECK_SIZE, HAND_SIZE, PENALTY

# --------------------------------------------------------------------------- the game state


class State(StateMachine["Setup", "Record"]):
    """A two-player game of Trece as the referee sees it: counts and the pile, never hands.

    It keeps the contract of :mod:`referee.errors`: for each action ``check_x``
    (raises :class:`IllegalActionError`, :class:`IllegalPlayError` or the error of
    bad input), ``can_x`` (``True`` exactly when ``x`` would be accepted, bad
    notation included) and the doer ``x`` that returns a frozen record and appends
    it to ``log``.  A refused action changes nothing; ``undo()`` returns a new state.

    >>> from referee.cards import Card
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
    referee.trece.play.DuplicateCardError: 10♣ is the top of the pile already; the deck holds one

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

        >>> from referee.cards import Card
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

    >>> from referee.cards import Card
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
