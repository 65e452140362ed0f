"""The production servers in a subprocess, on loopback, for the hosting, fault and load tests.

``ProductionServer("waitress", url)`` runs ``python -m referee.web.serve`` (the LAN server);
``ProductionServer("gunicorn", url, workers=2)`` runs gunicorn with ``gunicorn.conf.py``.
:func:`fresh_postgres` makes an empty PostgreSQL database on the test cluster and drops it after.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def postgres_url() -> str:
    """The test PostgreSQL cluster (``./scripts/test`` starts one and sets ``TEST_DATABASE_URL``)."""
    import pytest

    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.fail("TEST_DATABASE_URL is not set: run the suite with ./scripts/test, which starts PostgreSQL")
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_URL", "AUTO_MIGRATE", "WEB_CONCURRENCY")}
    env.update(DATABASE_URL=database_url, SECRET_KEY="test", PYTHONPATH=str(REPO), **extra)
    return env


class ProductionServer:
    """One production server process (and its workers) on a free loopback port."""

    def __init__(self, kind: str, database_url: str, log: Path, *, workers: int = 2, port: int | None = None,
                 quiet: bool = True, threads: int | None = None) -> None:
        self.kind = kind
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        if kind == "waitress":
            self.command = [PYTHON, "-m", "referee.web.serve", "--host", "127.0.0.1", "--port", str(self.port)]
            if quiet:
                self.command.append("--quiet")
            if threads:
                self.command += ["--threads", str(threads)]
            self.env = server_env(database_url)
        elif kind == "gunicorn":
            self.command = [PYTHON, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}"]
            extra = {"WEB_CONCURRENCY": str(workers)}
            if quiet:
                extra["GUNICORN_ACCESS_LOG"] = "/dev/null"
            if threads:
                extra["GUNICORN_THREADS"] = str(threads)
            self.env = server_env(database_url, **extra)
        else:
            raise ValueError(f"no production server called {kind!r}")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> ProductionServer:
        out = self.log.open("ab")
        self.process = subprocess.Popen(self.command, cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.kind} server exited ({self.process.returncode}):\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the {self.kind} server did not answer /healthz in {timeout} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL the server and every worker it started (its process group): no clean-up at all."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> ProductionServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def fresh_postgres(admin_url: str) -> Iterator[str]:
    """An empty database on the cluster of ``admin_url``, dropped afterwards."""
    name = f"thirteen_{secrets.token_hex(6)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
