"""The phone's engine as the app builds and serves it (referee/web/engine.py)."""

from __future__ import annotations

import re
import zipfile

import pytest

from referee.web import engine


@pytest.fixture(scope="module")
def engine_app(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PHONE_ENGINE=True)
    if app.extensions.get("thirteen_engine") is None:
        pytest.fail("the phone's engine needs node_modules/pyodide: run ./scripts/test")
    return app


def test_the_standard_library_is_trimmed_to_what_is_imported(engine_app):
    built = engine_app.extensions["thirteen_engine"]
    with zipfile.ZipFile(built.folder / built.app / "python_stdlib.zip") as kept:
        names = set(kept.namelist())
    with zipfile.ZipFile(engine.PYODIDE / "python_stdlib.zip") as whole:
        all_names = {n for n in whole.namelist() if not n.endswith("/")}
    assert {"gettext.py", "json/__init__.py", "re/__init__.py", "dataclasses.py", "_pyodide/_base.py",
            "encodings/unicode_escape.py", "encodings/cp437.py"} <= names  # what the phone needs
    assert not {"doctest.py", "pydoc.py", "pdb.py", "unittest/__init__.py", "tkinter/__init__.py"} & names
    assert len(names) < len(all_names) / 2


def app_zip_read(built, name: str) -> bytes:  # type: ignore[no-untyped-def]
    with zipfile.ZipFile(built.folder / built.app / "thirteen.zip") as app:
        return app.read(name)


def test_the_apps_zip_holds_the_library_the_phone_screens_the_fragments_and_the_catalogues(engine_app):
    built = engine_app.extensions["thirteen_engine"]
    with zipfile.ZipFile(built.folder / built.app / "thirteen.zip") as app:
        names = set(app.namelist())
        web_init = app.read("referee/web/__init__.py")
    assert {"referee/tienlen/__init__.py", "referee/tienlen/verdicts.py", "referee/web/checks.py", "referee/web/phone.py", "referee/web/house_rules.py",
            "referee/web/games/tienlen/answers.py", "referee/web/games/trece/answers.py",
            "referee/web/games/three_thirteen/answers.py", "referee/web/phone_screens.json",
            "jinja2/environment.py", "markupsafe/_native.py", "templates/tienlen/_verdict.html",
            "templates/three_thirteen/_macros.html", "templates/tienlen/_dock.html",
            "translations/vi/LC_MESSAGES/messages.mo"} <= names
    assert b"import" not in web_init  # the web package's Flask half stays on the server
    assert b"import" not in app_zip_read(built, "referee/web/games/tienlen/__init__.py")  # its Flask half stays too
    assert not any(n.startswith(("referee/web/games/tienlen/check", "referee/web/store", "referee/web/registry",
                                 "flask")) for n in names)
    assert not any(n.endswith(".so") for n in names)


def test_the_engine_is_served_immutable_under_names_of_its_content(engine_app):
    client = engine_app.test_client()
    config = client.get("/engine.json", headers={"Accept-Language": "es"}).get_json()
    assert config["words"]["ready"] == "El árbitro funciona sin conexión en este teléfono."
    assert config["transfer"] < 4_000_000
    for url in config["files"]:
        response = client.get(url, headers={"Accept-Encoding": "br"})
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        response.close()
    wasm = client.get(config["runtime"] + "pyodide.asm.wasm", headers={"Accept-Encoding": "br"})
    assert wasm.headers["Content-Type"] == "application/wasm" and wasm.headers["Content-Encoding"] == "br"
    wasm.close()
    assert "'wasm-unsafe-eval'" in client.get("/").headers["Content-Security-Policy"]
    assert re.search(r"/static/js/engine\.[0-9a-f]{12}\.js", client.get("/tienlen/check").get_data(as_text=True))
    assert set(config["files"]) <= set(client.get("/sw.js").get_data(as_text=True).split('"'))


def test_without_the_engine_pages_do_not_ask_for_it(app):
    client = app.test_client()
    assert client.get("/engine.json").status_code == 404
    assert "/static/js/engine." not in client.get("/tienlen/check").get_data(as_text=True)


def test_the_pages_of_a_game_started_offline_come_after_the_engine_and_weigh_at_most_300_kb(engine_app):
    """pages.zip (referee.web.phone_pages, the sheet's templates, the app's kit): a file of its own
    that the worker fetches once the engine is ready (not among the engine's files), within the
    issue's 300 KB compressed, kept by the service worker with the engine."""
    client = engine_app.test_client()
    config = client.get("/engine.json").get_json()
    pages = config["pages"]
    assert pages and pages not in config["files"] and config["share"]["base"] == "http://localhost"
    built = engine_app.extensions["thirteen_engine"]
    path = built.folder / engine_app.extensions["thirteen_pages"]
    assert path.with_name(path.name + ".br").stat().st_size <= 300_000
    with zipfile.ZipFile(path) as kept:
        names = set(kept.namelist())
    assert {"referee/web/phone_pages.py", "referee/web/phone_kit.json", "templates/base.html",
            "templates/three_thirteen/round.html", "referee/web/games/three_thirteen/pages.py"} <= names
    assert not names & {"referee/web/phone.py", "templates/three_thirteen/_macros.html"}  # in thirteen.zip already
    response = client.get(pages, headers={"Accept-Encoding": "br"})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "br"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    response.close()
    assert pages in client.get("/sw.js").get_data(as_text=True)
    with zipfile.ZipFile(built.folder / built.app / "python_stdlib.zip") as stdlib:
        assert "urllib/parse.py" in stdlib.namelist()  # what phone_pages imports is on the phone
