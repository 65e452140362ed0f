"""SIGKILL the production server in the middle of a burst of writes: after a restart, every
write it acknowledged (answered 303) is there, on SQLite and on PostgreSQL.  SIGKILL one process
of a running server (the LAN server's serving process, a gunicorn worker) under ten writing
phones: the server goes on serving by itself, every acknowledged write is there, none twice."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import threading
import time
import urllib.parse
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine

from referee.web.models import Event, Game
from tests.servers import (
    ProductionServer,
    WritingPhones,
    children,
    fresh_postgres,
    postgres_url,
    serving_process,
)

GAMES = 6
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _post(connection: http.client.HTTPConnection, path: str, fields: dict[str, object]) -> http.client.HTTPResponse:
    connection.request("POST", path, urllib.parse.urlencode(fields, doseq=True), FORM)
    response = connection.getresponse()
    response.read()
    return response


def _new_game(url: str) -> str:
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=30)
    response = _post(connection, "/three-thirteen/new", {"names": ["Ana", "Bao"], "dealer": "0"})
    connection.close()
    assert response.status == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def _keeper(url: str, token: str, acknowledged: list[tuple[int, int]], stop: threading.Event) -> None:
    """Save round 1 and correct it again and again; note each (event seq, points) answered 303."""
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=30)
    seen, points = 0, 0
    try:
        while not stop.is_set():
            points = (points + 1) % 200
            response = _post(connection, f"/three-thirteen/g/{token}/round/1", {
                "version": seen, "out": ["0"], "cards_0": "4h 5h 6h", "points_0": "", "cards_1": "",
                "points_1": points})
            while response.status == 503 and not stop.is_set():
                # The database gate said busy (a loaded machine): nothing was stored, so the same
                # write goes again, as the phone's outbox sends it; a 409 then would be a write
                # stored behind a 503.
                time.sleep(0.05)
                response = _post(connection, f"/three-thirteen/g/{token}/round/1", {
                    "version": seen, "out": ["0"], "cards_0": "4h 5h 6h", "points_0": "", "cards_1": "",
                    "points_1": points})
            if response.status == 503:
                return  # stopped while the database was busy: that write was never acknowledged
            assert response.status == 303, response.status
            acknowledged.append((seen + 1, points))
            seen += 1
    except (OSError, http.client.HTTPException):
        return  # the server was killed mid-request: that write was never acknowledged
    finally:
        connection.close()


@contextlib.contextmanager
def _database(kind: str, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'fault.sqlite'}"
    else:
        with fresh_postgres(postgres_url()) as url:
            yield url


def _stored(engine: Engine, token: str) -> dict[int, int]:
    with engine.connect() as connection:
        game_id = connection.execute(select(Game.id).where(Game.keeper_token == token)).scalar_one()
        rows = connection.execute(select(Event.seq, Event.payload).where(Event.game_id == game_id)).all()
    return {seq: payload["hands"][1]["points"] for seq, payload in rows}


@pytest.mark.parametrize(("server_kind", "database"), [
    ("waitress", "sqlite"),
    ("gunicorn", "sqlite"),  # two worker processes writing one SQLite file (WAL)
    pytest.param("waitress", "postgres", marks=pytest.mark.postgres),
    pytest.param("gunicorn", "postgres", marks=pytest.mark.postgres),
])
def test_every_acknowledged_write_survives_a_sigkill(tmp_path, server_kind, database):
    with _database(database, tmp_path) as url:
        server = ProductionServer(server_kind, url, tmp_path / "log", workers=2).start()
        tokens = [_new_game(server.url) for _ in range(GAMES)]
        acknowledged: dict[str, list[tuple[int, int]]] = {t: [] for t in tokens}
        stop = threading.Event()
        keepers = [threading.Thread(target=_keeper, args=(server.url, t, acknowledged[t], stop)) for t in tokens]
        for k in keepers:
            k.start()
        deadline = time.monotonic() + 20
        while sum(map(len, acknowledged.values())) < 60 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()  # SIGKILL, mid-burst: the keepers are still writing
        stop.set()
        for k in keepers:
            k.join(30)
        total = sum(map(len, acknowledged.values()))
        assert total >= 60, f"only {total} writes were acknowledged before the kill:\n{server.output()}"

        restarted = ProductionServer(server_kind, url, tmp_path / "log2", workers=2).start()
        try:
            engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
            try:
                for token, acked in acknowledged.items():
                    stored = _stored(engine, token)
                    for seq, points in acked:
                        assert stored.get(seq) == points, f"acknowledged write {seq} of game {token[:4]} is lost"
                    assert sorted(stored) == list(range(1, len(stored) + 1))  # no hole in the log
                    assert len(stored) - len(acked) <= 1  # at most the write in flight when killed
            finally:
                engine.dispose()
            # The restarted server shows every game at its stored version and takes the next write.
            token = tokens[0]
            connection = http.client.HTTPConnection(urllib.parse.urlsplit(restarted.url).netloc, timeout=30)
            connection.request("GET", f"/three-thirteen/g/{token}")
            page = connection.getresponse().read().decode()
            version = int(re.search(r'data-version="(\d+)"', page).group(1))
            assert version >= len(acknowledged[token])
            response = _post(connection, f"/three-thirteen/g/{token}/round/1", {
                "version": version, "out": ["0"], "cards_0": "4h 5h 6h", "cards_1": "", "points_1": 7})
            assert response.status == 303
            connection.close()
        finally:
            restarted.stop()


# --------------------------------------------------------------------------- one process of the server dies


PHONES = 10


@pytest.mark.parametrize(("server_kind", "database"), [
    ("waitress", "sqlite"),  # the LAN server: its serving process killed, the waiting one takes over
    ("gunicorn", "sqlite"),  # one worker killed, the master starts another
    pytest.param("gunicorn", "postgres", marks=pytest.mark.postgres),
])
def test_a_server_process_killed_under_ten_writing_phones_loses_no_acknowledged_write_and_stores_none_twice(
        tmp_path, server_kind, database):
    with _database(database, tmp_path) as url, \
            ProductionServer(server_kind, url, tmp_path / "log", workers=2, quiet=False) as server:
        if server_kind == "waitress":  # the waiting process is ready to take over
            deadline = time.monotonic() + 120
            while "ready to take over" not in server.output():
                assert time.monotonic() < deadline, server.output()
                time.sleep(0.1)
        phones = WritingPhones(server.url, [_new_game(server.url) for _ in range(PHONES)]).start()
        acknowledged = phones.acknowledged
        deadline = time.monotonic() + 60
        while phones.answered() < 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        killed = serving_process(server)
        os.kill(killed, signal.SIGKILL)  # mid-burst: the phones are still writing
        before = phones.answered()
        deadline = time.monotonic() + 120
        while phones.answered() < before + 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        phones.stop(90)
        after = phones.answered()
        assert before >= 50 and after >= before + 50, f"{before} then {after} writes acknowledged:\n{server.output()}"
        assert killed not in children(server.process.pid)  # a process of its own took over

        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            for token, acked in acknowledged.items():
                stored = _stored(engine, token)
                # every acknowledged write there, in order, each once (a write sent again is stored once)
                assert [stored[seq] for seq in sorted(stored)] == acked, f"game {token[:4]}: {stored} vs {acked}"
        finally:
            engine.dispose()
