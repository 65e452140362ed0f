"""The mistakes the referee explains, and the one contract of the games' state machines.

Every mistake a player can see is a :class:`RefereeError`: a ``ValueError``
whose ``reason`` is the sentence as a translatable :class:`~referee.text.Message`
(so the web layer shows ``reason`` in the reader's language and never words it
again).  Bad notation (:class:`~referee.cards.NotationError`), a card the decks
cannot hold (:class:`~referee.cards.TooManyCopiesError`), a house rule the game
does not have (:class:`~referee.switches.SwitchError`) are ones.

**The state machines** (Tiến lên's :class:`~referee.tienlen.Hand` and
:class:`~referee.tienlen.Game`, Trece's :class:`~referee.trece.State`, the Three
Thirteen :class:`~referee.three_thirteen_sheet.Sheet`, the Tiến lên score sheet's
:class:`~referee.tienlen_evening.Evening`) all keep one contract:

- ``check_x(...)`` raises when the action is not accepted: a :class:`RefusedAction`
  (or a subclass naming the rule) when the game refuses it as it stands, or the
  error of the input (bad notation, too many copies) when the input is wrong.
- ``can_x(...)`` is ``True`` exactly when ``x(...)`` would be accepted.  It never
  raises for anything ``check_x`` raises: bad notation answers ``False`` too.
- ``x(...)`` checks, changes the state, appends a frozen record to ``log`` and
  returns it.  A refused action changes nothing.
- ``apply(record)`` does again what a record (or its ``to_dict()``) describes;
  ``replay(setup, records)`` rebuilds a state from its log.
- ``undo()`` returns a **new** state replayed from all but the last record; the
  state it is called on is left as it was.  With nothing to undo it raises
  :class:`NothingToUndo`.
- Records print to JSON with ``to_dict()`` (its ``"action"`` names the kind) and
  come back through one :class:`~referee.records.Records` registry per game.

The part of the contract that is the same for every game is written once here: a
state subclasses :class:`StateMachine` (its ``setup``, its ``log``, ``replay`` and
``undo``; the state writes only ``apply``) and derives each ``can_x`` from its
``check_x`` with :func:`can` (``can_play = can(check_play)``).

>>> from referee.text import message
>>> err = RefusedAction(message("it is {name}'s turn", name="Ana"))
>>> str(err), isinstance(err, ValueError)
("it is Ana's turn", True)
>>> err.reason == message("it is {name}'s turn", name="Ana")
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar

from referee.text import Message, message

__all__ = ["RefereeError", "RefusedAction", "NothingToUndo", "SeatError", "StateMachine", "can"]


class RefereeError(ValueError):
    """A mistake a player can see; ``reason`` is the sentence as a :class:`Message`."""

    reason: Message

    def __init__(self, reason: Message) -> None:
        self.reason = reason
        super().__init__(str(reason))


class RefusedAction(RefereeError):
    """An action a game's state refuses as it stands (out of turn, against the rules, ...)."""


class NothingToUndo(RefusedAction):
    """``undo()`` on a state whose log is empty.

    >>> NothingToUndo()
    NothingToUndo('there is nothing to undo')
    """

    def __init__(self) -> None:
        super().__init__(message("there is nothing to undo"))


class SeatError(RefusedAction):
    """A seat the table does not have.

    >>> str(SeatError(5, 4))
    'there is no seat 5 at a table of 4'
    """

    def __init__(self, seat: object, players: int) -> None:
        self.seat = seat
        self.players = players
        super().__init__(message("there is no seat {seat} at a table of {players}", seat=seat, players=players))


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
    any refusal (bad notation and other bad input included); it never raises for them.

    In a state's class body: ``can_play = can(check_play)``.
    """
    doer = check.__name__.removeprefix("check_")

    @functools.wraps(check)
    def can_x(self: T, /, *args: P.args, **kwargs: P.kwargs) -> bool:
        try:
            check(self, *args, **kwargs)
        except ValueError:
            return False
        return True

    can_x.__name__ = f"can_{doer}"
    can_x.__qualname__ = check.__qualname__.replace(check.__name__, can_x.__name__)
    can_x.__doc__ = f"Whether ``{doer}(...)`` would be accepted (``False`` for bad input too, never raising)."
    return can_x
