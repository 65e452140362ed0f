"""Hosting: the LAN server's start, the gunicorn workers, migrations at once, SQLite's settings,
the health check, and the address share links hold."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml
from sqlalchemy import text
from sqlalchemy.engine import make_url

from referee.web import sharing
from referee.web.database import SQLITE_BUSY_TIMEOUT_MS
from referee.web.extensions import db
from referee.web.serve import shown_path, shown_url
from tests.servers import PYTHON, REPO, ProductionServer, free_port, fresh_postgres, postgres_url, server_env

# --------------------------------------------------------------------------- the LAN server


def test_the_lan_server_start_line_and_request_log(tmp_path):
    server = ProductionServer("waitress", f"sqlite:///{tmp_path / 'room.sqlite'}", tmp_path / "log", quiet=False)
    with server:
        for path in ("/healthz", "/trece/g/AbCdEfGhIjKlMnOpQrSt", "/lang/es?next=/trece/g/meWmpUBiMFKYcdPCUk_NQrydpf",
                     "/lang/es?next=%2Ftrece%2Fg%2FmeWmpUBiMFKYcdPCUk_NQrydpf"):
            try:
                urllib.request.urlopen(server.url + path).close()
            except urllib.error.HTTPError as exc:
                assert exc.code == 404
        time.sleep(0.3)
        output = server.output()
    assert f"Serving Thirteen at http://127.0.0.1:{server.port}/ — Ctrl-C to stop" in output
    assert "█" not in output  # --host 127.0.0.1: no QR code for an address no phone can reach
    assert re.search(r"127\.0\.0\.1 GET /healthz 200 [0-9.]+ ms", output)
    assert "GET /trece/g/…" in output and " 404 " in output and "AbCd" not in output  # not one character of it
    assert "GET /lang/es?next=… 303" in output and "meWm" not in output


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


def _chunked_post(port: int, body: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(b"POST /trece/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                  b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        for i in range(0, len(body), 8192):
            part = body[i:i + 8192]
            s.sendall(b"%x\r\n" % len(part) + part + b"\r\n")
        s.sendall(b"0\r\n\r\n")
        return s.recv(4096)


@pytest.mark.parametrize("kind", ["waitress", "gunicorn"])
def test_every_server_refuses_a_chunked_body_past_the_limit_with_a_413(tmp_path, kind):
    form = b"name0=Ana&name1=Ben&dealer=0&turned_rank=Q&turned_suit=h"
    with ProductionServer(kind, f"sqlite:///{tmp_path / 'room.sqlite'}", tmp_path / "log", workers=1) as server:
        too_large = _chunked_post(server.port, form + b"&pad=" + b"x" * 100_000)
        within = _chunked_post(server.port, b"pad=" + b"x" * 30_000 + b"&" + form)  # the names come last
    assert too_large.startswith(b"HTTP/1.1 413")
    assert within.startswith(b"HTTP/1.1 303") and b"/trece/g/" in within  # every field read


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
    migrations = len(list((REPO / "referee" / "web" / "migrations" / "versions").glob("*.py")))
    assert output.count("Running upgrade") == migrations  # once each, in the master,
    assert output.rindex("Running upgrade") < output.index("Booting worker")  # before the workers forked


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
    pinned = (REPO / "requirements.txt").read_text(encoding="utf-8")
    assert re.search(r"^gunicorn==[0-9.]+$", pinned, re.M)


def _dockerfile_steps() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n\s*", " ", (REPO / "Dockerfile").read_text(encoding="utf-8"))
    steps = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, argument = line.partition(" ")
            steps.append((instruction.upper(), argument.strip()))
    return steps


def _clean_tree(folder: Path) -> Path:
    """The files git tracks, as they are now (no node_modules, no .mo, no instance/): the build
    context a fresh clone gives ``docker build``."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (REPO / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, folder / name)
    return folder


