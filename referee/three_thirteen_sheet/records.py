"""What a Three Thirteen score sheet records: its setup, and one record per round entered."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import JOKER, Joker
from referee.errors import SeatError
from referee.records import Records
from referee.three_thirteen import (
    ThreeThirteenRules,
    decks_for,
)

MAX_TYPED = 999
"""The most points a seat may type for a round."""
_DIGITS = re.compile(r"^[0-9]{1,3}$")  # ASCII digits only: "²" and "٣" are not points


def jokers_for(rules: ThreeThirteenRules, decks: int) -> dict[Joker, int] | None:
    """The jokers in play: two per deck with ``jokers``, else none."""
    return {JOKER: 2 * decks} if rules.jokers else None


# ---------------------------------------------------------------------------
# Setup and records


@dataclass(frozen=True, slots=True)
class SheetSetup:
    """The players in seat order (the order of play), the house rules and the first dealer.

    >>> SheetSetup(("Ana",))
    Traceback (most recent call last):
    ...
    referee.errors.RefereeError: Three Thirteen needs 2 or more players, not 1
    """

    players: tuple[str, ...]
    rules: ThreeThirteenRules = field(default_factory=ThreeThirteenRules)
    first_dealer: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        decks_for(len(self.players), self.rules)
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, int) or not (
            0 <= self.first_dealer < len(self.players)
        ):
            raise SeatError(self.first_dealer, len(self.players))

    @property
    def decks(self) -> int:
        return decks_for(len(self.players), self.rules)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What was entered for one seat: the cards (in notation) or the points typed."""

    cards: str | None = None
    points: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"cards": self.cards} if self.cards is not None else {"points": self.points}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandEntry:
        if data.get("cards"):
            return cls(cards=str(data["cards"]))
        points = data.get("points")
        return cls(points=None if points is None else int(points))


@dataclass(frozen=True, slots=True)
class RoundEntered:
    """A round saved for the whole table, with the points the referee gave each seat."""

    action: ClassVar[str] = "round"

    round_number: int
    out: tuple[int, ...]
    hands: tuple[HandEntry, ...]
    points: tuple[int, ...]
    doubled: bool = False
    false_out: tuple[int, ...] = ()

    @property
    def typed(self) -> tuple[bool, ...]:
        """Seats whose points were typed, not worked out from cards."""
        return tuple(h.cards is None for h in self.hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "round": self.round_number,
            "out": list(self.out),
            "hands": [h.to_dict() for h in self.hands],
            "points": list(self.points),
            "doubled": self.doubled,
            "false_out": list(self.false_out),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundEntered:
        return cls(
            int(data["round"]),
            tuple(int(s) for s in data.get("out", [])),
            tuple(HandEntry.from_dict(h) for h in data.get("hands", [])),
            tuple(int(p) for p in data["points"]),
            bool(data.get("doubled")),
            tuple(int(s) for s in data.get("false_out", [])),
        )


@dataclass(frozen=True, slots=True)
class RoundCorrected(RoundEntered):
    """A saved round entered again: it replaces the earlier entry of that round."""

    action: ClassVar[str] = "correct"


RECORDS: Records[RoundEntered] = Records("Three Thirteen", RoundEntered, RoundCorrected)


def record_from_dict(data: Mapping[str, Any]) -> RoundEntered:
    """Read back a record; its kind is ``data["action"]`` (``round`` or ``correct``).

    >>> record_from_dict({"action": "correct", "round": 2, "out": [1], "points": [5, 0],
    ...                   "hands": [{"points": 5}, {"cards": "3s 4s 5s 6s"}]}).round_number
    2
    """
    return RECORDS.from_dict(data)
