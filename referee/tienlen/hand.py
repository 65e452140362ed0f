"""A Tiến lên hand as a state machine (:class:`Hand`), and a game of hands (:class:`Game`)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.cards import (
    Card,
    CardsLike,
    Rank,
)
from referee.errors import RefereeError, SeatError
from referee.states import StateMachine, can
from referee.text import Message, message, plural
from referee.tienlen.actions import (
    INSTANT_WIN_NAMES,
    Action,
    ActionError,
    CardAlreadyPlayedError,
    CardNotDealtError,
    Chop,
    HandOverError,
    IllegalPlayError,
    InstantWinAction,
    InstantWinKind,
    NextHandAction,
    NotYourTurnError,
    PassAction,
    PlayAction,
    Setup,
    action_from_dict,
)
from referee.tienlen.combinations import (
    _CARDS_IN_ORDER,
    RANK_ORDER,
    THREE_OF_SPADES,
    Combination,
    _cards,
    card_power,
    sort_cards,
)
from referee.tienlen.verdicts import SWITCH_NAMES, Verdict, check

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
                raise ActionError(plural("a dealt hand has 1 card, not {found}", "a dealt hand has {count} cards, not {found}",
                                         self.setup.hand_size, found=len(found)))
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
