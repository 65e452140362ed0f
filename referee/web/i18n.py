"""Which language a page speaks, and referee sentences for other programs.

English is the source language; the catalogues in ``translations/`` add Spanish, Brazilian
Portuguese and Vietnamese (compiled to ``.mo`` by ``scripts/serve`` and ``scripts/test``).

The phone's ``Accept-Language`` picks the first language it lists that the app speaks; the
switcher on every page (``/lang/<code>``) overrides it with a cookie kept on that phone. Links
never carry a language, so a share link opens in each watcher's own language.

The JSON API keeps its sentences in English and adds the sentence's template (``reason_code``,
the catalogue's msgid) and its parameters, so another program can translate it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_babel import Domain, get_locale

from referee.text import Message
from referee.web.extensions import babel
from referee.web.words import rank_plural as rank_plural
from referee.web.words import say

# The languages the app speaks, each named in itself (how its readers look for it).
NATIVE_NAMES: dict[str, str] = {"en": "English", "es": "Español", "pt": "Português", "vi": "Tiếng Việt"}
# ``<html lang>`` for each catalogue: the Portuguese one is written in Brazilian usage.
HTML_LANG: dict[str, str] = {"pt": "pt-BR"}
COOKIE = "lang"


def first_match(accepted: list[tuple[str, float]], languages: list[str]) -> str | None:
    """The first language the reader accepts (highest quality first) that ``languages`` has.

    A regional tag matches its language (``pt-BR`` → ``pt``); an exact match wins only within
    the same preference, never over a language the reader ranked higher.

    >>> first_match([("en-US", 1), ("vi", 0.5)], ["en", "es", "pt", "vi"])
    'en'
    >>> first_match([("fr", 1), ("pt-BR", 0.9)], ["en", "es", "pt", "vi"])
    'pt'
    >>> first_match([("de", 1)], ["en", "vi"]) is None
    True
    """
    by_lower = {code.lower(): code for code in languages}
    for tag, quality in sorted(accepted, key=lambda item: -item[1]):
        if quality <= 0:
            continue
        tag = tag.strip().lower().replace("_", "-")
        if tag in by_lower:
            return by_lower[tag]
        primary = tag.split("-", 1)[0]
        if primary in by_lower:
            return by_lower[primary]
    return None


def compiled(app: Flask, code: str) -> bool:
    """Whether the catalogue of ``code`` is compiled (``pybabel compile``): without it its pages
    would be English under another ``<html lang>``.  The source language needs none."""
    if code == app.config.get("BABEL_DEFAULT_LOCALE", "en"):
        return True
    return (Path(app.root_path) / "translations" / code / "LC_MESSAGES" / "messages.mo").is_file()


def spoken(app: Flask) -> list[str]:
    """The languages pages are served in: those of ``LANGUAGES`` whose catalogue is compiled."""
    known = app.extensions.get("thirteen_spoken")
    if known is None:
        known = app.extensions["thirteen_spoken"] = [c for c in app.config["LANGUAGES"] if compiled(app, c)]
    return known


def select_locale() -> str | None:
    """The switcher's choice if this phone made one, else the phone's own languages."""
    languages = spoken(current_app)
    chosen = request.cookies.get(COOKIE)
    if chosen in languages:
        return chosen
    return first_match(list(request.accept_languages), languages)


def html_lang() -> str:
    code = str(get_locale() or "en")
    return HTML_LANG.get(code, code)


def language_choices() -> list[tuple[str, str, str]]:
    """(code, native name, ``<html lang>`` value) for the switcher, in the app's order."""
    return [(code, NATIVE_NAMES.get(code, code), HTML_LANG.get(code, code)) for code in current_app.config["LANGUAGES"]]


def _vary_on_language(response: Response) -> Response:
    """A page's words depend on the reader's languages and the switcher's cookie."""
    if response.mimetype == "text/html" or request.path.startswith("/api/"):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


class _AppDomain(Domain):
    """Flask-Babel keeps loaded catalogues in one cache per ``Babel`` object, which every app of
    the process shares (tests build many apps); this keeps one cache per app instead."""

    def get_translations_cache(self, ctx: object) -> dict[Any, Any]:
        cache: dict[Any, Any] = current_app.extensions.setdefault("thirteen_translations", {})
        return cache


def init_app(app: Flask) -> None:
    babel.domain_instance = _AppDomain()
    app.jinja_env.globals.update(html_lang=html_lang, language_choices=language_choices)
    app.jinja_env.filters["rank_plural"] = rank_plural
    app.after_request(_vary_on_language)


# --- the JSON API ----------------------------------------------------------------------------


def message_json(msg: Message) -> dict[str, Any]:
    """A sentence as data: its template (the catalogue msgid) and its parameters.

    >>> from referee.text import message
    >>> message_json(message("{play} is lower than {table}", play="8♠", table="8♥"))
    {'reason_code': '{play} is lower than {table}', 'params': {'play': '8♠', 'table': '8♥'}}

    A blank filled by another sentence (a switch's name, say) is given the same way:

    >>> message_json(message("{cards} does not hold {kind}", cards=["3♠", "3♣"], kind=message("six pairs")))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'reason_code': '{cards} does not hold {kind}',
     'params': {'cards': '3♠ 3♣', 'kind': {'reason_code': 'six pairs', 'params': {}}}}
    """
    return {"reason_code": msg.template, "params": {k: _param(v) for k, v in msg.params.items()}}


def _param(value: object) -> object:
    if isinstance(value, Message):
        return message_json(value)
    if isinstance(value, int):  # numbers stay numbers (and True/False stay booleans)
        return value
    return str(Message("{v}", {"v": value}))  # cards and lists of cards in notation, as sentences print them


def reader_locale() -> str | None:
    """The language the request names (``Accept-Language`` or the switcher's cookie) when the app
    speaks it and it is not English: the JSON API then adds ``*_localized`` sentences."""
    if request.headers.get("Accept-Language") or request.cookies.get(COOKIE):
        locale = select_locale()
        if locale and locale != current_app.config.get("BABEL_DEFAULT_LOCALE", "en"):
            return locale
    return None


def reason_fields(msg: Message | str, key: str = "reason") -> dict[str, Any]:
    """``reason`` in English, ``reason_code`` and ``params``; when the request names a language
    the app speaks (other than English), ``reason_localized`` in it too."""
    if not isinstance(msg, Message):
        return {key: str(msg)}
    fields: dict[str, Any] = {key: str(msg), **message_json(msg)}
    if reader_locale():
        fields[f"{key}_localized"] = say(msg)
    return fields
