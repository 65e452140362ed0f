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

>>> from referee.text import message
>>> err = RefusedAction(message("it is {name}'s turn", name="Ana"))
>>> str(err), isinstance(err, ValueError)
("it is Ana's turn", True)
>>> err.reason == message("it is {name}'s turn", name="Ana")
True
"""

from __future__ import annotations

from referee.text import Message, message

__all__ = ["RefereeError", "RefusedAction", "NothingToUndo", "SeatError"]


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