def build_as_the_dockerfile_does(context: Path, root: Path) -> tuple[Path, dict[str, str]]:
    """Run the Dockerfile's steps without Docker: each stage is a folder under ``root``; COPY
    copies from the build context or an earlier stage; RUN runs in the stage's working folder,
    except the steps that change the system (``pip install`` — this venv holds the pinned
    requirements — and ``useradd``).  Returns the last stage's working folder and its ENV."""
    stages: dict[str, Path] = {}
    stage = workdir = root
    env: dict[str, str] = {}
    for instruction, argument in _dockerfile_steps():
        if instruction == "FROM":
            name = argument.split(" AS ")[-1].strip() if " AS " in argument else str(len(stages))
            stage = workdir = root / f"stage-{name}"
            stage.mkdir(parents=True)
            stages[name] = stage
            env = {}
        elif instruction == "WORKDIR":
            workdir = stage / argument.lstrip("/")
            workdir.mkdir(parents=True, exist_ok=True)
        elif instruction == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", argument)))
        elif instruction == "COPY":
            parts = argument.split()
            source_root = context
            if parts[0].startswith("--from="):
                source_root = stages[parts.pop(0).removeprefix("--from=")]
            *sources, target = parts
            for source in sources:
                found = source_root / source.lstrip("/")
                assert found.exists(), f"the Dockerfile copies {source}, which the build does not have"
                into = workdir / target
                if found.is_dir():
                    shutil.copytree(found, into, dirs_exist_ok=True)
                else:
                    (into if target.endswith("/") else into.parent).mkdir(parents=True, exist_ok=True)
                    shutil.copy2(found, into / found.name if target.endswith("/") else into)
        elif instruction == "RUN":
            if argument.startswith(("pip install", "useradd")):
                continue
            # npm takes what its cache holds first (this machine may have no internet).
            done = subprocess.run(["bash", "-c", argument], cwd=workdir, capture_output=True, text=True, timeout=300,
                                  env={**os.environ, "PATH": f"{Path(PYTHON).parent}:{os.environ['PATH']}",
                                       "npm_config_prefer_offline": "true"})
            assert done.returncode == 0, f"RUN {argument} failed:\n{done.stdout}\n{done.stderr}"
    return workdir, env


_IMAGE_CHECK = """
import json, sys
from app import create_app
app = create_app({"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "x"})
client = app.test_client()
sw = client.get("/sw.js")
workbox = [line for line in sw.get_data(as_text=True).split('"') if "workbox-core" in line]
home = client.get("/", headers={"Accept-Language": "vi"}).get_data(as_text=True)
print(json.dumps({"sw": sw.status_code, "workbox": client.get(workbox[0]).status_code if workbox else None,
                  "vi": 'lang="vi"' in home and "Tiến lên" in home and "Check a play" not in home}))
"""


def test_the_image_serves_the_service_worker_and_every_language_built_from_a_clean_tree(tmp_path):
    context = _clean_tree(tmp_path / "context")
    app_folder, env = build_as_the_dockerfile_does(context, tmp_path / "image")
    assert (app_folder / "node_modules" / "workbox-core" / "build" / "workbox-core.prod.js").is_file()
    for code in ("es", "pt", "vi"):
        assert (app_folder / "translations" / code / "LC_MESSAGES" / "messages.mo").is_file()
    done = subprocess.run([PYTHON, "-c", _IMAGE_CHECK, f"sqlite:///{tmp_path / 'image.sqlite'}"], cwd=app_folder,
                          env={**os.environ, **env, "PYTHONPATH": str(app_folder)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"sw": 200, "workbox": 200, "vi": True}
    assert "runs without" not in done.stderr  # the start line names nothing missing


def test_the_app_says_in_one_line_what_it_runs_without(tmp_path):
    context = _clean_tree(tmp_path / "context")  # no pybabel compile, no npm ci
    done = subprocess.run([PYTHON, "-c", _IMAGE_CHECK, f"sqlite:///{tmp_path / 'bare.sqlite'}"], cwd=context,
                          env={**os.environ, "PYTHONPATH": str(context)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "runs without" in line]
    assert len(said) == 1
    assert "compiled translations for es, pt, vi" in said[0] and "Workbox" in said[0]
    answers = json.loads(done.stdout.splitlines()[-1])
    assert answers["sw"] == 404
    assert answers["vi"] is False  # and the page does not claim to be Vietnamese (below)


def test_without_compiled_translations_a_page_does_not_claim_another_language(make_app, monkeypatch, tmp_path):
    from referee.web import i18n

    monkeypatch.setattr(i18n, "compiled", lambda app, code: code == "es")
    client = make_app().test_client()
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "vi"}).get_data(as_text=True)
    assert 'lang="es"' in client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)


