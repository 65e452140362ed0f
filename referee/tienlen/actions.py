"""What a Tiến lên hand records and refuses: its setup, its action records, its errors.

>>> RECORDS.from_dict({"action": "pass", "seat": 2})
PassAction(seat=2, cleared=False)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import (
    Card,
    format_cards,
)
from referee.errors import RefereeError, RefusedAction, SeatError
from referee.records import Records
from referee.switches import rules_from_mapping
from referee.text import Message, message
from referee.tienlen.combinations import _CARDS_IN_ORDER, THREE_OF_SPADES, _cards, card_power
from referee.tienlen.rules import DEFAULT_RULES, TienLenRules
from referee.tienlen.verdicts import Verdict

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


# Their names as sentences' parts, so that they are translated with the sentence.
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

    >>> from referee.tienlen import sort_cards
    >>> action_from_dict(PlayAction(0, sort_cards("3s 4s 5h")).to_dict())
    PlayAction(seat=0, cards=(Card.parse('3♠'), Card.parse('4♠'), Card.parse('5♥')), bomb=False, went_out=False)
    """
    return RECORDS.from_dict(data)
