"""Higher: a toy game defined only in the tests, to show that a game is one package.

A card is turned up; the players, in seat order, each lay one card, which must rank higher
than the card before it (aces low; ``aces_high`` puts them above the king).  One action (``play``), kept to the
contract of :mod:`referee.errors`: ``check_play`` raises, ``can_play`` answers, ``play``
returns a frozen record appended to the log; ``undo`` and ``replay``; one ``Records``.

>>> state = State(Setup(("Ana", "Ben"), Card.parse("3c")))
>>> state.play("5h")
Played(seat=0, card=Card.parse('5♥'))
>>> state.can_play("4s"), state.can_play("1x")
(False, False)
>>> state.check_play("4s")
Traceback (most recent call last):
...
tests.toy.rules.NotHigher: 4♠ is not higher than 5♥
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import Card, Rank, parse_card, parse_cards
from referee.errors import RefusedAction
from referee.records import Records
from referee.states import StateMachine, can
from referee.switches import rules_from_mapping, rules_to_dict
from referee.text import message

ORDER = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


@dataclass(frozen=True, kw_only=True)
class HigherRules:
    """The house rules of Higher."""

    aces_high: bool = False

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> HigherRules:
        return rules_from_mapping(cls, values)


class NotHigher(RefusedAction):
    """A card that does not rank higher than the one before it."""

    def __init__(self, card: Card, top: Card) -> None:
        self.card, self.top = card, top
        super().__init__(message("{card} is not higher than {top}", card=str(card), top=str(top)))


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card
    action: ClassVar[str] = "play"

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "seat": self.seat, "card": str(self.card)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Played:
        card = parse_card(str(data["card"]))
        assert isinstance(card, Card)
        return cls(int(data["seat"]), card)


RECORDS: Records[Played] = Records("Higher", Played)


@dataclass(frozen=True, slots=True)
class Setup:
    players: tuple[str, ...]
    start: Card
    rules: HigherRules = HigherRules()

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "start": str(self.start), "rules": self.rules.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        start = parse_card(str(data["start"]))
        assert isinstance(start, Card)
        return cls(tuple(data["players"]), start, HigherRules.from_mapping(data.get("rules")))


def parse_one(text: str) -> Card:
    """One card in notation (the notation's own mistake, or a refusal for more than one)."""
    cards = parse_cards(text)
    if len(cards) != 1 or not isinstance(cards[0], Card):
        raise RefusedAction(message("{what}", what="one card with a suit, please"))
    return cards[0]


def rank_value(rank: Rank, rules: HigherRules) -> int:
    value = ORDER.index(rank.symbol)
    return 13 if value == 0 and rules.aces_high else value


@dataclass
class State(StateMachine[Setup, Played]):
    setup: Setup
    log: list[Played] = field(default_factory=list)

    @property
    def turn(self) -> int:
        return len(self.log) % len(self.setup.players)

    @property
    def top(self) -> Card:
        return self.log[-1].card if self.log else self.setup.start

    def check_play(self, card: Card | str) -> Card:
        chosen = parse_one(card) if isinstance(card, str) else card
        top = self.top
        if rank_value(chosen.rank, self.setup.rules) <= rank_value(top.rank, self.setup.rules):
            raise NotHigher(chosen, top)
        return chosen

    can_play = can(check_play)

    def play(self, card: Card | str) -> Played:
        record = Played(self.turn, self.check_play(card))
        self.log.append(record)
        return record

    def apply(self, record: Played | Mapping[str, Any]) -> Played:
        done = RECORDS.from_dict(record) if isinstance(record, Mapping) else record
        return self.play(done.card)


def replay(setup: Setup | Mapping[str, Any], records: Iterable[Played | Mapping[str, Any]]) -> State:
    return State.replay(setup if isinstance(setup, Setup) else Setup.from_dict(setup), records)
