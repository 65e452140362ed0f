"""A game's stored events read as the pages read them, with no database and no Flask: the
server's store (:mod:`referee.web.store`) and the phone's own records of a game started offline
(:mod:`referee.web.phone_pages`) both go through these.

An event is anything with ``seq``, ``kind``, ``payload`` and ``created_at`` (the store's
:class:`~referee.web.models.Event`, or the phone's :class:`~referee.web.phone_pages.PhoneEvent`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from typing import Any, Protocol, TypeVar

UNDO = "undo"


class StoredEvent(Protocol):
    """What these functions need of an event."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any]: ...


E = TypeVar("E", bound=StoredEvent)


def effective_events(events: Iterable[E]) -> list[E]:
    """The events still in force: each undo takes back the latest event not yet undone."""
    stack: list[E] = []
    for event in events:
        if event.kind == UNDO:
            if stack:
                stack.pop()
        else:
            stack.append(event)
    return stack


def records_of(events: Iterable[StoredEvent], *, leave: Container[str] = ()) -> list[dict[str, Any]]:
    """Stored events read back as the library's records, the kinds in ``leave`` left out.

    One convention for every game's stored records (:meth:`referee.web.tables.Done.of` writes
    it): the event's kind is the record's ``action``, its payload the record's ``to_dict()``.
    Events stored before that convention (a score sheet's payload without ``"action"``) read
    the same: the kind is the action.
    """
    return [{**event.payload, "action": event.kind} for event in events if event.kind not in leave]


def undo_words(live: Sequence[E], label: Callable[[E], str | None], entry_words: Callable[[E], str]) -> str | None:
    """The undo button's words for the latest entry still in force of ``live`` (``None`` before
    the first): ``label``'s words when it has some (a stake, an end), else ``entry_words``'s."""
    if not live:
        return None
    event = live[-1]
    said = label(event)
    return said if said is not None else entry_words(event)
