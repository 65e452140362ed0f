"""Fixtures: the app and its test client (flaskr style), PostgreSQL, and a phone in Chromium.

Tests share helpers through these fixtures (``make_app``, ``shared_app``, ``phone_context``,
``new_phone``), never by importing this module.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from jsonschema import Draft202012Validator
from sqlalchemy import event, text
from werkzeug.serving import make_server

import referee.web
from app import create_app
from referee.web import openapi, registry
from referee.web.extensions import db
from tests.games import PACKAGES
from tests.invariants import Invariants, offline_noise
from tests.servers import postgres_url
from tests.sizes import LONG

# Property tests check rules, not speed: no per-example deadline, so a busy CI machine cannot
# turn a slow example into a failure. Speed is measured in the benchmarks instead.  The suite's
# cases are derandomized (the same every run: a run never fails by the luck of the draw); the long
# run (THIRTEEN_LONG_TESTS=1, tests/sizes.py) draws fresh ones, more of them.
settings.register_profile(
    "thirteen", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow], derandomize=not LONG
)
settings.load_profile("thirteen")

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


_migrate = referee.web.upgrade_database
_migrated: list[sqlite3.Connection] = []  # the schema of the latest migration, made once


def _upgrade_or_copy(app) -> None:  # type: ignore[no-untyped-def]
    """An in-memory test database gets the tables of the latest migration copied from one the
    migrations made once per session: the same tables and ``alembic_version``, in a
    thousandth of the time.  Every other database (a file, PostgreSQL) is migrated as the app
    does it; what the migrations make is tested in tests/test_migrations.py."""
    if app.config["SQLALCHEMY_DATABASE_URI"] != "sqlite://":
        _migrate(app)
        return
    with app.app_context():
        raw = db.engine.raw_connection()
        try:
            if not _migrated:
                _migrate(app)
                template = sqlite3.connect(":memory:", check_same_thread=False)
                raw.driver_connection.backup(template)  # type: ignore[union-attr]
                _migrated.append(template)
            else:
                _migrated[0].backup(raw.driver_connection)  # type: ignore[arg-type]
        finally:
            raw.close()


referee.web.upgrade_database = _upgrade_or_copy


def _make_app(uri: str = "sqlite://", **extra):  # type: ignore[no-untyped-def]
    # Every test app has the app's games and the tests' own (tests/games.py).  Without the
    # phone's engine unless a test asks for it (PHONE_ENGINE=True): the browser tests check the
    # server's path; tests/test_browser_engine.py checks the phone's.
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "test", "GAME_PACKAGES": PACKAGES,
              "PHONE_ENGINE": False, **extra}
    if uri == "sqlite://":
        from sqlalchemy.pool import StaticPool

        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    return create_app(config)


@pytest.fixture(autouse=True)
def _environment_left_as_found():  # type: ignore[no-untyped-def]
    """A test leaves the process's environment as it found it: a variable one test set and never
    unset (``THIRTEEN_THREADS``, left by running ``gunicorn.conf.py``) changed how every later app in
    the same worker was built, and a test far away failed on CI.  Set variables with
    ``monkeypatch.setenv``; a leak is undone here and fails the test that made it."""
    before = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    yield
    after = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    if after != before:
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for key in changed:
            if key in before:
                os.environ[key] = before[key]
            else:
                del os.environ[key]
        pytest.fail(f"this test changed the environment and left it so: {', '.join(changed)}")


@pytest.fixture(scope="session", name="make_app")
def make_app_fixture():  # type: ignore[no-untyped-def]
    """The factory with test settings: ``make_app(uri="sqlite://", **config)``."""
    return _make_app


def _in_memory_app():  # type: ignore[no-untyped-def]
    app = _make_app()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="module")
def shared_app():  # type: ignore[no-untyped-def]
    """One in-memory app for a whole module (fuzz tests that make thousands of requests)."""
    yield from _in_memory_app()


@pytest.fixture
def app():  # type: ignore[no-untyped-def]
    """A fresh in-memory app for each test."""
    yield from _in_memory_app()


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture
def documented_status(app):  # type: ignore[no-untyped-def]
    """``documented_status(path, body)``: the status the JSON API's document gives a refused body,
    400 when the document forbids it, 422 when it allows it and its facts cannot be
    (referee/web/api_schema.py)."""
    with app.app_context():
        document = openapi.document(registry.entries())

    def status(path: str, body: object) -> int:
        schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        allowed = Draft202012Validator({**schema, "components": document["components"]}).is_valid(body)
        return 422 if allowed else 400

    return status


@pytest.fixture
def api_error(client, documented_status):  # type: ignore[no-untyped-def]
    """``api_error(path, **post)``: the JSON API's refusal of that post, its ``error``; answered
    with the status the document gives it (``documented_status``: 400 when the document forbids
    the body, 422 when it allows it and its facts cannot be; 400 for a body that is not JSON)."""
    def error(path: str, **post: Any) -> str:
        response = client.post(path, **post)
        expected = documented_status(path, post["json"]) if "json" in post else 400
        assert response.status_code == expected, response.get_data(as_text=True)
        return response.get_json()["error"]
    return error


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_db_app(request, tmp_path):  # type: ignore[no-untyped-def]
    """The app on a SQLite file and on PostgreSQL: for persistence and concurrency tests."""
    if request.param == "sqlite":
        app = _make_app(f"sqlite:///{tmp_path / 'game.sqlite'}")
    else:
        app = _make_app(postgres_url())
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as connection:  # the next app migrates a clean database again
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


# --- the browser ---------------------------------------------------------------------------


class LiveServer:
    def __init__(self, app, tmp: Path) -> None:  # type: ignore[no-untyped-def]
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(5)
        self.server.server_close()


def _serving(tmp_path_factory, name: str) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """A Thirteen server with a SQLite database of its own (``<name>.sqlite``), for a session."""
    tmp = tmp_path_factory.mktemp(name)
    app = _make_app(f"sqlite:///{tmp / (name + '.sqlite')}")
    with LiveServer(app, tmp) as server:
        yield server
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    yield from _serving(tmp_path_factory, "live")


def _database_down(app):  # type: ignore[no-untyped-def]
    """The database of ``app`` stops answering while the block runs: every new connection is
    refused as the driver refuses one (SQLite and PostgreSQL alike)."""
    with app.app_context():
        engine = db.engine

    def refuse(dialect, _record, _args, _params):  # type: ignore[no-untyped-def]
        raise dialect.loaded_dbapi.OperationalError("connection refused: is the server running?")

    engine.dispose()
    event.listen(engine, "do_connect", refuse)
    try:
        yield
    finally:
        event.remove(engine, "do_connect", refuse)
        engine.dispose()


@pytest.fixture
def database_down():  # type: ignore[no-untyped-def]
    """``with database_down(app):`` the database does not answer (a known outage)."""
    return contextlib.contextmanager(_database_down)


@pytest.fixture(scope="session")
def engine_server(tmp_path_factory) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """A live server whose pages start the referee on the phone (Pyodide, referee.web.engine)."""
    tmp = tmp_path_factory.mktemp("engine")
    app = _make_app(f"sqlite:///{tmp / 'engine.sqlite'}", PHONE_ENGINE=True)
    with LiveServer(app, tmp) as server:
        yield server
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: ./scripts/test installs Debian's chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        yield browser
        browser.close()


class Phone:
    """A phone-sized page that remembers console errors and failed requests, and checks the
    invariants of every screen it reaches (tests/invariants.py) at each load and each swap:
    ``phone.step("what was done")`` raises at once; the fixtures fail a test at its end on
    what the page reported by itself."""

    def __init__(self, context, base_url: str, *, strict: bool = False, axe: bool = False,  # type: ignore[no-untyped-def]
                 allowed: tuple[int, ...] = ()) -> None:
        self.context = context
        self.page = context.new_page()
        self.base_url = base_url
        self.errors: list[str] = []
        self.inv = Invariants(self.page, strict_status=strict, axe=axe, allowed=allowed)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(10_000)

    def forgive_offline(self, *more: str) -> None:
        """Forget the console errors a phone cut from the network logs by design
        (:func:`tests.invariants.offline_noise`), and ``more`` (say "status of 409"): a test of the
        network's loss expects them."""
        noise = offline_noise(*more)
        self.errors[:] = [e for e in self.errors if not noise(e)]
        # the invariants' own record of the console too, which the next step() reads
        self.inv.errors[:] = [e for e in self.inv.errors if not noise(e)]

    def step(self, what: str, **kw) -> None:  # type: ignore[no-untyped-def]
        """The invariants after an action (:meth:`tests.invariants.Invariants.step`)."""
        self.inv.step(what, **kw)

    def broken(self) -> list[str]:
        """What the screens this phone reached broke of the invariants, not yet said."""
        return self.inv.finish()

    def open(self, path: str):  # type: ignore[no-untyped-def]
        self.page.goto(self.base_url + path)
        return self.page

    def settled(self) -> None:
        """Wait until the page and its stylesheets have loaded, so sizes are final."""
        self.page.wait_for_load_state("load")

    def no_sideways_scroll(self) -> bool:
        self.settled()
        return self.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    def small_targets(self) -> list[str]:
        """Visible buttons, links and fields smaller than 44 × 44 CSS px."""
        self.settled()
        return self.page.evaluate(
            """() => [...document.querySelectorAll('button, a, input:not([type=hidden]), select, summary')]
                .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                   return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
                     && !(e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio') && e.closest('label'))
                     && (r.width < 44 || r.height < 44); })
                .map(e => e.tagName + ' ' + (e.textContent || e.name || e.id).trim().slice(0, 30)
                     + ' ' + Math.round(e.getBoundingClientRect().width) + 'x'
                     + Math.round(e.getBoundingClientRect().height))"""
        )


