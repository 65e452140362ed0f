"""A score sheet rebuilt once per request.

A sheet is its events replayed through the library's state machine.  A request reads it
through :func:`sheet_of`, which replays it once per request and version of the game.  The
decide function of a write does the action on that state (``x(...)``, which appends the
record) and hands both to :func:`written`: the state leaves the cache of the version it
was read at, and comes back as the next version's state once the write stood (the game's
latest event is that record), so the page answering a write is not replayed again.  A
stale write drops it: the fresh version is replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from flask import g

from referee.web.models import Game
from referee.web.store import history


class _Record(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


S = TypeVar("S")


def sheet_of(game: Game, rebuild: Callable[[Game], S]) -> S:
    """The game's state as this request read it (``rebuild(game)`` at most once per version)."""
    cache: dict[tuple[int, int], Any] = g.setdefault("rebuilt_sheets", {})
    key = (game.id, game.version)
    if key in cache:
        return cache[key]  # type: ignore[no-any-return]  # stored by this function for this rebuild
    pending = g.setdefault("written_records", {}).pop(game.id, None)
    if pending is not None:
        seen, after, kind, payload = pending
        if game.version == seen + 1 and _last_event_is(game, seen + 1, kind, payload):
            cache[key] = after
            return after  # type: ignore[no-any-return]
    state = rebuild(game)
    cache[key] = state
    return state


def written(game: Game, state: object, record: _Record) -> tuple[str, dict[str, Any]]:
    """The record an action just appended to ``state`` (read at ``game.version``), as the
    store keeps it: ``(event kind, payload)``."""
    payload = record.to_dict()
    kind = str(payload.pop("action"))
    g.setdefault("rebuilt_sheets", {}).pop((game.id, game.version), None)
    g.setdefault("written_records", {})[game.id] = (game.version, state, kind, payload)
    return kind, payload


def _last_event_is(game: Game, seq: int, kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether the game's latest event is ``seq`` and says ``kind`` / ``payload`` (this
    request's own write, not another phone's)."""
    events = history(game)
    last = events[-1] if events else None
    return (last is not None and last.seq == seq and last.kind == kind
            and {k: v for k, v in last.payload.items() if k != "_write"} == payload)
