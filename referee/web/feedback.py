"""What a followed game's page is told besides the game (no Flask: the phone draws these pages
too, :mod:`referee.web.phone_pages`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Feedback:
    """What to tell the phone besides the state: a refusal, a stale notice, what it typed."""

    stale: bool = False
    error: str | None = None
    """The sentence of a refused action (or of a form that could not be read)."""
    at: str | None = None
    """Where ``error`` goes: a form field (``"cards"``) or ``None`` for above the table."""
    notice: str | None = None
    """A plain notice, such as what a redo put back."""
    undone: str | None = None
    """What the undo just answered took back, in the players' words: said where the page shows
    its result ("Undone: …"), with a Redo beside it."""
    redo: bool = False
    """The keeper may take the latest undo back (the game's last change is an undo): the page
    offers Redo (:meth:`FollowedGame.redo`)."""
    typed: dict[str, str] = field(default_factory=dict)
    """What the phone typed, put back in its fields."""
    detail: Any = None
    """The game's own account of a refusal (a score sheet's judged round entry)."""

    def value(self, name: str) -> str:
        """What was typed in the field ``name`` ("" when nothing)."""
        return self.typed.get(name, "")