def _phone(browser, live_server):  # type: ignore[no-untyped-def]
    """A fresh phone context; at the end, any console error fails the test."""
    context = browser.new_context(**PHONE)
    phone = Phone(context, live_server.url)
    yield phone
    broken = phone.broken()
    context.close()
    assert phone.errors == [], f"console errors: {phone.errors}"
    assert broken == [], "screens broke the invariants (tests/invariants.py):\n" + "\n".join(broken)


@pytest.fixture
def phone_context():  # type: ignore[no-untyped-def]
    """The phone's browser-context settings (360×740, touch), for a test's own context."""
    return dict(PHONE)


def _new_phones(default_server):  # type: ignore[no-untyped-def]
    made: list[Phone] = []

    def make(context, server=None, **kw):  # type: ignore[no-untyped-def]
        made.append(Phone(context, (server or default_server).url, **kw))
        return made[-1]

    yield make
    broken = [line for phone in made for line in phone.broken()]
    assert broken == [], "screens broke the invariants (tests/invariants.py):\n" + "\n".join(broken)


@pytest.fixture
def new_phone(live_server):  # type: ignore[no-untyped-def]
    """Make a :class:`Phone` on a context the test made itself (a colour scheme, no JavaScript),
    ``new_phone(context, server=...)`` on another server than ``live_server`` (a module's own);
    at the end, what its screens broke of the invariants fails the test."""
    yield from _new_phones(live_server)


