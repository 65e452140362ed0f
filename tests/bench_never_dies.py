"""The server never dies: ``python -m tests.bench_never_dies`` (PostgreSQL too when
``TEST_DATABASE_URL`` is set, e.g. after ``source scripts/pg-start``).  Issue 33's goals:

- **Crashes**: a group of 100 weekly evenings (:func:`tests.bench_groups.document`, about 250
  games) imported, then 1,000 requests of every page of the group and of its newest sheets and
  tables (:func:`tests.every_page.pages`), four at a time, on the LAN server (waitress) and on
  gunicorn (2 workers), SQLite and PostgreSQL, with ``PYTHONFAULTHANDLER=1``: the requests not
  answered 200 and the server processes that died (a segmentation fault, any death) are counted.
- **SIGKILL under 10 writing phones**: the LAN server's serving process killed while 10 phones
  write (each write with its write id, sent again until answered): the time from the kill to
  the next answered ``/healthz`` (polled every 10 ms), the acknowledged writes missing from the
  database, and the writes stored twice; :data:`KILLS` times.

Figures go in docs/hosting.md ("The LAN server comes back by itself").
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import create_engine

from tests.every_page import pages
from tests.servers import (
    REPO,
    ProductionServer,
    WritingPhones,
    children,
    fresh_postgres,
    server_env,
    serving_process,
)
from tests.test_fault import _new_game, _stored

REQUESTS = 1000
EVENINGS = 100
KILLS = 5
PHONES = 10


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def _make(url: str) -> str:
    made = subprocess.run([sys.executable, "-m", "tests.every_page", "make", url, str(EVENINGS)], cwd=REPO,
                          env=server_env(url), capture_output=True, text=True, timeout=900, check=True)
    return made.stdout.strip().splitlines()[-1]


def crashes(kind: str, url: str, folder: Path) -> str:
    group = _make(url)
    server = ProductionServer(kind, url, folder / f"{kind}.log", workers=2, env={"PYTHONFAULTHANDLER": "1"}).start()
    try:
        assert server.process is not None
        first = set(children(server.process.pid))
        every = pages(lambda path: _get(server.url + path), group)
        began = time.perf_counter()
        with ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(lambda n: _get(server.url + every[n % len(every)])[0], range(REQUESTS)))
        took = time.perf_counter() - began
        died = first - set(children(server.process.pid))
        log = server.output()
        fatal = log.count("Fatal Python error")
    finally:
        server.stop()
    wrong = Counter(s for s in statuses if s != 200)
    which = f" ({', '.join(f'{s} × {n}' for s, n in sorted(wrong.items()))})" if wrong else ""
    return (f"| {kind} | {'SQLite' if url.startswith('sqlite') else 'PostgreSQL'} | {len(every)} | {REQUESTS} | "
            f"{wrong.total()}{which} | {len(died) + fatal} | {took:.0f} s |")


def sigkill(folder: Path) -> list[str]:
    url = f"sqlite:///{folder / 'kill.sqlite'}"
    rows = []
    with ProductionServer("waitress", url, folder / "kill.log") as server:
        for number in range(1, KILLS + 1):
            deadline = time.monotonic() + 300
            while server.output().count("ready to take over") < number:
                assert time.monotonic() < deadline, server.output()
                time.sleep(0.1)
            phones = WritingPhones(server.url, [_new_game(server.url) for _ in range(PHONES)]).start()
            acknowledged = phones.acknowledged
            while phones.answered() < 50:
                time.sleep(0.02)
            os.kill(serving_process(server), signal.SIGKILL)
            killed = time.perf_counter()
            while True:
                try:
                    with urllib.request.urlopen(server.url + "/healthz", timeout=5):
                        back = time.perf_counter() - killed
                        break
                except OSError:
                    time.sleep(0.01)
            before = phones.answered()
            while phones.answered() < before + 50:
                time.sleep(0.02)
            phones.stop(120)
            engine = create_engine(url)
            lost = twice = 0
            try:
                for token, acked in acknowledged.items():
                    stored = [points for _, points in sorted(_stored(engine, token).items())]
                    lost += len(set(acked) - set(stored))
                    twice += len(stored) - len(set(stored))
            finally:
                engine.dispose()
            rows.append((back, phones.answered(), lost, twice))
    backs = [r[0] for r in rows]
    lines = [f"| {n} | {b * 1000:.0f} ms | {a} | {lost} | {twice} |" for n, (b, a, lost, twice) in enumerate(rows, 1)]
    lines.append(f"serving again after a SIGKILL: median {statistics.median(backs) * 1000:.0f} ms, "
                 f"at most {max(backs) * 1000:.0f} ms")
    return lines


def main() -> None:
    print("load average before: " + " ".join(f"{x:.1f}" for x in os.getloadavg()) + "\n")
    admin = os.environ.get("TEST_DATABASE_URL")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("| server | database | pages | requests | not 200 | processes died |  time |\n|---|---|---|---|---|---|---|")
        for kind in ("waitress", "gunicorn"):
            print(crashes(kind, f"sqlite:///{folder / (kind + '.sqlite')}", folder), flush=True)
            if admin:
                with fresh_postgres(admin) as url:
                    print(crashes(kind, url, folder), flush=True)
        print(f"\nSIGKILL of the LAN server's serving process under {PHONES} writing phones:\n")
        print("| kill | serving again after | writes acknowledged | acknowledged lost | stored twice |\n|---|---|---|---|---|")
        for line in sigkill(folder):
            print(line, flush=True)
    print("\nload average after: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    if not admin:
        print("(no TEST_DATABASE_URL: PostgreSQL not measured; source scripts/pg-start first)", file=sys.stderr)


if __name__ == "__main__":
    main()
