"""A PostgreSQL that hangs (its processes stopped), drops its connections or crashes, under the
production servers: the pages that need it answer 503 in the reader's language within seconds
(never a 500, never a traceback), what never needs it keeps answering, a write that was stored is
never said to be unsaved, and everything comes back with the database."""

from __future__ import annotations

import http.client
import re
import signal
import threading
import time
import urllib.parse

import pytest
from sqlalchemy import create_engine, func, select

from referee.web.models import Event
from tests.servers import PrivatePostgres, ProductionServer

pytestmark = pytest.mark.postgres
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
# A request that gets no answer at all in this long is a server held up by the database.
NO_ANSWER_SECONDS = 20


def _request(url: str, method: str, path: str, fields: dict[str, object] | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=NO_ANSWER_SECONDS)
    try:
        body = urllib.parse.urlencode(fields or {}, doseq=True) if fields is not None else None
        connection.request(method, path, body, {**(FORM if body is not None else {}), **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode(errors="replace")
    finally:
        connection.close()


def _new_game(url: str) -> str:
    status, headers, _ = _request(url, "POST", "/three-thirteen/new", {"names": ["Ana", "Bao"], "dealer": "0"})
    assert status == 303
    return headers["location"].rsplit("/", 1)[-1]


def _round(points: int, version: int) -> dict[str, object]:
    return {"version": version, "out": ["0"], "cards_0": "4h 5h 6h", "points_0": "", "cards_1": "",
            "points_1": points}


def _version(url: str, token: str) -> int:
    status, _, page = _request(url, "GET", f"/three-thirteen/g/{token}")
    assert status == 200
    return int(re.search(r'data-version="(\d+)"', page).group(1))


def _send_until_answered(url: str, path: str, fields: dict[str, object], write: str) -> int:
    """Send a write as the phone's outbox does: again, with the same id, while it is told 503."""
    deadline = time.monotonic() + 30
    while True:
        status, _, _ = _request(url, "POST", path, fields, {"X-Thirteen-Write": write})
        if status != 503 or time.monotonic() > deadline:
            return status
        time.sleep(0.5)


def _stylesheet(url: str) -> str:
    _, _, page = _request(url, "GET", "/")
    return re.search(r'href="(/static/css/[^"]+\.css)"', page).group(1)


@pytest.mark.parametrize("server_kind", ["waitress", "gunicorn"])
def test_a_database_that_hangs_is_a_503_in_the_readers_language_and_never_needed_pages_keep_answering(
        tmp_path, server_kind):
    with PrivatePostgres() as pg:
        server = ProductionServer(server_kind, pg.url, tmp_path / "log", workers=2, threads=4).start()
        try:
            token = _new_game(server.url)
            css = _stylesheet(server.url)
            stop = threading.Event()
            polls: list[int] = []

            def phone() -> None:  # a table's phones keep polling while the database hangs
                while not stop.is_set():
                    try:
                        polls.append(_request(server.url, "GET", f"/three-thirteen/g/{token}?since=0",
                                              headers={"HX-Request": "true"})[0])
                    except OSError:
                        polls.append(0)
                    time.sleep(0.2)

            phones = [threading.Thread(target=phone) for _ in range(12)]
            for p in phones:
                p.start()
            pg.signal_all(signal.SIGSTOP)
            try:
                time.sleep(1)
                for path in (css, "/sw.js", "/offline", "/tienlen/check", "/trece/check", "/"):
                    status, _, _ = _request(server.url, "GET", path)
                    assert status == 200, path
                status, headers, page = _request(server.url, "GET", f"/three-thirteen/g/{token}",
                                                 headers={"Accept-Language": "vi"})
                assert status == 503 and headers["retry-after"].isdigit(), (status, pg.states(), page[:200])
                assert 'lang="vi"' in page and "Traceback" not in page
                status, headers, page = _request(server.url, "POST", f"/three-thirteen/g/{token}/round/1",
                                                 _round(7, 0), {"Accept-Language": "es", "X-Thirteen-Write": "w1hang"})
                assert status == 503 and headers["x-thirteen-write"] == "w1hang"
                assert headers["x-thirteen-saved"] in ("no", "unknown")
                status, headers, _ = _request(server.url, "GET", "/healthz")
                assert status == 503 and headers["retry-after"].isdigit()
                for path in (css, "/sw.js"):  # still, with the phones' polls held up meanwhile
                    assert _request(server.url, "GET", path)[0] == 200
            finally:
                pg.signal_all(signal.SIGCONT)
            deadline = time.monotonic() + 30
            while _request(server.url, "GET", "/healthz")[0] != 200:
                assert time.monotonic() < deadline, "the server did not come back with the database"
                time.sleep(0.2)
            stop.set()
            for p in phones:
                p.join(30)
            assert 503 in polls and 500 not in polls and 0 not in polls, sorted(set(polls))
            # The write sent again with its id (as the phone's outbox does while it is told 503) is stored once.
            for _ in range(2):
                assert _send_until_answered(server.url, f"/three-thirteen/g/{token}/round/1", _round(7, 0),
                                            "w1hang") == 303
            assert _version(server.url, token) == 1
        finally:
            server.stop()
        output = server.output()
        assert "Traceback" not in output, output[-3000:]


# --------------------------------------------------------------------------- a connection that drops


def _kill_backend_of(session_connection) -> None:  # type: ignore[no-untyped-def]
    """End the server process behind one connection, as a crash or ``pg_ctl stop -m fast`` does."""
    from referee.web.extensions import db

    pid = session_connection.info.backend_pid
    with db.engine.connect() as other:
        other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
        other.commit()


@pytest.fixture
def pg_app(make_app):  # type: ignore[no-untyped-def]
    from referee.web.extensions import db

    with PrivatePostgres() as pg:
        app = make_app(pg.url)
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _three_thirteen(client) -> str:  # type: ignore[no-untyped-def]
    response = client.post("/three-thirteen/new", data={"names": ["Ana", "Bao"], "dealer": "0"})
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def _stored_events(app) -> int:  # type: ignore[no-untyped-def]
    from referee.web.extensions import db

    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Event)))


