"""A PostgreSQL frozen (its processes stopped) under a table of phones polling and writing.

``python -m tests.bench_hung_database [--server gunicorn|waitress] [--phones 20] [--freeze 40]``:
prints, while the database is frozen, the slowest answer of a static file and of ``/sw.js``, how
long pages and writes took to be answered 503, and how long after the database came back
everything answered again; the count of 500s (the goal: none)."""

from __future__ import annotations

import argparse
import signal
import tempfile
import threading
import time
from pathlib import Path

from tests.servers import PrivatePostgres, ProductionServer
from tests.test_database_faults import _new_game, _request, _round, _stylesheet


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="gunicorn")
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--freeze", type=float, default=40)
    args = parser.parse_args()
    with PrivatePostgres() as pg:
        server = ProductionServer(args.server, pg.url, Path(tempfile.mkdtemp()) / "log", workers=2, threads=4).start()
        try:
            tokens = [_new_game(server.url) for _ in range(args.phones // 4 or 1)]
            css = _stylesheet(server.url)
            stop = threading.Event()
            frozen = threading.Event()
            during: dict[str, list[float]] = {"static": [], "poll": [], "write": []}
            statuses: list[int] = []

            def phone(i: int) -> None:
                token, version = tokens[i % len(tokens)], 0
                while not stop.is_set():
                    for kind, method, path, fields in (
                            ("poll", "GET", f"/three-thirteen/g/{token}?since=0", None),
                            ("write", "POST", f"/three-thirteen/g/{token}/round/1", _round(i, version)),
                            ("static", "GET", css if i % 2 else "/sw.js", None)):
                        started = time.monotonic()
                        try:
                            status = _request(server.url, method, path, fields)[0]
                        except OSError:
                            status = 0
                        if frozen.is_set():
                            during[kind].append(time.monotonic() - started)
                        statuses.append(status)
                    time.sleep(1)

            phones = [threading.Thread(target=phone, args=(i,)) for i in range(args.phones)]
            for p in phones:
                p.start()
            time.sleep(3)
            pg.signal_all(signal.SIGSTOP)
            frozen.set()
            time.sleep(args.freeze)
            frozen.clear()
            pg.signal_all(signal.SIGCONT)
            back = time.monotonic()
            while _request(server.url, "GET", f"/three-thirteen/g/{tokens[0]}")[0] != 200:
                time.sleep(0.1)
            recovered = time.monotonic() - back
            time.sleep(2)
            stop.set()
            for p in phones:
                p.join(60)
        finally:
            server.stop()
    print(f"{args.server}, {args.phones} phones, database frozen {args.freeze:.0f} s:")
    for kind, times in during.items():
        if times:
            print(f"  {kind}: {len(times)} answers while frozen, slowest {max(times):.2f} s")
    print(f"  pages back {recovered:.2f} s after the database; HTTP 500: {statuses.count(500)}; "
          f"no answer: {statuses.count(0)}")


if __name__ == "__main__":
    main()
