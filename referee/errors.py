"""The mistakes the referee explains, and the one contract of the games' state machines.

Every mistake a player can see is a :class:`RefereeError`: a ``ValueError``
whose ``reason`` is the sentence as a translatable :class:`~referee.text.Message`
(so the web layer shows ``reason`` in the reader's language and never words it
again).  Bad notation (:class:`~referee.cards.NotationError`), a card the decks
cannot hold (:class:`~referee.cards.TooManyCopiesError`), a house rule the game
does not have (:class:`~referee.switches.SwitchError`) are ones, and so is input the
referee cannot read at all (:class:`UnreadableInput`: a missing field, an unknown action).

Each carries what whoever shows it needs, and nothing else is a mistake to show: ``reason``
(the rule's sentence), ``field`` (the input it is about, when one is), ``said`` (the whole
sentence, when it places the reason: "the play: '1x' is not a card"), ``detail`` (what the
referee made of the input, to show beside the sentence) and ``status``, the HTTP status the
mistake means for a web page: 422 (*refused*: the input was read and the referee says no) or
400 (*unreadable*: :class:`UnreadableInput`); another status when the web layer raises one
itself (403, 413).

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
>>> err.status, err.field
(422, None)
>>> bad = UnreadableInput(message("say which player acts"), field="seat")
>>> bad.status, bad.field, str(bad)
(400, 'seat', 'say which player acts')
"""

from __future__ import annotations

from typing import ClassVar, Self

from referee.text import Message, message

__all__ = ["RefereeError", "RefusedAction", "NothingToUndo", "SeatError", "UnreadableInput", "REFUSED", "UNREADABLE"]

REFUSED = 422
"""The status of a mistake the referee read and refuses (the default)."""
UNREADABLE = 400
"""The status of input the referee cannot read at all."""


class RefereeError(ValueError):
    """A mistake a player can see; ``reason`` is the sentence as a :class:`Message`.

    ``field`` names the input it is about (``None``: the whole of it); ``said`` is the whole
    sentence shown when it places ``reason`` (else ``reason`` itself); ``detail`` is what the
    referee made of the input, shown beside it; ``status`` overrides the class's :attr:`STATUS`.
    """

    STATUS: ClassVar[int] = REFUSED
    reason: Message
    field: str | None
    said: Message
    detail: object
    status: int

    def __init__(self, reason: Message, *, field: str | None = None, said: Message | None = None,
                 detail: object = None, status: int | None = None) -> None:
        self.reason = reason
        self.field = field
        self.said = said if said is not None else reason
        self.detail = detail
        self.status = status if status is not None else self.STATUS
        super().__init__(str(self.said))

    def about(self, field: str) -> Self:
        """The same mistake, said about the input ``field`` (where a form shows it).

        >>> err = RefereeError(message("a play needs at least one card")).about("cards")
        >>> err.field, str(err)
        ('cards', 'a play needs at least one card')
        """
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.args = self.args
        new.field = field
        return new


class UnreadableInput(RefereeError):
    """Input the referee cannot read at all: a field missing or of the wrong kind, a seat or an
    action that does not exist (status 400, beside the 422 of everything it reads and refuses)."""

    STATUS = UNREADABLE


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
