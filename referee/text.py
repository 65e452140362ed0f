"""Sentences the referee says, kept translatable.

A rule module never builds a finished English string for a player: it builds a
:class:`Message`, an English template with named blanks.  ``str()`` gives the
English sentence; the web layer passes the template through its translation
catalogue first (:meth:`Message.translate`), so Spanish, Portuguese and
Vietnamese tables get the same verdicts in their own words.

>>> m = message("{card} is lower than {other}", card="8♠", other="8♥")
>>> str(m)
'8♠ is lower than 8♥'
>>> m.translate(lambda t: t.replace("is lower than", "es menor que"))
'8♠ es menor que 8♥'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Message", "message"]


@dataclass(frozen=True)
class Message:
    """An English template and the values for its blanks."""

    template: str
    params: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def translate(self, gettext: Callable[[str], str]) -> str:
        """The sentence in the language ``gettext`` translates into."""
        return gettext(self.template).format(
            **{k: v.translate(gettext) if isinstance(v, Message) else _show(v) for k, v in self.params.items()}
        )

    def __str__(self) -> str:
        return self.translate(lambda t: t)


def message(template: str, **params: object) -> Message:
    """Build a :class:`Message`; cards and lists of cards print in notation."""
    return Message(template, params)


def _show(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)