def test_the_healthcheck_asks_the_port_the_server_listens_on(tmp_path):
    healthcheck = next(argument for instruction, argument in _dockerfile_steps() if instruction == "HEALTHCHECK")
    command = json.loads(healthcheck.split(" CMD ", 1)[1])
    with ProductionServer("waitress", f"sqlite:///{tmp_path / 'room.sqlite'}", tmp_path / "log") as server:
        done = subprocess.run([PYTHON if command[0] == "python" else command[0], *command[1:]], timeout=30,
                              env={**os.environ, "PORT": str(server.port)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_gunicorn_listens_on_this_computer_only_unless_told(monkeypatch):
    import runpy

    monkeypatch.delenv("LISTEN_HOST", raising=False)
    monkeypatch.setenv("PORT", "8631")
    monkeypatch.setenv("THIRTEEN_THREADS", "")  # the config sets it; undone after the test
    assert runpy.run_path(str(REPO / "gunicorn.conf.py"))["bind"] == ["127.0.0.1:8631"]
    monkeypatch.setenv("LISTEN_HOST", "0.0.0.0")
    assert runpy.run_path(str(REPO / "gunicorn.conf.py"))["bind"] == ["0.0.0.0:8631"]
    assert re.search(r"^\s*LISTEN_HOST=0\.0\.0\.0", (REPO / "Dockerfile").read_text(encoding="utf-8"), re.M)


PASSWORD = "p@ss:w/rd %20?#&+ é"


def _compose_web_environment(password: str) -> dict[str, str]:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    values = {"POSTGRES_PASSWORD": password, "SECRET_KEY": "k", "PUBLIC_URL": "https://t.example.org"}

    def interpolate(value: object) -> str:  # ${NAME}, ${NAME:?…}, ${NAME:-default}, as compose reads them
        return re.sub(r"\$\{(\w+)(?::[?-]([^}]*))?\}",
                      lambda m: values.get(m.group(1), m.group(2) or ""), str(value))

    return {key: interpolate(value) for key, value in compose["services"]["web"]["environment"].items()}


def test_the_compose_file_runs_the_app_on_postgres():
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    web, database = compose["services"]["web"], compose["services"]["db"]
    assert database["image"].startswith("postgres:")
    assert {"SECRET_KEY", "PUBLIC_URL", "WEB_CONCURRENCY"} <= set(web["environment"])
    assert web["depends_on"]["db"]["condition"] == "service_healthy"


def test_a_compose_password_with_any_character_reaches_postgres_as_typed(monkeypatch):
    from app import create_app

    environment = _compose_web_environment(PASSWORD)
    for key in ("DATABASE_URL", "POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"):
        monkeypatch.delenv(key, raising=False)
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("AUTO_MIGRATE", "0")
    url = make_url(create_app().config["SQLALCHEMY_DATABASE_URI"])
    assert (url.drivername, url.username, url.password, url.host, url.port, url.database) == (
        "postgresql+psycopg", "thirteen", PASSWORD, "db", 5432, "thirteen")


@pytest.mark.postgres
def test_an_app_given_postgres_settings_with_an_odd_password_comes_up(monkeypatch):
    from app import create_app

    server = make_url(postgres_url())
    with fresh_postgres(postgres_url()) as database_url:
        database = make_url(database_url).database
        monkeypatch.delenv("DATABASE_URL", raising=False)
        for key, value in {"POSTGRES_HOST": server.host, "POSTGRES_PORT": str(server.port),
                           "POSTGRES_USER": server.username, "POSTGRES_DB": database,
                           "POSTGRES_PASSWORD": PASSWORD, "SECRET_KEY": "k"}.items():
            monkeypatch.setenv(key, value)
        app = create_app()
        try:
            assert app.test_client().get("/healthz").status_code == 200
        finally:
            with app.app_context():
                db.engine.dispose()


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


# --------------------------------------------------------------------------- ./scripts/serve without internet


def _no_registry(tmp_path: Path, *, cache: Path | None) -> dict[str, str]:
    """npm's settings for a table without internet: every request goes to a closed port."""
    closed = f"http://127.0.0.1:{free_port()}/"
    env = {**os.environ, "npm_config_proxy": closed, "npm_config_https_proxy": closed,
           "npm_config_update_notifier": "false"}
    if cache is not None:
        env["npm_config_cache"] = str(cache)
    return env


def test_npm_install_without_internet_and_an_empty_cache_says_so_in_one_line_and_keeps_the_old_files(tmp_path):
    tree = _clean_tree(tmp_path / "tree")
    (tree / "node_modules").mkdir()
    (tree / "node_modules" / "kept.txt").write_text("an older install")
    (tree / "node_modules" / ".thirteen-lock").write_text("an older lock file")
    done = subprocess.run(["scripts/npm-install"], cwd=tree, env=_no_registry(tmp_path, cache=tmp_path / "empty-cache"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stderr.strip().count("\n") == 0 and "runs without a service worker" in done.stderr
    assert (tree / "node_modules" / "kept.txt").is_file()


def test_npm_install_without_internet_takes_what_the_cache_holds(tmp_path):
    tree = _clean_tree(tmp_path / "tree")
    done = subprocess.run(["scripts/npm-install"], cwd=tree, env=_no_registry(tmp_path, cache=None),
                          capture_output=True, text=True, timeout=60)  # the cache scripts/test filled
    assert done.returncode == 0, done.stderr
    assert (tree / "node_modules" / "workbox-core" / "build" / "workbox-core.prod.js").is_file()
    assert (tree / "node_modules" / ".thirteen-lock").read_bytes() == (tree / "package-lock.json").read_bytes()


def test_serve_says_the_port_is_taken_before_installing_anything(tmp_path):
    tree = _clean_tree(tmp_path / "tree")
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        done = subprocess.run(["scripts/serve", "--host", "127.0.0.1", "--port", str(port)], cwd=tree,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"Port {port} is already in use on 127.0.0.1" in done.stderr
    assert not (tree / ".venv").exists()  # nothing slow ran first
