"""Action records as JSON: one registry per game, written once.

A record is a small frozen dataclass with a class attribute ``action`` (its
name in the log), ``to_dict()`` (whose ``"action"`` is that name) and a
``from_dict()`` class method.  A game lists its record classes in one
:class:`Records`, and reads any stored record back with :meth:`Records.from_dict`.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Knock:
...     action = "knock"
...     seat: int
...     def to_dict(self): return {"action": self.action, "seat": self.seat}
...     @classmethod
...     def from_dict(cls, data): return cls(int(data["seat"]))
>>> records = Records("Demo", Knock)
>>> records.from_dict({"action": "knock", "seat": 2})
Knock(seat=2)
>>> records.from_dict({"action": "shuffle"})
Traceback (most recent call last):
...
referee.records.UnknownRecordError: 'shuffle' is not a Demo action (known: knock)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Protocol, Self, TypeVar

from referee.errors import RefereeError
from referee.text import message

__all__ = ["Record", "Records", "UnknownRecordError"]


class Record(Protocol):
    """What a record class provides."""

    action: str

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...


R = TypeVar("R")


class UnknownRecordError(RefereeError):
    """A stored record whose ``"action"`` the game does not know."""

    def __init__(self, game: str, action: object, known: tuple[str, ...]) -> None:
        self.action = action
        super().__init__(message(
            "{action} is not a {game} action (known: {known})", action=repr(action), game=game, known=", ".join(known)
        ))


class Records(Generic[R]):
    """The record classes of one game, by their ``action`` name."""

    def __init__(self, game: str, *classes: type[R]) -> None:
        self.game = game
        self.classes: dict[str, type[R]] = {getattr(cls, "action"): cls for cls in classes}  # noqa: B009

    def from_dict(self, data: Mapping[str, Any]) -> R:
        """Rebuild any record of the game from its ``to_dict()``."""
        name = data.get("action") if isinstance(data, Mapping) else None
        cls = self.classes.get(name) if isinstance(name, str) else None
        if cls is None:
            raise UnknownRecordError(self.game, name, tuple(self.classes))
        built: R = getattr(cls, "from_dict")(data)  # noqa: B009
        return built