def test_a_write_stored_before_the_connection_dropped_is_never_said_to_be_unsaved(pg_app, caplog):
    from sqlalchemy import event

    from referee.web.extensions import db

    client = pg_app.test_client()
    token = _three_thirteen(client)

    # The commit goes through; then the server crashes (every connection of the app dies) and
    # takes no new connection yet, before the game is read again.
    from sqlalchemy.orm import Session
    from sqlalchemy.pool import NullPool

    with pg_app.app_context():
        engine = db.engine
    crashed: list[bool] = []

    def refuse(dialect, *_):  # type: ignore[no-untyped-def]
        raise dialect.loaded_dbapi.OperationalError("connection refused: is the server running?")

    def after_commit(session) -> None:  # type: ignore[no-untyped-def]
        if crashed:
            return
        crashed.append(True)
        killer = create_engine(engine.url, poolclass=NullPool)
        with killer.connect() as other:
            other.exec_driver_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE pid <> pg_backend_pid() AND datname = current_database()")
            other.commit()
        killer.dispose()
        event.listen(engine, "do_connect", refuse)

    event.listen(Session, "after_commit", after_commit)
    try:
        response = client.post(f"/three-thirteen/g/{token}/round/1", data=_round(7, 0),
                               headers={"X-Thirteen-Write": "storedw1", "Accept-Language": "es"})
    finally:
        event.remove(Session, "after_commit", after_commit)
        if event.contains(engine, "do_connect", refuse):
            event.remove(engine, "do_connect", refuse)
    assert _stored_events(pg_app) == 1
    assert response.status_code == 503
    assert response.headers["X-Thirteen-Saved"] == "yes"
    assert response.headers["X-Thirteen-Write"] == "storedw1"
    page = response.get_data(as_text=True)
    assert "así que no se guardó nada" not in page and "Se guardó, pero" in page
    assert not [r for r in caplog.records if r.exc_info]
    # Sent again (the phone did not know): answered as done, stored once.
    again = client.post(f"/three-thirteen/g/{token}/round/1", data=_round(7, 0), headers={"X-Thirteen-Write": "storedw1"})
    assert again.status_code == 303 and _stored_events(pg_app) == 1


def test_a_connection_that_drops_before_the_request_ends_is_not_a_500_or_a_traceback(pg_app, caplog):
    from flask import g

    from referee.web.extensions import db

    @pg_app.after_request
    def drop(response):  # type: ignore[no-untyped-def]
        # The page was read in a transaction still open; its server process dies before the
        # request's session is closed (the rollback of the teardown meets a dead connection).
        if g.get("drop_me"):
            _kill_backend_of(db.session.connection().connection.dbapi_connection)
        return response

    @pg_app.before_request
    def mark():  # type: ignore[no-untyped-def]
        from flask import request

        g.drop_me = request.args.get("drop") == "1"

    client = pg_app.test_client()
    token = _three_thirteen(client)
    response = client.get(f"/three-thirteen/g/{token}?drop=1")
    assert response.status_code == 200
    assert not [r for r in caplog.records if r.exc_info]
    assert client.get(f"/three-thirteen/g/{token}").status_code == 200  # the next request gets a live connection


