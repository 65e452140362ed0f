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

A sentence that says a number has its plural forms (:func:`plural`): the catalogue's
``ngettext`` picks the form the language says for that number (Spanish and Portuguese three,
Vietnamese one):

>>> left = plural("1 game left", "{count} games left", 2)
>>> str(left), str(plural("1 game left", "{count} games left", 1))
('2 games left', '1 game left')
>>> left.translate(lambda t: t, lambda one, many, n: "queda 1 partida" if n == 1 else "quedan {count} partidas")
'quedan 2 partidas'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Message", "message", "plural"]

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


@dataclass(frozen=True, eq=False)
class Message:
    """An English template and the values for its blanks.

    Equal (and hashed) by template and blanks, so two verdicts that name
    different cards are different verdicts.
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    """The English plural of a sentence that says a number (its blank ``count``): :func:`plural`."""

    def translate(self, gettext: Gettext, ngettext: Ngettext | None = None) -> str:
        """The sentence in the language ``gettext`` translates into (``ngettext``: the form of a
        sentence that says a number, for that number; without it, English's two forms)."""
        if self.plural is None:
            text = gettext(self.template)
        else:
            count = self.params.get("count")
            number = count if isinstance(count, int) else 0
            if ngettext is not None:
                text = ngettext(self.template, self.plural, number)
            else:
                text = gettext(self.template if number == 1 else self.plural)
        return text.format(
            **{k: v.translate(gettext, ngettext) if isinstance(v, Message) else _show(v) for k, v in self.params.items()}
        )

    def __str__(self) -> str:
        return self.translate(lambda t: t)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.template == other.template and self.plural == other.plural
                and _frozen(self.params) == _frozen(other.params))

    def __hash__(self) -> int:
        return hash((self.template, self.plural, _frozen(self.params)))


def message(template: str, **params: object) -> Message:
    """Build a :class:`Message`; cards and lists of cards print in notation."""
    return Message(template, params)


def plural(singular: str, many: str, count: int, **params: object) -> Message:
    """A sentence that says a number ``count`` (its blank ``{count}``), with its English singular
    and plural; each language says it in its own plural forms (``ngettext``).

    >>> str(plural("{name} is 1 point from the target", "{name} is {count} points from the target", 4, name="An"))
    'An is 4 points from the target'
    """
    return Message(singular, {**params, "count": count}, many)


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
