"""Tiến lên scores: what one finished game is worth, as payments between players.

A table that plays for points keeps a zero-sum sheet: every item of RULES.md
("Tiến lên scores") is a :class:`Payment` from one seat to another, so the
points always add up to zero.  :func:`score` takes the facts of a finished game
(:class:`FinishedGame`: the winner or finishing order, cards left, leftover
cards, who was frozen, the chop chains, an instant win) and the amounts
(:class:`ScoreRules`, field names = the switch ids of RULES.md).

The worked example of RULES.md: B led 2♥, D bombed it with three pairs, A
bombed D with higher three pairs; later A went out; B held 5 cards, C had
played nothing, D held 2.

>>> game = FinishedGame(
...     players=4, winner=0, cards_left=(0, 5, 13, 2),
...     leftover=(None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None),
...     chops=((Chop(3, 1, (Card.parse("2h"),)), Chop(0, 3)),),
...     names=("A", "B", "C", "D"))
>>> result = score(game)
>>> result.points
(40, -9, -27, -4)
>>> for payment in result.payments:
...     print(payment.sentence(game.names))
B had 5 cards left: B pays A 5
C played no card: C pays A 2 × 13 = 26
D had 2 cards left: D pays A 2
B was caught holding 2♦: B pays A 2
C was caught holding 2♠: C pays A 1
D chopped B's 2♥: B pays D 2
A bombed D's bomb: D pays A 2 + 2 = 4

Decisions where RULES.md is thin (each is tested):

* A bomb beating a bomb is "chồng" whatever the first bomb was played on: a
  trick's chain may start with a bomb on a bomb (``twos`` empty).
* ``frozen`` is a multiplier from 1 to 10; a seat may be frozen only with all
  13 cards left (the default: frozen exactly then).  The other amounts are
  whole points from 0 to 1000; a payment of 0 points is left out.
* ``score_by: places`` needs ``play_on`` (RULES.md: it needs the finishing order).
* Caught holding: one payment for a loser's 2s, one per bomb.
* Without ``play_on`` a frozen seat can neither chop nor be chopped (it played
  nothing); with ``play_on`` it may have bombed after the first player went out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from referee.cards import Card, NotationError, Rank, format_cards, parse_cards
from referee.errors import RefereeError
from referee.switches import SwitchError, rules_to_dict
from referee.text import Message, message
from referee.tienlen import RANK_ORDER, Chop, Hand, card_power, sort_cards

__all__ = [
    "HAND_SIZE",
    "ITEMS",
    "ScoreRules",
    "DEFAULT_SCORE_RULES",
    "ScoreSwitchError",
    "ScoreError",
    "ScoreInputError",
    "NoSuchSeatError",
    "CardsLeftError",
    "CardTwiceError",
    "PlayedCardError",
    "ChopChainError",
    "OrderError",
    "InstantWinError",
    "Chop",
    "FinishedGame",
    "Payment",
    "Score",
    "score",
    "bombs_in",
    "count_bombs",
    "smallest_bomb",
    "check_players",
    "finished_game_from_hand",
]

HAND_SIZE = 13
#: The items a payment is for (the JSON API's ``item`` values).
ITEMS = ("cards", "places", "frozen", "caught", "chop", "instant")
AMOUNT_MAX = 1000
FROZEN_MAX = 10


# ---------------------------------------------------------------------------
# The amounts
# ---------------------------------------------------------------------------


class ScoreSwitchError(SwitchError):
    """A score switch with a value it does not take; ``reason`` is the :class:`Message`."""

    def __init__(self, switch: str, value: object, reason: Message) -> None:
        self.value = value
        super().__init__(switch, reason)


@dataclass(frozen=True, kw_only=True)
class ScoreRules:
    """The amounts of a scoring table; field names are the switch ids of RULES.md.

    ``play_on`` and ``instant_wins`` are the game's switches that scoring needs.

    >>> from referee.switches import rules_from_mapping
    >>> rules_from_mapping(ScoreRules, {"score_by": "places", "play_on": "on", "frozen": "3"}).frozen
    3
    >>> ScoreRules(chop_red=-1)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: the amount chop_red is a whole number from 0 to 1000, not -1
    >>> ScoreRules(frozen=0)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: frozen multiplies what a frozen player pays: a whole number from 1 to 10, not 0
    >>> ScoreRules(score_by="places")
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: score_by places needs the finishing order: turn on play_on
    """

    score_by: str = "cards"
    first_stake: int = 2
    second_stake: int = 1
    frozen: int = 2
    two_left_black: int = 1
    two_left_red: int = 2
    bomb_left: int = 4
    chop_black: int = 1
    chop_red: int = 2
    chop_bomb: int = 2
    instant_stake: int = 26
    play_on: bool = False
    instant_wins: bool = False

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"score_by": ("cards", "places")}
    #: The whole-point amounts (0 turns the item off); ``frozen`` is a multiplier.
    AMOUNTS: ClassVar[tuple[str, ...]] = (
        "first_stake", "second_stake", "two_left_black", "two_left_red", "bomb_left",
        "chop_black", "chop_red", "chop_bomb", "instant_stake",
    )

    def __post_init__(self) -> None:
        if self.score_by not in self.CHOICES["score_by"]:
            raise ScoreSwitchError("score_by", self.score_by, message(
                "score_by is cards or places, not {value}", value=repr(self.score_by)))
        for name in ("play_on", "instant_wins"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ScoreSwitchError(name, value, message("{name} is on or off, not {value}",
                                                            name=name, value=repr(value)))
        for name in self.AMOUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= AMOUNT_MAX:
                raise ScoreSwitchError(name, value, message(
                    "the amount {name} is a whole number from 0 to {most}, not {value}",
                    name=name, most=AMOUNT_MAX, value=repr(value)))
        value = self.frozen
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FROZEN_MAX:
            raise ScoreSwitchError("frozen", value, message(
                "frozen multiplies what a frozen player pays: a whole number from 1 to {most}, not {value}",
                most=FROZEN_MAX, value=repr(value)))
        if self.score_by == "places" and not self.play_on:
            raise ScoreSwitchError("score_by", self.score_by, message(
                "score_by places needs the finishing order: turn on play_on"))

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


DEFAULT_SCORE_RULES = ScoreRules()


# ---------------------------------------------------------------------------
# Mistakes in a game's facts
# ---------------------------------------------------------------------------


class ScoreError(RefereeError):
    """Facts of a finished game that cannot be scored; ``reason`` is the :class:`Message`, ``seat``
    the seat it is about (when it is about one)."""

    def __init__(self, reason: Message, *, seat: int | None = None) -> None:
        self.seat = seat
        #: The field of the game's facts at fault (``cards_left``, ``frozen``, ...) when one is.
        self.field: str | None = None
        super().__init__(reason)


@contextmanager
def _about(field: str) -> Iterator[None]:
    """A mistake found inside names ``field`` as the one at fault (unless it named one already)."""
    try:
        yield
    except ScoreError as exc:
        if exc.field is None:
            exc.field = field
        raise


class ScoreInputError(ScoreError):
    """A field that is missing or not the right shape (JSON or form)."""


class NoSuchSeatError(ScoreError):
    """A seat that is not at the table, or a number of players the game is not played by."""


class CardsLeftError(ScoreError):
    """Cards left that disagree: a winner with cards, a count out of range, leftover cards of another count."""


class CardTwiceError(ScoreError):
    """A card given twice across the table (leftovers and chopped 2s); ``card`` names it."""

    def __init__(self, card: Card, reason: Message, *, seat: int | None = None) -> None:
        self.card = card
        super().__init__(reason, seat=seat)


class PlayedCardError(ScoreError):
    """Leftover cards that contradict a followed game: a card played (or not dealt), or one missing."""

    def __init__(self, card: Card, reason: Message, *, seat: int | None = None) -> None:
        self.card = card
        super().__init__(reason, seat=seat)


class ChopChainError(ScoreError):
    """A chop chain that cannot have happened: ``twos`` that are not 2s, a broken chain."""


class OrderError(ScoreError):
    """A finishing order that is not every seat once starting with the winner, or missing for ``places``."""


class InstantWinError(ScoreError):
    """An instant win the switches or the other facts contradict."""


# ---------------------------------------------------------------------------
# The facts of a finished game
# ---------------------------------------------------------------------------


def check_players(count: object) -> None:
    """Raise unless a game of ``count`` players can be scored (2 to 4).

    >>> check_players(5)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.NoSuchSeatError: Tiến lên is scored for 2 to 4 players, not 5
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
        raise NoSuchSeatError(message("Tiến lên is scored for 2 to 4 players, not {count}", count=repr(count)))


