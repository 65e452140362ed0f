"""The production servers in a subprocess, on loopback, for the hosting, fault and load tests.

``ProductionServer("waitress", url)`` runs ``python -m referee.web.serve`` (the LAN server);
``ProductionServer("gunicorn", url, workers=2)`` runs gunicorn with ``gunicorn.conf.py``.
:func:`fresh_postgres` makes an empty PostgreSQL database on the test cluster and drops it after.
:func:`serving_process` names the process of a server that answers (the LAN server's serving child,
a gunicorn worker) and :func:`writing_phone` writes as a phone does, again until answered.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


@functools.cache
def postgres_url() -> str:
    """The test PostgreSQL database: on the cluster ``./scripts/test`` starts (``TEST_DATABASE_URL``),
    a database of this test process's own when the suite runs in several (pytest-xdist's
    ``PYTEST_XDIST_WORKER``), made on first use, so no two processes share tables or a migration lock."""
    import pytest

    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.fail("TEST_DATABASE_URL is not set: run the suite with ./scripts/test, which starts PostgreSQL")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return url
    name = f"thirteen_{worker}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            if connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}).first() is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_URL", "AUTO_MIGRATE", "WEB_CONCURRENCY")}
    env.update(DATABASE_URL=database_url, SECRET_KEY="test", PYTHONPATH=str(REPO), **extra)
    return env


def _ctrl_c_as_in_a_terminal() -> Callable[[], None] | None:
    """What puts Ctrl-C (SIGINT) back as a terminal has it in a server started now, when the tests
    run with it ignored: a script's job started in the background (``cmd &``) ignores SIGINT, and
    every process it starts inherits that, so a server told to stop by Ctrl-C would not (its event
    streams never ended: a test of the restart hung 300 s in a whole run started that way)."""
    if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        return None
    return _default_ctrl_c


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class ProductionServer:
    """One production server process (and its workers) on a free loopback port."""

    def __init__(self, kind: str, database_url: str, log: Path, *, workers: int = 2, port: int | None = None,
                 quiet: bool = True, threads: int | None = None, env: dict[str, str] | None = None) -> None:
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
        self.env.update(env or {})
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> ProductionServer:
        out = self.log.open("ab")
        self.process = subprocess.Popen(self.command, cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                        start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal())
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


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (state, parent, ...), or
    ``[]`` once the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


class PrivatePostgres:
    """A PostgreSQL cluster of its own (``initdb`` in a temporary folder), for tests that stop,
    freeze or crash the server without touching the suite's cluster."""

    def __init__(self) -> None:
        import tempfile

        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
        if not bins:
            import pytest

            pytest.fail("PostgreSQL is not installed (/usr/lib/postgresql/*/bin)")
        self.bin = bins[-1]
        self.folder = Path(tempfile.mkdtemp(prefix="thirteen-pg-"))  # the postgres user reaches /tmp/x
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://thirteen@127.0.0.1:{self.port}/postgres"
        self.folder.chmod(0o777)

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> PrivatePostgres:
        if not self.data.exists():
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "thirteen", "--auth=trust", "-E", "UTF8")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "-l", str(self.folder / "log"), "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def processes(self) -> list[int]:
        """The postmaster and every process it started."""
        main = int((self.data / "postmaster.pid").read_text().split()[0])
        children = [int(proc.name) for proc in Path("/proc").glob("[0-9]*") if _stat(proc.name)[1:2] == [str(main)]]
        return [main, *children]

    def states(self) -> dict[int, str]:
        """Each process of the cluster and its state letter (``T``: stopped)."""
        return {pid: (_stat(pid) or [""])[0] for pid in self.processes()}

    def signal_all(self, signum: int) -> None:
        """``signum`` to the postmaster first (a stopped one starts no new process), then to the
        processes it started, twice over (one forked meanwhile is caught the second time)."""
        for _ in range(2):
            for pid in self.processes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signum)
        if signum == signal.SIGSTOP:  # a test of a database that hangs starts only once every process is stopped
            deadline = time.monotonic() + 10
            while running := [pid for pid, state in self.states().items() if state not in ("T", "t", "Z", "X", "")]:
                assert time.monotonic() < deadline, f"PostgreSQL processes not stopped: {running}"
                for pid in running:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signum)
                time.sleep(0.05)

    def crash(self) -> None:
        """SIGKILL the postmaster and its processes: a crash, recovered at the next start."""
        self.signal_all(signal.SIGCONT)
        self.signal_all(signal.SIGKILL)
        deadline = time.monotonic() + 10
        while (self.data / "postmaster.pid").exists() and time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, IndexError):
                os.kill(int((self.data / "postmaster.pid").read_text().split()[0]), 0)
                time.sleep(0.1)
                continue
            (self.data / "postmaster.pid").unlink(missing_ok=True)

    def __enter__(self) -> PrivatePostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.signal_all(signal.SIGCONT)
        with contextlib.suppress(Exception):
            self.stop("immediate")
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


