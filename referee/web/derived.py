"""What a game's events fix, computed once: a sheet is rebuilt once per version, not per use.

A Three Thirteen sheet is a pure function of its game's events up to its version, and a version
never changes once written, so :func:`per_version` keeps the latest few hundred per process,
keyed by the game's keeper token (unique across databases) and version: a save judges on the
sheet the last poll with news already built.  Something that depends on other games too (a
Tiến lên evening reads its followed tables) may only be kept for the request:
:func:`per_request`.  Callers treat what they get as read-only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import g

from referee.web.models import Game

T = TypeVar("T")
ENTRIES = 256

_kept: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def per_version(game: Game, what: str, build: Callable[[Game], T]) -> T:
    """``build(game)`` at the game's version, made once per version in this process."""
    key = (what, game.keeper_token, game.version)
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]  # type: ignore[no-any-return]
    value = build(game)
    with _lock:
        _kept[key] = value
        while len(_kept) > ENTRIES:
            _kept.popitem(last=False)
    return value


def per_request(game: Game, what: str, build: Callable[[Game], T]) -> T:
    """``build(game)`` at the game's version, made once in this request."""
    kept: dict[Hashable, Any] = g.setdefault("thirteen_derived", {})
    key = (what, game.id, game.version)
    if key not in kept:
        kept[key] = build(game)
    return kept[key]  # type: ignore[no-any-return]


def forget_all() -> None:
    """Empty the per-process store (tests)."""
    with _lock:
        _kept.clear()
