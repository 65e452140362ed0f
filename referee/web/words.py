"""The reader's language, without Flask: one set of words for the server and the phone.

The screens the phone can answer by itself (:mod:`referee.web.checks`) take their words from
here.  On the server these are Flask-Babel's ``gettext`` / ``ngettext`` (the request's
language); in the phone's engine (:mod:`referee.web.phone`, Pyodide, no Flask) they read the
catalogue :func:`use` installed, with the same rules as Flask-Babel: the translated text,
then ``%`` with the blanks when there are any (``num`` filled in for ``ngettext``).  So a
sentence is worded once and gives the same characters in both places.
"""

from __future__ import annotations

import gettext as _stdlib_gettext
from collections.abc import Callable
from typing import Any

from referee.cards import Rank
from referee.text import Message

_phone: _stdlib_gettext.NullTranslations | None = None  # set in the phone's engine only


def use(translations: _stdlib_gettext.NullTranslations | None) -> None:
    """Speak through ``translations`` (the phone's engine), or through Flask-Babel (``None``)."""
    global _phone
    _phone = translations


def gettext(string: str, **variables: Any) -> str:
    if _phone is None:
        from flask_babel import gettext as babel_gettext  # on the server only: the phone has no Flask-Babel

        return str(babel_gettext(string, **variables))
    text = _phone.gettext(string)
    return text if not variables else text % variables


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    if _phone is None:
        from flask_babel import ngettext as babel_ngettext  # on the server only: the phone has no Flask-Babel

        return str(babel_ngettext(singular, plural, num, **variables))
    variables.setdefault("num", num)
    text = _phone.ngettext(singular, plural, num)
    return text if not variables else text % variables


def speaking() -> bool:
    """Whether the phone's catalogue speaks (:func:`use`), not Flask-Babel."""
    return _phone is not None


def current() -> _stdlib_gettext.NullTranslations:
    """The catalogue :func:`use` installed (the phone's engine only)."""
    if _phone is None:
        raise RuntimeError("no catalogue installed: on the server, Flask-Babel speaks")
    return _phone


def template_callables() -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """``_()`` and ``ngettext()`` for Jinja's i18n extension on the phone, as Flask-Babel installs
    them (newstyle: Jinja fills the blanks), reading the catalogue :func:`use` installed."""
    return (lambda s: current().gettext(s)), (lambda s, p, n: current().ngettext(s, p, n))


def say(msg: Message | BaseException | str) -> str:
    """A referee sentence in the reader's language: a Message, or a mistake whose
    ``reason`` is one (bad notation, too many copies, ...); anything else as it is."""
    reason = getattr(msg, "reason", None)
    if isinstance(msg, BaseException) and isinstance(reason, Message):
        msg = reason
    return msg.translate(gettext, _forms) if isinstance(msg, Message) else str(msg)


def _forms(singular: str, plural: str, num: int) -> str:
    """The form of a sentence the reader's language says for ``num`` (its blanks left to fill)."""
    return ngettext(singular, plural, num)


def rank_plural(rank: Rank) -> str:
    """How the reader says a rank in the plural (``pair of jacks``, ``par de jotas``, ``đôi J``)."""
    faces = {
        Rank.ACE: gettext("aces"), Rank.JACK: gettext("jacks"),
        Rank.QUEEN: gettext("queens"), Rank.KING: gettext("kings"),
    }
    # Translators: a number rank in the plural, e.g. "7s" (English adds an s; most languages keep "7").
    return faces.get(rank) or gettext("%(rank)ss", rank=rank.symbol)


def error_title(code: int | None) -> str | None:
    """The error page's heading in the reader's language (``None``: the server library's name)."""
    return {
        400: gettext("Bad request"),
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        405: gettext("Not this way"),
        409: gettext("Changed meanwhile"),
        413: gettext("Too much at once"),
        422: gettext("Cannot be done"),
        429: gettext("Too many requests"),
    }.get(code or 0)


def plain_refusal(code: int | None) -> str | None:
    """The error page's sentence for a refusal that gives no reason of its own (``None``: the
    server library's)."""
    return {
        400: gettext("The referee could not read what was sent. Check the form and send it again."),
        403: gettext("This link may not do that."),
        404: gettext("There is nothing at this address. If it came from a share link, it may have been cut short."),
        405: gettext("This page cannot be used that way; go back and use its buttons."),
        413: gettext("That was too much to send at once."),
    }.get(code or 0)