def _who(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _read_cards(value: str | Iterable[Card], what: Message, seat: int | None = None) -> tuple[Card, ...]:
    try:
        found = parse_cards(value) if isinstance(value, str) else tuple(value)
    except NotationError as exc:
        raise ScoreInputError(message("{what}: {why}", what=what, why=exc.reason), seat=seat) from None
    cards: list[Card] = []
    for card in found:
        if not isinstance(card, Card):
            raise ScoreInputError(message("{what}: {card} is not in a Tiến lên deck", what=what, card=card),
                                  seat=seat)
        cards.append(card)
    return tuple(sorted(cards, key=card_power))  # a card given twice stays twice, to be named


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What a finished game's score depends on, checked for consistency when built.

    Seats are 0-based.  ``cards_left`` are counted when the winner went out (the
    winner's is 0).  ``leftover`` per seat is ``None`` or the cards (text or
    cards); ``caught`` per seat is ``None`` or only the 2s and bomb cards caught in a
    loser's hand (the count of cards left is known, the other cards need not be named);
    ``frozen`` defaults to true exactly for a seat with 13 cards left.
    ``chops`` holds one chain per trick where bombs fell.  ``names`` only word
    the messages.

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

    def __post_init__(self) -> None:
        n = self.players
        with _about("players"):
            check_players(n)
        names = tuple(self.names)
        object.__setattr__(self, "names", names)
        with _about("winner"):
            self._check_seat(self.winner, message("the winner"))
        with _about("cards_left"):
            self._check_cards_left(n, names)
        with _about("order"):
            self._check_order()
        with _about("instant_win"):
            self._check_instant_win()
        with _about("frozen"):
            self._check_frozen()
        with _about("leftover"):
            seen = self._check_leftover()
        with _about("caught"):
            self._check_caught(seen)
        with _about("chops"):
            self._check_chops(seen)

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
                                             player=_who(seat, names), count=repr(count)), seat=seat)
        if left[self.winner] != 0:
            raise CardsLeftError(message("the winner {player} went out, so has 0 cards left, not {count}",
                                         player=_who(self.winner, names), count=left[self.winner]), seat=self.winner)
        for seat, count in enumerate(left):
            if count == 0 and seat != self.winner:
                raise CardsLeftError(message("only the winner went out: {player} has 0 cards left",
                                             player=_who(seat, names)), seat=seat)

    def _check_seat(self, seat: object, what: Message) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NoSuchSeatError(message("{what} must be a seat from 0 to {last}, not {seat}",
                                    what=what, last=self.players - 1, seat=repr(seat)))

    def _check_order(self) -> None:
        if self.order is None:
            return
        order = tuple(self.order)
        object.__setattr__(self, "order", order)
        for seat in order:
            self._check_seat(seat, message("a seat in the finishing order"))
        if sorted(order) != list(range(self.players)):
            raise OrderError(message("the finishing order must list every seat once: {order}",
                                     order=", ".join(str(s) for s in order)))
        if order[0] != self.winner:
            raise OrderError(message("the finishing order starts with the winner {player}, not {first}",
                                     player=_who(self.winner, self.names), first=_who(order[0], self.names)))

    def _check_instant_win(self) -> None:
        seat = self.instant_win
        if seat is None:
            return
        self._check_seat(seat, message("the instant winner"))
        if seat != self.winner:
            raise InstantWinError(message("{player} declared the instant win, so {player} is the winner",
                                          player=_who(seat, self.names)))
        for other, count in enumerate(self.cards_left):
            if other != seat and count != HAND_SIZE:
                raise InstantWinError(message(
                    "after an instant win nobody has played: {player} holds 13 cards, not {count}",
                    player=_who(other, self.names), count=count), seat=other)
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
                                             player=_who(seat, self.names)), seat=seat)
            if value and self.cards_left[seat] != HAND_SIZE:
                raise CardsLeftError(message(
                    "{player} has {count} cards left, so played some and was not frozen",
                    player=_who(seat, self.names), count=self.cards_left[seat]), seat=seat)
            if not value and seat != self.winner and self.cards_left[seat] == HAND_SIZE and self.instant_win is None:
                raise CardsLeftError(message(
                    "{player} has {count} cards left, so played no card and was frozen",
                    player=_who(seat, self.names), count=self.cards_left[seat]), seat=seat)

    def _check_leftover(self) -> dict[Card, int]:
        seen: dict[Card, int] = {}
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
            who = _who(seat, self.names)
            cards = _read_cards(value, message("{player}'s leftover cards", player=who), seat)
            if seat == self.winner and not cards:
                cleaned.append(None)
                continue
            for card in cards:
                if card in seen:
                    raise CardTwiceError(card, message("{card} is given twice", card=card), seat=seat)
                seen[card] = seat
            count, given = self.cards_left[seat], len(cards)
            if given != count:
                if count == 1:
                    why = message("{player} has 1 card left, but {given} leftover cards are entered",
                                  player=who, given=given)
                elif given == 1:
                    why = message("{player} has {count} cards left, but 1 leftover card is entered",
                                  player=who, count=count)
                else:
                    why = message("{player} has {count} cards left, but {given} leftover cards are entered",
                                  player=who, count=count, given=given)
                raise CardsLeftError(why, seat=seat)
            cleaned.append(cards)
        object.__setattr__(self, "leftover", tuple(cleaned))
        return seen

    def _check_caught(self, seen: dict[Card, int]) -> None:
        """Caught cards: a loser's 2s and bomb cards only, no more than the cards left, none
        given twice (they join ``seen``: a chopped 2 cannot be caught too).

        >>> FinishedGame(players=2, winner=0, cards_left=(0, 5), caught=(None, "2s 9h"))
        Traceback (most recent call last):
        ...
        referee.tienlen_scores.CardsLeftError: 9♥ is neither a 2 nor part of a bomb: only the 2s and bombs caught are entered
        >>> FinishedGame(players=2, winner=0, cards_left=(0, 1), caught=(None, "2s 2h"))
        Traceback (most recent call last):
        ...
        referee.tienlen_scores.CardsLeftError: seat 1 has 1 card left, so 2 caught cards cannot be in the hand
        """
        if self.caught is None:
            return
        raw = tuple(self.caught)
        if len(raw) != self.players:
            raise CardsLeftError(message("caught needs one entry per player: {n}, not {count}",
                                         n=self.players, count=len(raw)))
        cleaned: list[tuple[Card, ...] | None] = []
        for seat, value in enumerate(raw):
            cards = () if value is None else _read_cards(
                value, message("{player}'s caught cards", player=_who(seat, self.names)), seat)
            if not cards:
                cleaned.append(None)
                continue
            who = _who(seat, self.names)
            if seat == self.winner:
                raise CardsLeftError(message("{player} went out: no card is caught in that hand", player=who),
                                     seat=seat)
            if self.leftover is not None and self.leftover[seat] is not None:
                raise CardsLeftError(message("{player}'s leftover cards are entered: the caught cards are among them",
                                             player=who), seat=seat)
            count = self.cards_left[seat]
            if len(cards) > count:
                why = (message("{player} has 1 card left, so {given} caught cards cannot be in the hand",
                               player=who, given=len(cards)) if count == 1 else
                       message("{player} has {count} cards left, so {given} caught cards cannot be in the hand",
                               player=who, count=count, given=len(cards)))
                raise CardsLeftError(why, seat=seat)
            in_bombs = {c for bomb in bombs_in(cards) for c in bomb}
            for card in cards:
                if card in seen:
                    raise CardTwiceError(card, message("{card} is given twice", card=card), seat=seat)
                seen[card] = seat
                if card.rank is not Rank.TWO and card not in in_bombs:
                    raise CardsLeftError(message(
                        "{card} is neither a 2 nor part of a bomb: only the 2s and bombs caught are entered",
                        card=card), seat=seat)
            cleaned.append(cards)
        object.__setattr__(self, "caught", tuple(cleaned) if any(cleaned) else None)

    def scoring_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards of a loser's hand that score: the leftover cards, or those caught."""
        for per_seat in (self.leftover, self.caught):
            if per_seat is not None and per_seat[seat]:
                return per_seat[seat] or ()
        return ()

    def _check_chops(self, seen: dict[Card, int]) -> None:
        chains: list[tuple[Chop, ...]] = []
        chopped: set[Card] = set()
        frozen = set(self.frozen_seats)
        for raw in self.chops:
            chain = tuple(raw)
            if not chain:
                raise ChopChainError(message("a chop chain needs at least one bomb"))
            steps: list[Chop] = []
            for i, step in enumerate(chain):
                self._check_seat(step.by, message("the seat that bombed"))
                self._check_seat(step.on, message("the seat whose play was bombed"))
                by, on = _who(step.by, self.names), _who(step.on, self.names)
                if step.by == step.on:
                    raise ChopChainError(message("{player} cannot bomb their own play", player=by))
                if i > 0 and step.on != chain[i - 1].by:
                    raise ChopChainError(message(
                        "a chain is broken: {player} bombed {victim}, but the bomb before was {last}'s",
                        player=by, victim=on, last=_who(chain[i - 1].by, self.names)))
                twos = _read_cards(step.twos, message("the 2s {player} chopped", player=by))
                if i > 0 and twos:
                    raise ChopChainError(message(
                        "only the first bomb of a chain beats 2s; {player} bombed {victim}'s bomb",
                        player=by, victim=on))
                for card in twos:
                    if card.rank is not Rank.TWO:
                        raise ChopChainError(message("{card} is not a 2: only 2s are chopped", card=card))
                if len(twos) == 4:
                    raise ChopChainError(message("nothing beats four 2s"))
                for card in twos:
                    if card in chopped:
                        raise CardTwiceError(card, message("{card} is chopped twice", card=card))
                    if card in seen:
                        holder = seen[card]
                        raise CardTwiceError(card, message(
                            "{card} was chopped, so it cannot be among {player}'s leftover cards",
                            card=card, player=_who(holder, self.names)), seat=holder)
                    chopped.add(card)
                if not self.play_on_possible and (step.by in frozen or step.on in frozen):
                    silent = step.by if step.by in frozen else step.on
                    raise ChopChainError(message(
                        "{player} played no card, so was in no chop", player=_who(silent, self.names)))
                steps.append(Chop(step.by, step.on, twos))
            chains.append(tuple(steps))
        object.__setattr__(self, "chops", tuple(chains))
        if not self.play_on_possible:
            self._check_cards_played_in_chops(chains)

    def _played(self, seat: int) -> int:
        """The cards ``seat`` had played when the winner went out."""
        return HAND_SIZE - self.cards_left[seat]

    def _check_cards_played_in_chops(self, chains: Sequence[tuple[Chop, ...]]) -> None:
        """Every chop was played before the winner went out (no ``play_on``): the seats in it had
        played at least its cards, the chopped 2s and each bomb (:func:`smallest_bomb`)."""
        need = [0] * self.players
        for chain in chains:
            size = smallest_bomb(chain[0].twos)
            for i, step in enumerate(chain):
                if i == 0:
                    self._check_played(step.on, len(step.twos) or size, message(
                        "{player} played {played} of 13 cards, so could not have played the chopped {cards}",
                        player=_who(step.on, self.names), played=self._played(step.on), cards=step.twos)
                        if step.twos else self._bomb_too_big(step.on, size))
                    need[step.on] += len(step.twos) or size
                self._check_played(step.by, size, self._bomb_too_big(step.by, size))
                need[step.by] += size
        for seat, cards in enumerate(need):
            self._check_played(seat, cards, message(
                "{player} played {played} of 13 cards, fewer than the {count} cards of their bombs and chopped 2s",
                player=_who(seat, self.names), played=self._played(seat), count=cards))

    def _bomb_too_big(self, seat: int, size: int) -> Message:
        return message("{player} played {played} of 13 cards, fewer than the {count} cards of a bomb",
                       player=_who(seat, self.names), played=self._played(seat), count=size)

    def _check_played(self, seat: int, cards: int, why: Message) -> None:
        if self._played(seat) < cards:
            raise ChopChainError(why, seat=seat)

    # -- derived --------------------------------------------------------------------
    @property
    def play_on_possible(self) -> bool:
        """Whether play went on after the winner (a finishing order was given)."""
        return self.order is not None

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
            "chops": [[step.to_dict() for step in chain] for chain in self.chops],
            "instant_win": self.instant_win,
            **({"caught": [format_cards(c) if c is not None else None for c in self.caught]}
               if self.caught is not None else {}),
        }

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
                with _about(key):
                    raise ScoreInputError(message("the field {key} is missing", key=repr(key)))
        players = data["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            with _about("players"):
                raise NoSuchSeatError(message("players must be a whole number from 2 to 4, not {value}",
                                              value=repr(players)))
        with _about("cards_left"):
            cards_left = _int_list(data["cards_left"], "cards_left must be a list of whole numbers, one per player")
        order = data.get("order")
        if order is not None:
            with _about("order"):
                order = _int_list(order, "order must be a list of seats")
        with _about("leftover"):
            leftover = _leftover_from(data.get("leftover"), names)
        with _about("caught"):
            caught = _leftover_from(data.get("caught"), names, what="caught")
        frozen = data.get("frozen")
        if frozen is not None:
            if not isinstance(frozen, list) or not all(isinstance(f, bool) for f in frozen):
                with _about("frozen"):
                    raise ScoreInputError(message("frozen must be a list of true or false, one per player"))
            frozen = tuple(frozen)
        with _about("chops"):
            chops_raw = data.get("chops") or []
            if not isinstance(chops_raw, list) or not all(isinstance(c, list) for c in chops_raw):
                raise ScoreInputError(message("chops must be a list of chains, each a list of bombs"))
            chains = tuple(tuple(_chop(step, names) for step in chain) for chain in chops_raw)
        instant = data.get("instant_win")
        if instant is not None and (isinstance(instant, bool) or not isinstance(instant, int)):
            with _about("instant_win"):
                raise NoSuchSeatError(message("instant_win must be null or a seat, not {value}", value=repr(instant)))
        return cls(players=players, winner=data["winner"], cards_left=cards_left, order=order, leftover=leftover,
                   frozen=frozen, chops=chains, instant_win=instant, names=tuple(names), caught=caught)


def _leftover_from(leftover: object, names: Sequence[str], what: str = "leftover"
                   ) -> tuple[tuple[Card, ...] | None, ...] | None:
    """The ``leftover`` (or ``caught``) field read: null, or per seat null or the cards (text
    or a list of cards)."""
    if leftover is None:
        return None
    wrong = (message("leftover must be a list with null or the cards for each player") if what == "leftover"
             else message("caught must be a list with null or the cards for each player"))
    if not isinstance(leftover, list):
        raise ScoreInputError(wrong)
    cleaned: list[tuple[Card, ...] | None] = []
    for seat, value in enumerate(leftover):
        label = (message("{player}'s leftover cards", player=_who(seat, names)) if what == "leftover"
                 else message("{player}'s caught cards", player=_who(seat, names)))
        if value is None:
            cleaned.append(None)
        elif isinstance(value, str):
            cleaned.append(_read_cards(value, label))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            cleaned.append(_read_cards(" ".join(value), label))
        else:
            raise ScoreInputError(wrong)
    return tuple(cleaned)


def _int_list(value: object, text: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ScoreInputError(Message(text))
    return tuple(value)


def _chop(step: object, names: Sequence[str]) -> Chop:
    if not isinstance(step, dict):
        raise ScoreInputError(message("each bomb of a chain is an object with by, from and maybe twos"))
    unknown = sorted(set(step) - {"by", "from", "twos"})
    if unknown:
        raise ScoreInputError(message("a bomb of a chain has by, from and twos, not {key}", key=repr(unknown[0])))
    for key in ("by", "from"):
        value = step.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoreInputError(message("each bomb of a chain needs {key}: a seat", key=repr(key)))
    twos = step.get("twos") or ""
    if not isinstance(twos, str):
        raise ScoreInputError(message("twos must be the chopped 2s written as cards"))
    return Chop(step["by"], step["from"], _read_cards(twos, message("the 2s {player} chopped",
                                                                     player=_who(step["by"], names))))


def smallest_bomb(twos: Sequence[Card]) -> int:
    """The fewest cards of a bomb in a chain that began on ``twos`` (none: on a bomb).

    A later bomb of the chain is of the same kind as the one it beats, so it is as big.
    Four of a kind (4 cards) beats a single 2 or a bomb (and, with a house rule, a pair of
    2s); three 2s fall only to five pairs in a row (10 cards).

    >>> smallest_bomb(()), smallest_bomb(parse_cards("2h")), smallest_bomb(parse_cards("2h 2d 2s"))
    (4, 4, 10)
    """
    return 10 if len(twos) == 3 else 4


# ---------------------------------------------------------------------------
# Bombs left in a hand
# ---------------------------------------------------------------------------

_RUN_RANKS = RANK_ORDER[:-1]  # 3 … A: a double sequence holds no 2


def bombs_in(cards: str | Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """The most disjoint bombs the cards can make (four of a kind, double sequence of 3 pairs).

    A longer double sequence counts once, or as two when it splits into two of
    three pairs; four 2s are one bomb (and still four 2s).

    >>> [format_cards(b) for b in bombs_in("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c")]
    ['3♠ 3♣ 4♠ 4♣ 5♠ 5♣', '6♠ 6♣ 7♠ 7♣ 8♠ 8♣']
    >>> count_bombs("3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h"), count_bombs("3s 3c 4s 4c 5s 5c 6s 6c")
    (3, 1)
    >>> count_bombs("2s 2c 2d 2h 9s")
    1
    """
    hand = sort_cards(cards)
    by_rank: dict[Rank, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
    counts = tuple(len(by_rank.get(r, ())) for r in _RUN_RANKS)
    bombs: list[tuple[Card, ...]] = []
    for kind, at in _plan(counts)[1]:
        if kind == "quad":
            bombs.append(tuple(by_rank.pop(_RUN_RANKS[at])))
        else:
            taken: list[Card] = []
            for rank in _RUN_RANKS[at:at + 3]:
                pool = by_rank[rank]
                taken.extend(pool[:2])
                del pool[:2]
            bombs.append(tuple(taken))
    if len(by_rank.get(Rank.TWO, ())) == 4:
        bombs.append(tuple(by_rank[Rank.TWO]))
    return tuple(sorted(bombs, key=lambda b: card_power(b[0])))


def count_bombs(cards: str | Iterable[Card]) -> int:
    """How many bombs :func:`bombs_in` finds."""
    return len(bombs_in(cards))


@lru_cache(maxsize=4096)
def _plan(counts: tuple[int, ...], at: int = 0, runs: tuple[int, ...] = ()) -> tuple[int, tuple[tuple[str, int], ...]]:
    """(most bombs, which) from rank index ``at`` on; ``runs`` are the starts of open double sequences.

    A double sequence is closed as soon as it has three pairs: a longer one makes no more bombs.
    """
    if at == len(counts):
        return 0, ()
    count = counts[at]
    best = _plan(counts, at + 1, ())
    if count == 4:
        rest = _plan(counts, at + 1, ())
        best = max(best, (rest[0] + 1, (("quad", at), *rest[1])), key=lambda p: p[0])
    for pairs in range(1, count // 2 + 1):
        for kept in range(min(pairs, len(runs)) + 1):
            for going_on in combinations(runs, kept):
                closed = tuple(s for s in going_on if at - s == 2)
                still = tuple(s for s in going_on if at - s < 2) + (at,) * (pairs - kept)
                rest = _plan(counts, at + 1, tuple(sorted(still)))
                option = (rest[0] + len(closed), (*(("run", s) for s in closed), *rest[1]))
                best = max(best, option, key=lambda p: p[0])
    return best


# ---------------------------------------------------------------------------
# Payments and the score
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payment:
    """One item of a game's score: ``payer`` pays ``payee`` ``points`` for ``item``.

    ``count`` is the cards left (``cards``, ``frozen`` with cards), the stake
    multiplied (``frozen`` with places), or for a ``places`` payment the payer's
    finishing place when frozen players finished after them (0: the payer came
    last); ``place`` is 1 for first-from-last and 2 for second-from-third; ``cards`` are the 2s chopped or caught, or the
    bomb caught; ``passed_on`` is what a bombed bomb had won before.
    """

    payer: int
    payee: int
    points: int
    item: str
    count: int = 0
    place: int = 0
    cards: tuple[Card, ...] = ()
    passed_on: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"from": self.payer, "to": self.payee, "points": self.points, "item": self.item}
        if self.cards:
            data["cards"] = format_cards(self.cards)
        return data

    def to_record(self) -> dict[str, Any]:
        """Everything, for storing (:meth:`from_record` gives it back).

        >>> p = Payment(1, 3, 2, "chop", cards=(Card.parse("2h"),))
        >>> Payment.from_record(p.to_record()) == p
        True
        """
        return {"from": self.payer, "to": self.payee, "points": self.points, "item": self.item,
                "count": self.count, "place": self.place, "cards": format_cards(self.cards),
                "passed_on": self.passed_on}

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Payment:
        cards = _read_cards(str(data.get("cards") or ""), message("the payment's cards"))
        item = str(data["item"])
        if item not in ITEMS:
            raise ScoreInputError(message("{item} is not an item of the score", item=repr(item)))
        return cls(int(data["from"]), int(data["to"]), int(data["points"]), item, int(data.get("count", 0)),
                   int(data.get("place", 0)), cards, int(data.get("passed_on", 0)))

    def sentence(self, names: Sequence[str] = ()) -> Message:
        """The payment in plain words: "D chopped B's 2♥: B pays D 2"."""
        payer, payee, points = _who(self.payer, names), _who(self.payee, names), self.points
        pays = message("{payer} pays {payee} {points}", payer=payer, payee=payee, points=points)
        if self.item == "cards":
            if self.count == 1:
                why = message("{payer} had 1 card left", payer=payer)
            else:
                why = message("{payer} had {count} cards left", payer=payer, count=self.count)
        elif self.item == "frozen":
            why = message("{payer} played no card", payer=payer)
            pays = message("{payer} pays {payee} {factor} × {count} = {points}", payer=payer, payee=payee,
                           factor=points // max(self.count, 1), count=self.count, points=points)
        elif self.item == "places":
            if self.place == 2:
                why = message("{payee} came second and {payer} third", payer=payer, payee=payee)
            elif self.count == 2:
                why = message("{payee} went out first and {payer} came second, the last of the players not frozen",
                              payer=payer, payee=payee)
            elif self.count == 3:
                why = message("{payee} went out first and {payer} came third, the last of the players not frozen",
                              payer=payer, payee=payee)
            else:
                why = message("{payee} went out first and {payer} came last", payer=payer, payee=payee)
        elif self.item == "caught":
            if not self.count:
                why = message("{payer} was caught holding {cards}", payer=payer, cards=self.cards)
            else:
                why = message("{payer} was caught holding a bomb: {cards}", payer=payer, cards=self.cards)
        elif self.item == "chop":
            if self.cards:
                why = message("{payee} chopped {payer}'s {cards}", payer=payer, payee=payee, cards=self.cards)
            else:
                why = message("{payee} bombed {payer}'s bomb", payer=payer, payee=payee)
                if self.passed_on:
                    pays = message("{payer} pays {payee} {stake} + {passed} = {points}", payer=payer, payee=payee,
                                   stake=points - self.passed_on, passed=self.passed_on, points=points)
        else:
            why = message("{payee} won at once", payee=payee)
        return message("{why}: {pays}", why=why, pays=pays)


@dataclass(frozen=True, slots=True)
class Score:
    """A game's payments and each seat's points (they add up to zero)."""

    payments: tuple[Payment, ...]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "payments": [p.to_dict() for p in self.payments]}


def score(game: FinishedGame, rules: ScoreRules = DEFAULT_SCORE_RULES) -> Score:
    """Score a finished game: the payments of every item of RULES.md, and the points.

    >>> two = FinishedGame(players=2, winner=1, cards_left=(4, 0))
    >>> score(two).points
    (-4, 4)
    >>> placed = FinishedGame(players=4, winner=2, cards_left=(3, 5, 0, 1), order=(2, 3, 0, 1))
    >>> [(p.payer, p.payee, p.points) for p in score(placed, ScoreRules(score_by="places", play_on=True)).payments]
    [(1, 2, 2), (0, 3, 1)]
    >>> score(placed, ScoreRules(score_by="places", play_on=True, first_stake=0)).points
    (-1, 0, 0, 1)
    """
    if rules.score_by == "places" and game.order is None and game.instant_win is None:
        raise OrderError(message("score_by places needs the finishing order"))
    if game.instant_win is not None and not rules.instant_wins:
        raise InstantWinError(message("instant wins are off (house rule instant_wins)"))
    payments: list[Payment] = []

    def pay(payment: Payment) -> None:
        if payment.points:
            payments.append(payment)

    winner = game.winner
    if game.instant_win is not None:
        for seat in game.losers:
            pay(Payment(seat, winner, rules.instant_stake, "instant"))
        return _total(game.players, payments)
    frozen = set(game.frozen_seats)
    if rules.score_by == "cards":
        for seat in game.losers:
            left = game.cards_left[seat]
            if seat in frozen:
                pay(Payment(seat, winner, rules.frozen * left, "frozen", count=left))
            else:
                pay(Payment(seat, winner, left, "cards", count=left))
    else:
        assert game.order is not None
        for seat in game.order:
            if seat in frozen:
                stake = rules.first_stake
                pay(Payment(seat, winner, rules.frozen * stake, "frozen", count=stake))
        others = [s for s in game.order if s not in frozen]
        if len(others) >= 2:
            # The last of the others may have finished ahead of a frozen player: the sentence says where.
            at = game.order.index(others[-1]) + 1
            pay(Payment(others[-1], others[0], rules.first_stake, "places", place=1,
                        count=0 if at == game.players else at))
        if len(others) == 4:
            pay(Payment(others[2], others[1], rules.second_stake, "places", place=2))
    if game.leftover is not None or game.caught is not None:
        for seat in game.losers:
            cards = game.scoring_cards(seat)
            if not cards:
                continue
            twos = tuple(c for c in cards if c.rank is Rank.TWO)
            owed = sum(rules.two_left_red if c.is_red else rules.two_left_black for c in twos)
            pay(Payment(seat, winner, owed, "caught", cards=twos))
            for bomb in bombs_in(cards):
                pay(Payment(seat, winner, rules.bomb_left, "caught", count=1, cards=bomb))
    for chain in game.chops:
        won = 0
        for i, step in enumerate(chain):
            if i == 0 and step.twos:
                points = sum(rules.chop_red if c.is_red else rules.chop_black for c in step.twos)
                pay(Payment(step.on, step.by, points, "chop", cards=step.twos))
            else:
                points = rules.chop_bomb + won
                pay(Payment(step.on, step.by, points, "chop", passed_on=won))
            won = points
    return _total(game.players, payments)


def _total(players: int, payments: list[Payment]) -> Score:
    points = [0] * players
    for p in payments:
        points[p.payer] -= p.points
        points[p.payee] += p.points
    return Score(tuple(payments), tuple(points))


# ---------------------------------------------------------------------------
# A followed game
# ---------------------------------------------------------------------------


def finished_game_from_hand(
    hand: Hand, leftover: Sequence[str | Iterable[Card] | None] | None = None,
    caught: Sequence[str | Iterable[Card] | None] | None = None,
) -> FinishedGame:
    """The facts of a hand the table followed, with the keeper's leftover cards checked.

    Leftover cards may not include a card played before the winner went out (or
    one not dealt, or another seat's later play); with ``play_on`` the cards a
    seat played after that were in its hand then, so they must be among them.
    ``caught`` names only the 2s and bomb cards caught in a loser's hand (the count
    is known from the plays), checked the same way against the plays.

    >>> from referee.tienlen import Setup
    >>> h = Hand(Setup(("An", "Bao"), opening=False))
    >>> _ = h.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"); _ = h.pass_(1); _ = h.play(0, "2h")
    >>> finished_game_from_hand(h, [None, "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 5s"])
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.PlayedCardError: 5♠ has already been played: it cannot be among Bao's leftover cards
    >>> game = finished_game_from_hand(h, [None, "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2s"])
    >>> game.frozen, score(game).points
    ((False, True), (27, -27))
    >>> score(finished_game_from_hand(h, caught=[None, "2s"])).points
    (27, -27)
    >>> finished_game_from_hand(h, caught=[None, "2h"])
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.PlayedCardError: 2♥ has already been played: it cannot be caught in Bao's hand
    """
    if hand.winner is None:
        raise ScoreInputError(message("the game is not over yet: it is scored once the first player is out"))
    if hand.setup.hand_size != HAND_SIZE:
        raise CardsLeftError(message("a game is scored with 13 cards each, not {size}", size=hand.setup.hand_size))
    names = hand.players
    winner = hand.winner
    assert winner is not None and hand.cards_left_at_first_out is not None
    left = hand.cards_left_at_first_out
    if hand.instant_win is not None:  # the declarer wins without playing: scored as out, the others hold 13
        left = tuple(0 if s == winner else HAND_SIZE for s in range(len(names)))
    # With play_on the order is known once everyone is placed (until then, places cannot be scored).
    order: tuple[int, ...] | None = tuple(hand.finishing_order) if hand.rules.play_on and hand.over else None
    if hand.instant_win is not None:
        order = None
    silent = set(hand.no_card_at_first_out or ())
    cleaned: list[tuple[Card, ...] | None] | None = None
    if leftover is not None:
        if len(leftover) != len(names):
            raise CardsLeftError(message("leftover needs one entry per player: {n}, not {count}",
                                         n=len(names), count=len(leftover)))
        cleaned = []
        before = hand.played - {c for later in hand.played_after_first_out for c in later}
        for seat, value in enumerate(leftover):
            if value is None or (isinstance(value, str) and not value.strip()):
                cleaned.append(None)
                continue
            who = names[seat]
            cards = _read_cards(value, message("{player}'s leftover cards", player=who), seat)
            for card in cards:
                later_by = next((s for s, c in enumerate(hand.played_after_first_out) if card in c), None)
                if card in before or (later_by is not None and later_by != seat):
                    raise PlayedCardError(card, message(
                        "{card} has already been played: it cannot be among {player}'s leftover cards",
                        card=card, player=who), seat=seat)
                if card in hand.not_dealt:
                    raise PlayedCardError(card, message(
                        "{card} was not dealt (the lowest card dealt is {lowest}): it cannot be among "
                        "{player}'s leftover cards", card=card, lowest=hand.setup.lowest_card, player=who), seat=seat)
            for card in hand.played_after_first_out[seat]:
                if card not in cards:
                    raise PlayedCardError(card, message(
                        "{player} played {card} after {winner} went out, so it is among {player}'s leftover cards",
                        player=who, card=card, winner=names[winner]), seat=seat)
            cleaned.append(cards)
    caught_cards: list[tuple[Card, ...] | None] | None = None
    with _about("caught"):
        caught_cards = _caught_from_hand(hand, caught)
    frozen = tuple(s in silent for s in range(len(names)))
    return FinishedGame(
        players=len(names), winner=winner, cards_left=left, order=order,
        leftover=tuple(cleaned) if cleaned is not None else None,
        frozen=frozen if hand.instant_win is None else None,
        chops=tuple(hand.chops), instant_win=hand.instant_win.seat if hand.instant_win else None, names=names,
        caught=tuple(caught_cards) if caught_cards is not None else None,
    )


def _caught_from_hand(hand: Hand, caught: Sequence[str | Iterable[Card] | None] | None
                      ) -> list[tuple[Card, ...] | None] | None:
    """The caught cards read and checked against the plays of a followed hand."""
    names = hand.players
    caught_cards: list[tuple[Card, ...] | None] | None = None
    if caught is not None:
        if len(caught) != len(names):
            raise CardsLeftError(message("caught needs one entry per player: {n}, not {count}",
                                         n=len(names), count=len(caught)))
        caught_cards = []
        before = hand.played - {c for later in hand.played_after_first_out for c in later}
        for seat, value in enumerate(caught):
            if value is None or (isinstance(value, str) and not value.strip()):
                caught_cards.append(None)
                continue
            who = names[seat]
            cards = _read_cards(value, message("{player}'s caught cards", player=who), seat)
            for card in cards:
                later_by = next((s for s, c in enumerate(hand.played_after_first_out) if card in c), None)
                if card in before or (later_by is not None and later_by != seat) or card in hand.not_dealt:
                    raise PlayedCardError(card, message(
                        "{card} has already been played: it cannot be caught in {player}'s hand",
                        card=card, player=who) if card not in hand.not_dealt else message(
                        "{card} was not dealt (the lowest card dealt is {lowest}): it cannot be caught in "
                        "{player}'s hand", card=card, lowest=hand.setup.lowest_card, player=who), seat=seat)
            caught_cards.append(cards)
    return caught_cards

