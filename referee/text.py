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

Two messages are the same sentence when their templates *and* their blanks agree:

>>> m == message("{card} is lower than {other}", card="8♠", other="8♥")
True
>>> m == message("{card} is lower than {other}", card="8♠", other="9♥")
False
>>> len({m, message("{card} is lower than {other}", other="8♥", card="8♠")})
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Message", "message"]


@dataclass(frozen=True, eq=False)
class Message:
    """An English template and the values for its blanks.

    Equal (and hashed) by template and blanks, so two verdicts that name
    different cards are different verdicts.
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def translate(self, gettext: Callable[[str], str]) -> str:
        """The sentence in the language ``gettext`` translates into."""
        return gettext(self.template).format(
            **{k: v.translate(gettext) if isinstance(v, Message) else _show(v) for k, v in self.params.items()}
        )

    def __str__(self) -> str:
        return self.translate(lambda t: t)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.template == other.template and _frozen(self.params) == _frozen(other.params)

    def __hash__(self) -> int:
        return hash((self.template, _frozen(self.params)))


def message(template: str, **params: object) -> Message:
    """Build a :class:`Message`; cards and lists of cards print in notation."""
    return Message(template, params)


def _frozen(value: object) -> object:
    """A hashable stand-in for a blank's value (lists become tuples, mappings sorted pairs)."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_frozen(v) for v in value)
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _show(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)