# --------------------------------------------------------------------------- stops and crashes


def _keeper_through_outages(url: str, token: str, name: str, answers: list[tuple[str, int, str]],
                            stop: threading.Event) -> None:
    """Save corrections one after another, each with its own write id; a write told 503 is sent
    again with its id (as the outbox does) unless the answer said nothing was saved (then a new
    id).  Notes every (write id, status, X-Thirteen-Saved)."""
    version, n = 0, 0
    while not stop.is_set():
        n += 1
        write = f"{name}x{n:05d}"
        while not stop.is_set():
            try:
                status, headers, _ = _request(url, "POST", f"/three-thirteen/g/{token}/round/1",
                                              _round(n % 200, version), {"X-Thirteen-Write": write})
            except (OSError, http.client.HTTPException):
                status, headers = 0, {}
            answers.append((write, status, headers.get("x-thirteen-saved", "")))
            if status == 303:
                version += 1
                break
            if status == 409:  # told so by a 503 that said "unknown": read the version again
                version = _version_or_none(url, token) or version
                break
            if status == 503 and headers.get("x-thirteen-saved") == "no":
                break
            time.sleep(0.2)


def _version_or_none(url: str, token: str) -> int | None:
    try:
        status, _, page = _request(url, "GET", f"/three-thirteen/g/{token}")
    except OSError:
        return None
    found = re.search(r'data-version="(\d+)"', page)
    return int(found.group(1)) if status == 200 and found else None


@pytest.mark.parametrize("server_kind", ["waitress", "gunicorn"])
def test_stops_and_crashes_of_postgres_are_503s_never_500s_and_no_stored_write_is_said_unsaved(tmp_path, server_kind):
    from sqlalchemy import text

    with PrivatePostgres() as pg:
        server = ProductionServer(server_kind, pg.url, tmp_path / "log", workers=2, threads=4).start()
        try:
            tokens = [_new_game(server.url) for _ in range(4)]
            answers: list[tuple[str, int, str]] = []
            stop = threading.Event()
            keepers = [threading.Thread(target=_keeper_through_outages, args=(server.url, t, f"k{i}", answers, stop))
                       for i, t in enumerate(tokens)]
            for k in keepers:
                k.start()
            for outage in ("fast", "crash", "fast", "crash"):
                time.sleep(1.5)
                if outage == "fast":
                    pg.stop("fast")
                else:
                    pg.crash()
                time.sleep(1)
                pg.start()
            time.sleep(3)
            stop.set()
            for k in keepers:
                k.join(60)
        finally:
            server.stop()
        engine = create_engine(pg.url)
        try:
            with engine.connect() as connection:
                stored = set(connection.execute(text("SELECT write_id FROM writes")).scalars())
                doubled = connection.execute(text(
                    "SELECT count(*) FROM events e JOIN writes w ON w.game_id = e.game_id AND w.seq = e.seq")).scalar()
        finally:
            engine.dispose()
    statuses = [status for _, status, _ in answers]
    assert 500 not in statuses and statuses.count(303) >= 20, sorted(set(statuses))
    assert 503 in statuses  # the outages were met
    # Every 503 says what that request stored, so the phone knows whether to send it again.
    assert {saved for _, status, saved in answers if status == 503} <= {"no", "unknown", "yes"}
    assert all(saved for _, status, saved in answers if status == 503)
    first: dict[str, tuple[int, str]] = {}
    for write, status, saved in answers:
        first.setdefault(write, (status, saved))
    # "no" is what that request did: a write id first answered so was not stored by anyone.
    said_unsaved = {w for w, (status, saved) in first.items() if status == 503 and saved == "no"}
    wrong = said_unsaved & stored
    assert not wrong, [a for a in answers if a[0] in wrong]
    acknowledged = {w for w, status, _ in answers if status == 303}
    assert acknowledged <= stored
    assert doubled == len(stored)  # one event per write id
    output = server.output()
    assert "Traceback" not in output and "Exception while serving" not in output, output[-4000:]
