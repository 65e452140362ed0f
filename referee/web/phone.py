"""The referee's answers on the phone: what the Web Worker runs in Pyodide (no Flask).

The worker unpacks ``thirteen.zip`` (see :mod:`referee.web.engine`), puts it on ``sys.path``
and calls :func:`answer` for each request it takes over.  The answer is the one the server
gives: the same function reads the form (the one a game's registry entry names for the kind,
:class:`referee.web.registry.PhoneScreen`, listed in the zip's ``phone_screens.json``), and the same fragment
template is rendered by Jinja2 with the same settings Flask and Flask-Babel use (HTML
autoescaped, the ``i18n`` extension in its "newstyle", the ``cards`` and ``rank_plural``
filters) and the same compiled catalogue.
"""

from __future__ import annotations

import gettext
import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from referee.cards import format_cards
from referee.web import names, words
from referee.web.checks import Answer

HERE = Path(__file__).resolve().parents[2]  # the unpacked zip (or the repository)
LANGUAGES = ("en", "es", "pt", "vi")


class Form(Mapping[str, str]):
    """A form's fields as the server reads them: ``get`` gives the first value, ``getlist`` all."""

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        self._values: dict[str, list[str]] = {}
        for key, value in pairs:
            self._values.setdefault(str(key), []).append(str(value))

    def __getitem__(self, key: str) -> str:
        return self._values[key][0]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def getlist(self, key: str) -> list[str]:
        return list(self._values.get(key, []))


_catalogues: dict[str, gettext.NullTranslations] = {}


def catalogue(language: str) -> gettext.NullTranslations:
    if language not in _catalogues:
        mo = HERE / "translations" / language / "LC_MESSAGES" / "messages.mo"
        if language != "en" and mo.exists():
            with mo.open("rb") as file:
                _catalogues[language] = gettext.GNUTranslations(file)
        else:
            _catalogues[language] = gettext.NullTranslations()
    return _catalogues[language]


def environment() -> Environment:
    # auto_reload off: the templates of an engine never change (and the files are unpacked
    # again when the worker starts from a memory snapshot, with new times).
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=True,
                      extensions=["jinja2.ext.i18n"], auto_reload=False)
    gettext, ngettext = words.template_callables()
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=True)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n, unknown to the Environment class
    env.filters["cards"] = format_cards
    env.filters["rank_plural"] = words.rank_plural
    env.globals["short_names"] = names.short_names  # a table that names whose turn it is by the short name
    return env


_env: Environment | None = None
_screens: dict[str, dict[str, Any]] | None = None
_answers: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any] | None], Answer]] = {}


def screens() -> dict[str, dict[str, Any]]:
    """Each kind the phone answers: the function (``"module:function"``) and its warm-up."""
    global _screens
    if _screens is None:
        listed = HERE / "referee" / "web" / "phone_screens.json"
        if listed.exists():  # in the engine's zip
            _screens = json.loads(listed.read_text(encoding="utf-8"))
        else:  # on the server (the repository): the registry's entries, as the engine lists them
            from referee.web import engine, registry  # they need Flask, which the phone has not

            _screens = engine.screens_json(engine.screens_of(registry.load(registry.GAME_PACKAGES)))
    return _screens


def answerer(kind: str) -> Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any] | None], Answer]:
    if kind not in _answers:
        screen = screens().get(kind)
        if screen is None:
            raise ValueError(f"the phone does not answer {kind!r}")
        module, function = str(screen["answer"]).split(":")
        _answers[kind] = getattr(importlib.import_module(module), function)
    return _answers[kind]


def render(kind: str, language: str, pairs: Iterable[tuple[str, str]], remembered: Mapping[str, Any],
           setup: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The answer to one request: ``kind`` names the screen, ``pairs`` the form's fields,
    ``remembered`` the house rules this phone kept (its cookie), ``setup`` what the page
    carries for it (a round's rules; a table's game and the moves waiting on this phone).
    Returns the HTML, the status and the rules to keep."""
    global _env
    if _env is None:
        _env = environment()
    words.use(catalogue(language if language in LANGUAGES else "en"))
    try:
        form = Form(pairs)
        if setup is not None and "pending" in setup:  # the moves waiting on this phone, read as forms
            setup = {**setup, "pending": [{**p, "form": Form(p["form"])} for p in setup["pending"]]}
        answer = answerer(kind)(form, remembered, setup)
        html = _env.get_template(answer.fragment).render(**answer.context)
    finally:
        words.use(None)
    result = {"html": html, "status": answer.status, "remember": answer.remember}
    if "turn" in answer.context:
        result["turn"] = answer.context["turn"]
    return result


def warm_up(language: str) -> None:
    """Answer one question of each kind that has a warm-up: the modules they need are imported
    and the templates compiled before the first tap (and kept in the worker's memory snapshot)."""
    for kind, screen in screens().items():
        if screen.get("warm_up") is not None:
            render(kind, language, [tuple(p) for p in screen["warm_up"]], {}, screen.get("warm_setup"))


def answer(request_json: str) -> str:
    """:func:`render` for the worker: a JSON request in, a JSON answer out."""
    request = json.loads(request_json)
    return json.dumps(render(request["kind"], request.get("language", "en"), request.get("form", []),
                             request.get("remembered") or {}, request.get("setup")))
