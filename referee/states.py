"""One base for the games' state machines: the contract of :mod:`referee.errors`, written once.

The contract (``check_x`` / ``can_x`` / ``x``, ``apply``, ``replay``, ``undo``) is the same for
every game; what does not depend on the game is here.  A state subclasses
:class:`StateMachine` (which keeps ``setup`` and ``log`` and gives ``replay`` and ``undo``; the
state writes ``apply``) and derives each ``can_x`` from its ``check_x`` with :func:`can`::

    class Hand(StateMachine[Setup, Action]):
        def check_pass(self, seat: int) -> None: ...
        can_pass = can(check_pass)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar

from referee.errors import NothingToUndo, RefereeError

__all__ = ["StateMachine", "can"]


S = TypeVar("S")
"""A state machine's setup."""
R = TypeVar("R")
"""A state machine's records."""
T = TypeVar("T")
P = ParamSpec("P")


class StateMachine(Generic[S, R]):
    """The contract's ``replay`` and ``undo``, written once for every game's state.

    A state is built from its ``setup`` alone, keeps its records in ``log`` and does a
    record again with ``apply`` (the one method a state writes itself); replaying is
    applying every record to a fresh state, and undoing is replaying all but the last.

    >>> from dataclasses import dataclass
    >>> from referee.errors import SeatError
    >>> @dataclass(frozen=True)
    ... class Knock:
    ...     seat: int
    >>> class Door(StateMachine[int, Knock]):
    ...     def check_knock(self, seat: int) -> None:
    ...         if not 0 <= seat < self.setup:
    ...             raise SeatError(seat, self.setup)
    ...     can_knock = can(check_knock)
    ...     def knock(self, seat: int) -> Knock:
    ...         self.check_knock(seat)
    ...         self.log.append(Knock(seat))
    ...         return self.log[-1]
    ...     def apply(self, record):
    ...         return self.knock(record.seat)
    >>> door = Door(2)
    >>> door.can_knock(1), door.can_knock(5)
    (True, False)
    >>> _ = door.knock(1); _ = door.knock(0)
    >>> before = door.undo()
    >>> before.log, len(door.log)
    ([Knock(seat=1)], 2)
    >>> Door.replay(2, door.log).log == door.log
    True
    >>> Door(2).undo()
    Traceback (most recent call last):
    ...
    referee.errors.NothingToUndo: there is nothing to undo
    """

    setup: S
    log: list[R]

    def __init__(self, setup: S) -> None:
        self.setup = setup
        self.log = []

    def apply(self, record: R | Mapping[str, Any]) -> R:
        """Do again what a record (or its ``to_dict()``) describes; returns the new record."""
        raise NotImplementedError

    @classmethod
    def replay(cls, setup: S, records: Iterable[R | Mapping[str, Any]]) -> Self:
        """A state rebuilt from its setup and its log (records or their dicts)."""
        state = cls(setup)
        for record in records:
            state.apply(record)
        return state

    def undo(self) -> Self:
        """A new state replayed from all but the last record (this one is unchanged)."""
        if not self.log:
            raise NothingToUndo()
        return self.replay(self.setup, self.log[:-1])


def can(check: Callable[Concatenate[T, P], object]) -> Callable[Concatenate[T, P], bool]:
    """The ``can_x`` of a ``check_x``: ``True`` exactly when the check accepts, ``False`` for
    any refusal (a :class:`~referee.errors.RefereeError`: a rule's refusal, bad notation, too
    many copies, unreadable input); it never raises for them.  Anything else the check raises
    is a bug in the check, not an answer, and goes through: a broken check never reads as
    "not allowed".

    In a state's class body: ``can_play = can(check_play)``.

    >>> from referee.errors import RefusedAction
    >>> from referee.text import message
    >>> class Door:
    ...     def check_open(self, key: str) -> None:
    ...         if key == "wrong":
    ...             raise RefusedAction(message("That key does not fit."))
    ...         int(key)  # a bug: a check that assumes a number
    ...     can_open = can(check_open)
    >>> Door().can_open("7"), Door().can_open("wrong")
    (True, False)
    >>> Door().can_open("brass")
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: 'brass'
    """
    doer = check.__name__.removeprefix("check_")

    @functools.wraps(check)
    def can_x(self: T, /, *args: P.args, **kwargs: P.kwargs) -> bool:
        try:
            check(self, *args, **kwargs)
        except RefereeError:
            return False
        return True

    can_x.__name__ = f"can_{doer}"
    can_x.__qualname__ = check.__qualname__.replace(check.__name__, can_x.__name__)
    can_x.__doc__ = f"Whether ``{doer}(...)`` would be accepted (``False`` for bad input too, never raising)."
    return can_x