# --------------------------------------------------------------------------- one process of a server killed


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (the LAN server's children, gunicorn's workers)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError):
            if proc.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1] == str(pid):
                found.append(int(proc.name))
    return found


def serving_process(server: ProductionServer) -> int:
    """The process answering requests: the LAN server's serving child (its supervisor says which), a
    gunicorn worker."""
    assert server.process is not None
    if server.kind == "waitress":
        return int(re.findall(r"process (\d+) serving", server.output())[-1])
    return children(server.process.pid)[0]


def worker_sockets(master: int, port: int) -> dict[int, int]:
    """Each gunicorn worker (a child of ``master``) and how many connections to ``port`` it holds."""
    inodes: dict[str, int] = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent != master:
            continue
        for fd in (proc / "fd").glob("*"):
            try:
                link = os.readlink(fd)
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes[link[8:-1]] = int(proc.name)
    held: dict[int, int] = {pid: 0 for pid in set(inodes.values())}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:  # established, to the server
                held[inodes[fields[9]]] += 1
    return held


class WritingPhones:
    """A phone a game (``tokens``: each its own) writing in a thread of its own
    (:func:`writing_phone`) from :meth:`start` to :meth:`stop`; ``acknowledged``: each game's
    points answered 303, in order."""

    def __init__(self, url: str, tokens: list[str]) -> None:
        self.acknowledged: dict[str, list[int]] = {t: [] for t in tokens}
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=writing_phone, args=(url, t, n, self.acknowledged[t], self._stop))
                         for n, t in enumerate(tokens)]

    def start(self) -> WritingPhones:
        for phone in self._threads:
            phone.start()
        return self

    def answered(self) -> int:
        """How many writes were acknowledged so far, over every phone."""
        return sum(map(len, self.acknowledged.values()))

    def stop(self, wait: float) -> None:
        """The phones stop after the write they are sending (waiting up to ``wait`` s each)."""
        self._stop.set()
        for phone in self._threads:
            phone.join(wait)


def writing_phone(url: str, token: str, number: int, acknowledged: list[int], stop: threading.Event) -> None:
    """A phone correcting round 1 again and again, each write with its own write id: a write that
    got no answer (the connection cut, a 5xx) is sent again as it was, as the phone's outbox does,
    until it is answered; ``acknowledged`` gets each write's points once it is answered 303."""
    host = urllib.parse.urlsplit(url).netloc
    seen, points = 0, 0
    while not stop.is_set():
        points += 1
        fields = {"version": seen, "out": ["0"], "cards_0": "4h 5h 6h", "points_0": "", "cards_1": "",
                  "points_1": points}
        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-Thirteen-Write": f"phone{number}write{points}"}  # [0-9a-z]{6,40}
        for _ in range(600):  # sent again for up to about a minute
            connection = http.client.HTTPConnection(host, timeout=30)
            try:
                connection.request("POST", f"/three-thirteen/g/{token}/round/1", urllib.parse.urlencode(fields, doseq=True),
                                   headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
                continue
            finally:
                connection.close()
            if response.status == 303:
                acknowledged.append(points)
                seen += 1
                break
            assert response.status >= 500, f"write {points} of phone {number} answered {response.status}"
            time.sleep(0.1)
        else:
            raise AssertionError(f"write {points} of phone {number} was never answered")
