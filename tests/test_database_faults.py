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
                assert status == 503 and headers["retry-after"].isdigit()
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
