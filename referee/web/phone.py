"""The referee's answers on the phone: what the Web Worker runs in Pyodide (no Flask).

The worker unpacks ``thirteen.zip`` (see :mod:`referee.web.engine`), puts it on ``sys.path``
and calls :func:`answer` for each request it takes over.  The answer is the one the server
gives: the same function of :mod:`referee.web.checks` reads the form, and the same fragment
template is rendered by Jinja2 with the same settings Flask and Flask-Babel use (HTML
autoescaped, the ``i18n`` extension in its "newstyle", the ``cards`` and ``rank_plural``
filters) and the same compiled catalogue.
"""

from __future__ import annotations

import gettext
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from referee.cards import format_cards
from referee.web import checks, table_moves, words

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

    def __iter__(self):  # type: ignore[no-untyped-def]
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
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters["cards"] = format_cards
    env.filters["rank_plural"] = words.rank_plural
    return env


_env: Environment | None = None


def render(kind: str, language: str, pairs: Iterable[tuple[str, str]], remembered: Mapping[str, Any],
           setup: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The answer to one request: ``kind`` names the screen, ``pairs`` the form's fields,
    ``remembered`` the house rules this phone kept (its cookie), ``setup`` what the page
    carries for it (a round's rules).  Returns the HTML, the status and the rules to keep."""
    global _env
    if _env is None:
        _env = environment()
    words.use(catalogue(language if language in LANGUAGES else "en"))
    try:
        form = Form(pairs)
        if kind == "tienlen-check":
            answer = checks.tienlen_check(form, remembered, oob=True)
        elif kind == "trece-check":
            answer = checks.trece_check(form, remembered, posted=True)
        elif kind == "three-thirteen-score":
            answer = checks.three_thirteen_score(form)
        elif kind == "three-thirteen-preview":
            assert setup is not None
            answer = checks.three_thirteen_preview(setup, int(setup["seat"]), form)
        elif kind == "tienlen-table":
            assert setup is not None
            pending = [{"action": p["action"], "form": Form(p["form"])} for p in setup.get("pending", [])]
            answer = table_moves.tienlen_move(setup["game"], pending, str(setup["action"]), form)
        elif kind == "trece-table":
            assert setup is not None
            pending = [{"form": Form(p["form"])} for p in setup.get("pending", [])]
            answer = table_moves.trece_move(setup["game"], pending, form)
        else:
            raise ValueError(f"the phone does not answer {kind!r}")
        html = _env.get_template(answer.fragment).render(**answer.context)
    finally:
        words.use(None)
    result = {"html": html, "status": answer.status, "remember": answer.remember}
    if "turn" in answer.context:
        result["turn"] = answer.context["turn"]
    return result


def warm_up(language: str) -> None:
    """Answer one question of each kind: the modules they need are imported and the templates
    compiled before the first tap (and kept in the worker's memory snapshot)."""
    for kind, pairs in (("tienlen-check", [("table", "2h"), ("play", "2s")]),
                        ("trece-check", [("top_rank", "K"), ("top_suit", "h"), ("play", "Kd")]),
                        ("three-thirteen-score", [("hand", "3s 4s 5s 6h")])):
        render(kind, language, pairs, {})
    render("three-thirteen-preview", language, [("cards_0", "3s 4s 5s")], {},
           {"rules": {}, "players": 2, "number": 1, "seat": 0})


def answer(request_json: str) -> str:
    """:func:`render` for the worker: a JSON request in, a JSON answer out."""
    request = json.loads(request_json)
    return json.dumps(render(request["kind"], request.get("language", "en"), request.get("form", []),
                             request.get("remembered") or {}, request.get("setup")))