@pytest.fixture
def new_engine_phone(engine_server):  # type: ignore[no-untyped-def]
    """:func:`new_phone` on ``engine_server`` (pages that start the referee on the phone): every
    screen its phones reach is checked the same way."""
    yield from _new_phones(engine_server)


@pytest.fixture
def sized(browser, live_server, request):  # type: ignore[no-untyped-def]
    """A phone of the size a test is parametrized with (``indirect=True``: ``(width, height)``),
    and that size; at the end, any console error fails the test."""
    width, height = request.param
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    phone = Phone(context, live_server.url)
    yield phone, width, height
    broken = phone.broken()
    context.close()
    assert phone.errors == [], f"console errors: {phone.errors}"
    assert broken == [], "screens broke the invariants (tests/invariants.py):\n" + "\n".join(broken)


@pytest.fixture
def phone(browser, live_server):  # type: ignore[no-untyped-def]
    yield from _phone(browser, live_server)


@pytest.fixture
def second_phone(browser, live_server):  # type: ignore[no-untyped-def]
    """Another phone at the same table (a watcher, or a second keeper)."""
    yield from _phone(browser, live_server)


@pytest.fixture(scope="session")
def second_server(tmp_path_factory) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """Another Thirteen server with a database of its own (a group's file imported elsewhere)."""
    yield from _serving(tmp_path_factory, "second")


@pytest.fixture
def journey(browser, live_server):  # type: ignore[no-untyped-def]
    """``journey(width, height, scheme="light", server=live_server)``: a phone walked by touch
    (tests/journey.py ``Walk``) whose every step is checked strictly (tests/invariants.py: every
    4xx/5xx but the step's expected refusal, axe once per screen); at the end, everything its
    screens broke fails the test, listed screen by screen."""
    from tests.journey import Walk

    walks: list[tuple[Walk, object]] = []

    def make(width: int, height: int, scheme: str = "light", server=None):  # type: ignore[no-untyped-def]
        context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}},
                                      color_scheme=scheme, accept_downloads=True)
        phone = Phone(context, (server or live_server).url, strict=True, axe=True)
        phone.inv.collect = True
        walk = Walk(phone)
        walks.append((walk, context))
        return walk

    yield make
    broken = []
    for walk, context in walks:
        broken += walk.phone.inv.collected + walk.phone.broken()
        context.close()  # type: ignore[attr-defined]
    assert broken == [], "the journey broke the invariants (tests/invariants.py):\n" + "\n".join(broken)
