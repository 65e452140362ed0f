"""Hosting: the LAN server's start, the gunicorn workers, migrations at once, SQLite's settings,
the health check, and the address share links hold."""

from __future__ import annotations

import html
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest
import yaml
from sqlalchemy import text

from referee.web import sharing
from referee.web.database import SQLITE_BUSY_TIMEOUT_MS
from referee.web.extensions import db
from referee.web.serve import shown_path, shown_url
from tests.servers import PYTHON, REPO, ProductionServer, free_port, fresh_postgres, postgres_url, server_env

# --------------------------------------------------------------------------- the LAN server


def test_the_lan_server_start_line_and_request_log(tmp_path):
    server = ProductionServer("waitress", f"sqlite:///{tmp_path / 'room.sqlite'}", tmp_path / "log", quiet=False)
    with server:
        for path in ("/healthz", "/trece/g/AbCdEfGhIjKlMnOpQrSt"):
            try:
                urllib.request.urlopen(server.url + path).close()
            except urllib.error.HTTPError as exc:
                assert exc.code == 404
        time.sleep(0.3)
        output = server.output()
    assert f"Serving Thirteen at http://127.0.0.1:{server.port}/ — Ctrl-C to stop" in output
    assert "█" not in output  # --host 127.0.0.1: no QR code for an address no phone can reach
    assert re.search(r"127\.0\.0\.1 GET /healthz 200 [0-9.]+ ms", output)
    assert "GET /trece/g/AbCd… 404" in output and "AbCdEfGh" not in output


