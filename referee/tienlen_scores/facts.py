"""The facts of a finished game (:class:`FinishedGame`), checked for consistency when built.

One account of the moment the first player went out: who had played what by then (the
cards left, who was frozen), what was left in each hand (the leftover or caught cards,
when entered), and every chop with its moment (:mod:`referee.tienlen_scores.chops`).  A
followed game, a game typed by hand (with or without the finishing order), the JSON API
and a correction all build this one value, so they are checked and scored alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, Rank, format_cards
from referee.text import Message, message, plural
from referee.tienlen import Chop, sort_cards
from referee.tienlen_scores.bombs import card_in_no_bomb, card_too_many, count_bombs, splits_into_bombs
from referee.tienlen_scores.chops import Seen, check_chops
from referee.tienlen_scores.errors import (
    CardsLeftError,
    CardTwiceError,
    InstantWinError,
    NoSuchSeatError,
    OrderError,
    ScoreInputError,
    about,
)
from referee.tienlen_scores.reading import check_players, chop_step, int_list, leftover_from, read_cards, who
from referee.tienlen_scores.rules import HAND_SIZE

__all__ = ["FinishedGame"]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What a finished game's score depends on, checked for consistency when built.

    Seats are 0-based.  ``cards_left`` are counted when the winner went out (the
    winner's is 0).  ``leftover`` per seat is ``None`` or the cards (text or
    cards); ``caught`` per seat is ``None`` or only the 2s and bomb cards caught in a
    loser's hand (the count of cards left is known, the other cards need not be named);
    ``frozen`` defaults to true exactly for a seat with 13 cards left.
    ``chops`` holds one chain per trick where bombs fell; ``after_out`` (the chains'
    shape, ``None``: all false) marks each bomb that fell after the first player went
    out (``play_on``).  ``order`` is only what ``score_by: places`` needs: every count is
    checked the same without it.  ``names`` only word the messages.

    >>> FinishedGame(players=3, winner=1, cards_left=(4, 0, 0))
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.CardsLeftError: only the winner went out: seat 2 has 0 cards left
    >>> FinishedGame(players=2, winner=0, cards_left=(0, 2), leftover=(None, "2h 2h"))
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.CardTwiceError: 2♥ is given twice
    >>> FinishedGame(players=2, winner=0, cards_left=(0, 3), chops=((Chop(0, 1, (Card.parse("Ah"),)),),))
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ChopChainError: A♥ is not a 2: only 2s are chopped
    """

    players: int
    winner: int
    cards_left: tuple[int, ...]
    order: tuple[int, ...] | None = None
    leftover: tuple[tuple[Card, ...] | None, ...] | None = None
    frozen: tuple[bool, ...] | None = None
    chops: tuple[tuple[Chop, ...], ...] = ()
    instant_win: int | None = None
    names: tuple[str, ...] = field(default=(), compare=False)
    caught: tuple[tuple[Card, ...] | None, ...] | None = None
    after_out: tuple[tuple[bool, ...], ...] | None = None

    def __post_init__(self) -> None:
        n = self.players
        with about("players"):
            check_players(n)
        names = tuple(self.names)
        object.__setattr__(self, "names", names)
        with about("winner"):
            self.check_seat(self.winner, message("the winner"))
        with about("cards_left"):
            self._check_cards_left(n, names)
        with about("order"):
            self._check_order()
        with about("instant_win"):
            self._check_instant_win()
        with about("frozen"):
            self._check_frozen()
        with about("leftover"):
            seen = self._check_leftover()
        with about("caught"):
            self._check_caught(seen)
        with about("chops"):
            chains, moments = check_chops(self, seen)
        object.__setattr__(self, "chops", chains)
        object.__setattr__(self, "after_out", moments if any(any(m) for m in moments) else None)

    # -- checks ---------------------------------------------------------------------
    def _check_cards_left(self, n: int, names: tuple[str, ...]) -> None:
        left = tuple(self.cards_left)
        object.__setattr__(self, "cards_left", left)
        if len(left) != n:
            raise CardsLeftError(message("cards_left needs one count per player: {n}, not {count}",
                                         n=n, count=len(left)))
        for seat, count in enumerate(left):
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= HAND_SIZE:
                raise CardsLeftError(message("{player}'s cards left must be a whole number from 0 to 13, not {count}",
                                             player=who(seat, names), count=repr(count)), seat=seat)
        if left[self.winner] != 0:
            raise CardsLeftError(message("the winner {player} went out, so has 0 cards left, not {count}",
                                         player=who(self.winner, names), count=left[self.winner]), seat=self.winner)
        for seat, count in enumerate(left):
            if count == 0 and seat != self.winner:
                raise CardsLeftError(message("only the winner went out: {player} has 0 cards left",
                                             player=who(seat, names)), seat=seat)

    def check_seat(self, seat: object, what: Message) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NoSuchSeatError(message("{what} must be a seat from 0 to {last}, not {seat}",
                                    what=what, last=self.players - 1, seat=repr(seat)))

    def _check_order(self) -> None:
        if self.order is None:
            return
        order = tuple(self.order)
        object.__setattr__(self, "order", order)
        for seat in order:
            self.check_seat(seat, message("a seat in the finishing order"))
        if sorted(order) != list(range(self.players)):
            raise OrderError(message("the finishing order must list every seat once: {order}",
                                     order=", ".join(str(s) for s in order)))
        if order[0] != self.winner:
            raise OrderError(message("the finishing order starts with the winner {player}, not {first}",
                                     player=who(self.winner, self.names), first=who(order[0], self.names)))

    def _check_instant_win(self) -> None:
        seat = self.instant_win
        if seat is None:
            return
        self.check_seat(seat, message("the instant winner"))
        if seat != self.winner:
            raise InstantWinError(message("{player} declared the instant win, so {player} is the winner",
                                          player=who(seat, self.names)))
        for other, count in enumerate(self.cards_left):
            if other != seat and count != HAND_SIZE:
                raise InstantWinError(message(
                    "after an instant win nobody has played: {player} holds 13 cards, not {count}",
                    player=who(other, self.names), count=count), seat=other)
        if self.chops:
            raise InstantWinError(message("after an instant win nobody has played, so nobody was chopped"))

    def _check_frozen(self) -> None:
        if self.frozen is None:
            return
        frozen = tuple(self.frozen)
        object.__setattr__(self, "frozen", frozen)
        if len(frozen) != self.players:
            raise CardsLeftError(message("frozen needs one yes or no per player: {n}, not {count}",
                                         n=self.players, count=len(frozen)))
        for seat, value in enumerate(frozen):
            if not isinstance(value, bool):
                raise ScoreInputError(message("frozen is true or false for each player, not {value}",
                                              value=repr(value)), seat=seat)
            if value and seat == self.winner:
                raise CardsLeftError(message("the winner {player} played cards, so was not frozen",
                                             player=who(seat, self.names)), seat=seat)
            if value and self.cards_left[seat] != HAND_SIZE:
                raise CardsLeftError(plural(
                    "{player} has 1 card left, so played some and was not frozen",
                    "{player} has {count} cards left, so played some and was not frozen",
                    self.cards_left[seat], player=who(seat, self.names)), seat=seat)
            if not value and seat != self.winner and self.cards_left[seat] == HAND_SIZE and self.instant_win is None:
                raise CardsLeftError(message(
                    "{player} has {count} cards left, so played no card and was frozen",
                    player=who(seat, self.names), count=self.cards_left[seat]), seat=seat)

    def _check_leftover(self) -> Seen:
        seen: Seen = {}
        if self.leftover is None:
            return seen
        raw = tuple(self.leftover)
        if len(raw) != self.players:
            raise CardsLeftError(message("leftover needs one entry per player: {n}, not {count}",
                                         n=self.players, count=len(raw)))
        cleaned: list[tuple[Card, ...] | None] = []
        for seat, value in enumerate(raw):
            if value is None:
                cleaned.append(None)
                continue
            player = who(seat, self.names)
            cards = read_cards(value, message("{player}'s leftover cards", player=player), seat)
            if seat == self.winner and not cards:
                cleaned.append(None)
                continue
            for card in cards:
                if card in seen:
                    raise CardTwiceError(card, message("{card} is given twice", card=card), seat=seat)
                seen[card] = (seat, "leftover")
            count, given = self.cards_left[seat], len(cards)
            if given != count:
                if count == 1:
                    why = message("{player} has 1 card left, but {given} leftover cards are entered",
                                  player=player, given=given)
                elif given == 1:
                    why = message("{player} has {count} cards left, but 1 leftover card is entered",
                                  player=player, count=count)
                else:
                    why = message("{player} has {count} cards left, but {given} leftover cards are entered",
                                  player=player, count=count, given=given)
                raise CardsLeftError(why, seat=seat)
            cleaned.append(cards)
        object.__setattr__(self, "leftover", tuple(cleaned))
        return seen

    def _check_caught(self, seen: Seen) -> None:
        """Caught cards: a loser's 2s and bombs only (any bombs: four of a kind, double sequences
        of three or more pairs), no more than the cards left, none given twice (they join ``seen``).

        >>> FinishedGame(players=2, winner=0, cards_left=(0, 5), caught=(None, "2s 9h"))
        Traceback (most recent call last):
        ...
        referee.tienlen_scores.CardsLeftError: 9♥ is neither a 2 nor part of a bomb: only the 2s and bombs caught are entered
        >>> FinishedGame(players=2, winner=0, cards_left=(0, 1), caught=(None, "2s 2h"))
        Traceback (most recent call last):
        ...
        referee.tienlen_scores.CardsLeftError: seat 1 has 1 card left, so 2 caught cards cannot be in the hand
        >>> FinishedGame(players=2, winner=0, cards_left=(0, 9), caught=(None, "3c 3d 4c 4d 5c 5d 6c 6d")).caught
        (None, (Card.parse('3♣'), Card.parse('3♦'), Card.parse('4♣'), Card.parse('4♦'), Card.parse('5♣'), Card.parse('5♦'), Card.parse('6♣'), Card.parse('6♦')))
        """
        if self.caught is None:
            return
        raw = tuple(self.caught)
        if len(raw) != self.players:
            raise CardsLeftError(message("caught needs one entry per player: {n}, not {count}",
                                         n=self.players, count=len(raw)))
        cleaned: list[tuple[Card, ...] | None] = []
        for seat, value in enumerate(raw):
            cards = () if value is None else read_cards(
                value, message("{player}'s caught cards", player=who(seat, self.names)), seat)
            if not cards:
                cleaned.append(None)
                continue
            player = who(seat, self.names)
            if seat == self.winner:
                raise CardsLeftError(message("{player} went out: no card is caught in that hand", player=player),
                                     seat=seat)
            if self.leftover is not None and self.leftover[seat] is not None:
                raise CardsLeftError(message("{player}'s leftover cards are entered: the caught cards are among them",
                                             player=player), seat=seat)
            for card in cards:
                if card in seen:
                    raise CardTwiceError(card, message("{card} is given twice", card=card), seat=seat)
                seen[card] = (seat, "caught")
            count = self.cards_left[seat]
            if len(cards) > count:
                why = (message("{player} has 1 card left, so {given} caught cards cannot be in the hand",
                               player=player, given=len(cards)) if count == 1 else
                       message("{player} has {count} cards left, so {given} caught cards cannot be in the hand",
                               player=player, count=count, given=len(cards)))
                raise CardsLeftError(why, seat=seat)
            others = tuple(c for c in cards if c.rank is not Rank.TWO)
            if not splits_into_bombs(others):
                raise CardsLeftError(_not_bombs_only(others), seat=seat)
            cleaned.append(cards)
        object.__setattr__(self, "caught", tuple(cleaned) if any(cleaned) else None)

    # -- derived --------------------------------------------------------------------
    @property
    def late_chops(self) -> bool:
        """Whether a bomb fell after the first player went out (only with ``play_on``)."""
        return self.after_out is not None and any(any(chain) for chain in self.after_out)

    def scoring_hand(self, seat: int) -> tuple[tuple[Card, ...], str] | None:
        """The seat's hand entered at the first out, and which: ``"leftover"`` or ``"caught"``."""
        for per_seat, where in ((self.leftover, "leftover"), (self.caught, "caught")):
            if per_seat is not None and per_seat[seat]:
                return per_seat[seat] or (), where
        return None

    def bombs_held(self, seat: int) -> int:
        """The bombs in the seat's hand entered at the first out (:func:`count_bombs`)."""
        hand = self.scoring_hand(seat)
        return count_bombs(hand[0]) if hand is not None else 0

    @property
    def frozen_seats(self) -> tuple[int, ...]:
        """Seats that had played no card when the winner went out."""
        if self.instant_win is not None:
            return ()
        if self.frozen is not None:
            return tuple(s for s, f in enumerate(self.frozen) if f)
        return tuple(s for s, c in enumerate(self.cards_left) if c == HAND_SIZE and s != self.winner)

    @property
    def losers(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s != self.winner)

    def to_dict(self) -> dict[str, Any]:
        """The JSON API's body (without ``rules``)."""
        return {
            "players": self.players,
            "winner": self.winner,
            "order": list(self.order) if self.order is not None else None,
            "cards_left": list(self.cards_left),
            "leftover": [format_cards(c) if c is not None else None for c in self.leftover]
            if self.leftover is not None else None,
            "frozen": list(self.frozen) if self.frozen is not None else None,
            "chops": [[{**step.to_dict(), **({"after_out": True} if self._late(c, i) else {})}
                       for i, step in enumerate(chain)] for c, chain in enumerate(self.chops)],
            "instant_win": self.instant_win,
            **({"caught": [format_cards(c) if c is not None else None for c in self.caught]}
               if self.caught is not None else {}),
        }

    def _late(self, chain: int, step: int) -> bool:
        return self.after_out is not None and self.after_out[chain][step]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], names: Sequence[str] = ()) -> FinishedGame:
        """Read the JSON API's body; a field of the wrong shape raises :class:`ScoreInputError`.

        >>> FinishedGame.from_dict({"players": 2, "winner": 1, "cards_left": [3, 0]}).cards_left
        (3, 0)
        >>> FinishedGame.from_dict({"players": 2, "winner": 1, "cards_left": "3 0"})
        Traceback (most recent call last):
        ...
        referee.tienlen_scores.ScoreInputError: cards_left must be a list of whole numbers, one per player
        """
        for key in ("players", "winner", "cards_left"):
            if key not in data:
                with about(key):
                    raise ScoreInputError(message("the field {key} is missing", key=repr(key)))
        players = data["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            with about("players"):
                raise NoSuchSeatError(message("players must be a whole number from 2 to 4, not {value}",
                                              value=repr(players)))
        with about("cards_left"):
            cards_left = int_list(data["cards_left"], "cards_left must be a list of whole numbers, one per player")
        order = data.get("order")
        if order is not None:
            with about("order"):
                order = int_list(order, "order must be a list of seats")
        with about("leftover"):
            leftover = leftover_from(data.get("leftover"), names)
        with about("caught"):
            caught = leftover_from(data.get("caught"), names, what="caught")
        frozen = data.get("frozen")
        if frozen is not None:
            if not isinstance(frozen, list) or not all(isinstance(f, bool) for f in frozen):
                with about("frozen"):
                    raise ScoreInputError(message("frozen must be a list of true or false, one per player"))
            frozen = tuple(frozen)
        with about("chops"):
            chops_raw = data.get("chops") or []
            if not isinstance(chops_raw, list) or not all(isinstance(c, list) for c in chops_raw):
                raise ScoreInputError(message("chops must be a list of chains, each a list of bombs"))
            read = [[chop_step(step, names) for step in chain] for chain in chops_raw]
            chains = tuple(tuple(step for step, _ in chain) for chain in read)
            late = tuple(tuple(after for _, after in chain) for chain in read)
        instant = data.get("instant_win")
        if instant is not None and (isinstance(instant, bool) or not isinstance(instant, int)):
            with about("instant_win"):
                raise NoSuchSeatError(message("instant_win must be null or a seat, not {value}", value=repr(instant)))
        return cls(players=players, winner=data["winner"], cards_left=cards_left, order=order, leftover=leftover,
                   frozen=frozen, chops=chains, instant_win=instant, names=tuple(names), caught=caught,
                   after_out=late if any(any(c) for c in late) else None)


def _not_bombs_only(cards: Sequence[Card]) -> Message:
    """Why caught cards other than 2s are not bombs and nothing else, in words true to them.

    A card no bomb of the cards can hold is named as such; a card the others are bombs
    without is one too many; otherwise every card is in some bomb, but no way of laying them
    puts each in exactly one.

    >>> from referee.cards import parse_cards
    >>> str(_not_bombs_only(parse_cards("3c 3d 4c 4d 5c 5d 9h")))
    '9♥ is neither a 2 nor part of a bomb: only the 2s and bombs caught are entered'
    >>> str(_not_bombs_only(parse_cards("3c 3d 4c 4d 5c 5d 5h")))
    '5♥ is one card too many: the other caught cards are bombs without it, and only the 2s and bombs caught are entered'
    >>> str(_not_bombs_only(parse_cards("3s 3c 3d 3h 4s 4c 5s 5c")))
    '3♠ 3♣ 3♦ 3♥ 4♠ 4♣ 5♠ 5♣ do not lay out as bombs: each caught card but the 2s must be in one bomb, and no card in two'
    """
    lone = card_in_no_bomb(cards)
    if lone is not None:
        return message("{card} is neither a 2 nor part of a bomb: only the 2s and bombs caught are entered", card=lone)
    extra = card_too_many(cards)
    if extra is not None:
        return message("{card} is one card too many: the other caught cards are bombs without it, "
                       "and only the 2s and bombs caught are entered", card=extra)
    return message("{cards} do not lay out as bombs: each caught card but the 2s must be in one bomb, and no card in two",
                   cards=format_cards(sort_cards(cards)))