def test_a_port_in_use_is_a_plain_message_before_any_qr_code(tmp_path):
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        done = subprocess.run(
            [PYTHON, "-m", "referee.web.serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=REPO, env=server_env(f"sqlite:///{tmp_path / 'x.sqlite'}"), capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 2
    assert f"Port {port} is already in use" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "█" not in done.stdout and "Serving" not in done.stdout


def test_the_printed_address_follows_the_host(monkeypatch):
    monkeypatch.setattr("referee.web.serve.lan_address", lambda: "192.168.1.20")
    assert shown_url("0.0.0.0", 8000) == "http://192.168.1.20:8000/"
    assert shown_url("127.0.0.1", 8001) == "http://127.0.0.1:8001/"
    assert shown_url("10.0.0.5", 80) == "http://10.0.0.5:80/"
    assert shown_url("::1", 8000) == "http://[::1]:8000/"


def test_the_request_log_cuts_share_link_tokens():
    assert shown_path("/three-thirteen/g/Zx9_-abcdefghijklmnop/round/2") == "/three-thirteen/g/Zx9_…/round/2"


def test_the_lan_server_refuses_a_50_megabyte_body_without_reading_it(tmp_path):
    with ProductionServer("waitress", f"sqlite:///{tmp_path / 'room.sqlite'}", tmp_path / "log") as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"POST /api/cards/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 52428800\r\n\r\n")
            answer = s.recv(4096)  # no byte of the body was sent: the answer comes from the length alone
    assert answer.startswith(b"HTTP/1.1 413")


# --------------------------------------------------------------------------- several processes


def test_gunicorn_runs_several_workers_and_migrates_once(tmp_path):
    with ProductionServer("gunicorn", f"sqlite:///{tmp_path / 'hosted.sqlite'}", tmp_path / "log", workers=2) as server:
        deadline = time.monotonic() + 30
        while server.output().count("Booting worker") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        for _ in range(4):
            with urllib.request.urlopen(server.url + "/healthz") as response:
                assert response.status == 200
        output = server.output()
    assert output.count("Booting worker") == 2
    assert output.count("Running upgrade") == 1  # in the master, before the workers forked


def _start_at_once(database_url: str, count: int = 3) -> list[subprocess.CompletedProcess[str]]:
    """``count`` processes that each build the app at the same instant on the same database
    (without the migration lock, 3 processes crash one another in most attempts)."""
    at = time.time() + 4  # after every process has imported the app
    script = ("import sys, time\nfrom app import create_app\n"
              "time.sleep(max(0.0, float(sys.argv[1]) - time.time()))\ncreate_app()\n")
    processes = [subprocess.Popen([PYTHON, "-c", script, str(at)], cwd=REPO, env=server_env(database_url),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(count)]
    results = []
    for p in processes:
        out, _ = p.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(p.args, p.returncode, out))
    return results


def _schema_is_whole(make_app, database_url: str) -> None:  # type: ignore[no-untyped-def]
    app = make_app(database_url, AUTO_MIGRATE=False)
    with app.app_context():
        tables = set(db.inspect(db.engine).get_table_names())
        assert {"games", "players", "events", "alembic_version"} <= tables
        assert db.session.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("attempt", range(3))
def test_processes_starting_at_once_on_an_empty_sqlite_file_all_come_up(make_app, tmp_path, attempt):
    url = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    for result in _start_at_once(url):
        assert result.returncode == 0, result.stdout
    _schema_is_whole(make_app, url)


@pytest.mark.postgres
@pytest.mark.parametrize("attempt", range(3))
def test_processes_starting_at_once_on_an_empty_postgres_database_all_come_up(make_app, attempt):
    with fresh_postgres(postgres_url()) as url:
        for result in _start_at_once(url):
            assert result.returncode == 0, result.stdout
        _schema_is_whole(make_app, url)


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(make_app, tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'wal.sqlite'}")
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == SQLITE_BUSY_TIMEOUT_MS
        db.engine.dispose()


def test_the_health_check_asks_the_database(make_app, any_db_app, tmp_path):
    response = any_db_app.test_client().get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok", "database": "ok"}
    broken = make_app(f"sqlite:///{tmp_path / 'no-such-folder' / 'x.sqlite'}", AUTO_MIGRATE=False)
    response = broken.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["database"] == "not answering"
    with broken.app_context():
        db.engine.dispose()


# --------------------------------------------------------------------------- the container recipe


def test_the_container_runs_gunicorn_as_a_user_with_a_healthcheck():
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^USER (?!root)\w+", dockerfile, re.M)
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", dockerfile, re.M)
    assert 'CMD ["gunicorn", "--config", "gunicorn.conf.py"]' in dockerfile
    for copied in re.findall(r"^COPY (.+) \./", dockerfile, re.M):
        for name in copied.split():
            assert (REPO / name).exists(), f"the Dockerfile copies {name}, which is not in the repository"
    pinned = (REPO / "requirements.txt").read_text(encoding="utf-8")
    assert re.search(r"^gunicorn==[0-9.]+$", pinned, re.M)


def test_the_compose_file_runs_the_app_on_postgres():
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    web, database = compose["services"]["web"], compose["services"]["db"]
    assert database["image"].startswith("postgres:")
    assert web["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert {"SECRET_KEY", "PUBLIC_URL", "WEB_CONCURRENCY"} <= set(web["environment"])
    assert web["depends_on"]["db"]["condition"] == "service_healthy"


# --------------------------------------------------------------------------- the address in share links


def _share_box(client, base_url: str) -> tuple[str, str, str]:  # type: ignore[no-untyped-def]
    response = client.post("/trece/new", base_url=base_url, data={
        "name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "♥"})
    page = html.unescape(client.get(response.headers["Location"], base_url=base_url).get_data(as_text=True))
    watch = re.search(r'id="watch-link" type="text" readonly value="([^"]+)"', page).group(1)
    keeper = re.search(r'id="keeper-link" type="text" readonly value="([^"]+)"', page).group(1)
    said = re.search(r'class="muted share-address" data-source="(\w+)">([^<]+)<', page)
    return watch, keeper, said.group(1) + ": " + " ".join(said.group(2).split())


def test_share_links_use_the_configured_public_address(make_app):
    app = make_app(PUBLIC_URL="https://thirteen.example.org/")
    watch, keeper, said = _share_box(app.test_client(), "http://127.0.0.1:8000")
    assert watch.startswith("https://thirteen.example.org/trece/g/")
    assert keeper.startswith("https://thirteen.example.org/trece/g/")
    assert said == "configured: The codes hold https://thirteen.example.org, this server's public address."


def test_a_keeper_on_loopback_shares_the_lan_address(make_app, monkeypatch):
    monkeypatch.setattr(sharing, "lan_address", lambda: "192.168.1.20")
    client = make_app(LAN_SHARING=True).test_client()  # as the LAN server sets it
    for base in ("http://127.0.0.1:8000", "http://localhost:8000"):
        watch, keeper, said = _share_box(client, base)
        assert watch.startswith("http://192.168.1.20:8000/trece/g/") and keeper.startswith("http://192.168.1.20:8000/")
        assert said.startswith("lan: The codes hold http://192.168.1.20:8000, this computer's address on the local network")


def test_a_keeper_on_the_lan_address_shares_that_address(monkeypatch, client):
    monkeypatch.setattr(sharing, "lan_address", lambda: "192.168.1.20")
    watch, _, said = _share_box(client, "http://192.168.1.20:8000")
    assert watch.startswith("http://192.168.1.20:8000/trece/g/")
    assert said.startswith("request: The codes hold http://192.168.1.20:8000, the address this page was opened at")


def test_a_server_on_loopback_only_says_its_links_work_on_this_computer_only(make_app, monkeypatch):
    monkeypatch.setattr(sharing, "lan_address", lambda: "192.168.1.20")
    app = make_app()  # LAN_SHARING is off unless the LAN server listens on the network
    watch, _, said = _share_box(app.test_client(), "http://127.0.0.1:8000")
    assert watch.startswith("http://127.0.0.1:8000/")
    assert said.startswith("loopback: The codes hold http://127.0.0.1:8000, which only this computer can open")


def test_without_a_network_the_loopback_address_stays(make_app, monkeypatch):
    monkeypatch.setattr(sharing, "lan_address", lambda: "127.0.0.1")
    client = make_app(LAN_SHARING=True).test_client()
    watch, _, said = _share_box(client, "http://127.0.0.1:8000")
    assert watch.startswith("http://127.0.0.1:8000/") and said.startswith("loopback:")
