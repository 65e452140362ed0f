"""A room under load: N tables × M watching phones polling as htmx does, keepers saving rounds.

Run on demand (not part of the suite), against the production server on loopback:

    .venv/bin/python -m tests.bench_room --tables 10 --watchers 20              # 200 phones, waitress
    .venv/bin/python -m tests.bench_room --tables 50 --watchers 20              # 1,000 phones
    .venv/bin/python -m tests.bench_room --tables 50 --watchers 20 --server gunicorn --workers 2
    .venv/bin/python -m tests.bench_room --flood 1000      # limits on; one address starts 1,000 games

With ``--flood N`` the server runs with its limits on (``RATE_LIMITS=1``) and, a third of the way
into the run, one other address (``X-Forwarded-For`` from loopback, a trusted proxy) asks to start
N games as fast as the server answers, four at a time; the run then prints what the flood was
answered.  Compare the room's poll p99 with a run without it (issue 39: within 1.5×).

It starts the server itself on a free loopback port with a fresh SQLite file (``--database URL``
for PostgreSQL), or measures one already running (``--url http://127.0.0.1:PORT``; only loopback
addresses are accepted).  Each watching phone keeps its own connection, asks
``/three-thirteen/g/<watch>?since=<version>`` every 3 s (``HX-Request: true``, a random phase),
and follows the news; each table's keeper saves a round of three hands entered as cards (the
referee judges and splits each) every ``--write-every`` seconds (default 6).  The
run is bounded by ``--seconds`` and ``--max-requests``.  It prints requests per second, p50/p99
of all polls, of empty polls (204), polls with news (200) and writes, the errors, and whether every watcher
ended on its table's final version; then the CPU time the server used per request (a figure
that does not depend on what else the machine is doing) and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.web.sharing import is_loopback  # noqa: E402
from tests.servers import ProductionServer  # noqa: E402

POLL_SECONDS = 3.0
VERSION = re.compile(r'data-version="(\d+)"')
WATCH = re.compile(r'id="watch-link" type="text" readonly value="[^"]*/three-thirteen/g/([A-Za-z0-9_-]+)"')
HX = {"HX-Request": "true", "HX-Current-URL": "http://127.0.0.1/", "Sec-Fetch-Site": "same-origin"}


@dataclass
class Tally:
    empty: list[float] = field(default_factory=list)
    news: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    stale_writes: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return len(self.empty) + len(self.news) + len(self.writes) + self.stale_writes + len(self.errors)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@dataclass
class Table:
    keeper: str
    watch: str
    version: int = 0
    watchers: list[int] = field(default_factory=list)  # each watcher's last version


async def create_table(session: aiohttp.ClientSession, base: str) -> Table:
    async with session.post(f"{base}/three-thirteen/new", data={"names": ["Ana", "Bao", "Chi"], "dealer": "0"},
                            allow_redirects=False) as response:
        assert response.status == 303, await response.text()
        keeper = response.headers["Location"].rsplit("/", 1)[-1]
    async with session.get(f"{base}/three-thirteen/g/{keeper}") as response:
        page = await response.text()
    match = WATCH.search(page)
    assert match, "no watch link on the keeper's page"
    return Table(keeper, match.group(1))


async def watcher(base: str, table: Table, index: int, tally: Tally, until: float, budget: list[int]) -> None:
    """One phone: its own connection, a poll every 3 s at its own phase, following the news."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        version = 0
        table.watchers[index] = version
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        next_at = time.monotonic()
        while time.monotonic() < until and budget[0] > 0:
            budget[0] -= 1
            started = time.perf_counter()
            try:
                async with session.get(f"{base}/three-thirteen/g/{table.watch}", params={"since": str(version)},
                                       headers=HX) as response:
                    body = await response.read()
                    took = time.perf_counter() - started
                    if response.status == 204:
                        tally.empty.append(took)
                    elif response.status == 200:
                        tally.news.append(took)
                        version = int(VERSION.search(body.decode()).group(1))  # type: ignore[union-attr]
                        table.watchers[index] = version
                    else:
                        tally.errors.append(f"poll {response.status}")
            except (TimeoutError, aiohttp.ClientError) as exc:
                tally.errors.append(f"poll {type(exc).__name__}")
            next_at += POLL_SECONDS
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


OUT_HAND = ["4h", "5h", "6h"]  # round 1 deals 3 cards: the keeper's own hand went out on a run
DECK = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for suit in "shdc" if f"{rank}{suit}" not in OUT_HAND]


def round_form(version: int) -> dict[str, object]:
    """Round 1 of a three-player table, every hand entered as cards (the referee splits each)."""
    others = random.sample(DECK, 6)
    return {"version": str(version), "out": "0", "cards_0": " ".join(OUT_HAND),
            "cards_1": " ".join(others[:3]), "cards_2": " ".join(others[3:])}


async def keeper(base: str, table: Table, tally: Tally, until: float, every: float, budget: list[int]) -> None:
    """The table's keeper: saves round 1 again (three hands as cards) every ``every`` seconds."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        await asyncio.sleep(random.uniform(0, every))
        while time.monotonic() < until and budget[0] > 0:
            budget[0] -= 1
            form = round_form(table.version)
            started = time.perf_counter()
            try:
                async with session.post(f"{base}/three-thirteen/g/{table.keeper}/round/1", data=form,
                                        headers={"Sec-Fetch-Site": "same-origin"}, allow_redirects=False) as response:
                    await response.read()
                    took = time.perf_counter() - started
                    if response.status == 303:
                        tally.writes.append(took)
                        table.version += 1
                    elif response.status == 409:
                        tally.stale_writes += 1
                    else:
                        tally.errors.append(f"write {response.status}")
            except (TimeoutError, aiohttp.ClientError) as exc:
                tally.errors.append(f"write {type(exc).__name__}")
            await asyncio.sleep(every * random.uniform(0.8, 1.2))


FLOOD_ADDRESS = "10.66.0.1"


async def flood(base: str, count: int, start: float, answers: dict[int, int], took: list[float]) -> None:
    """One address starting ``count`` games, four at a time, from ``start`` on."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    began = time.monotonic()
    headers = {"X-Forwarded-For": FLOOD_ADDRESS, "Sec-Fetch-Site": "same-origin"}
    queue = list(range(count))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=4)) as session:
        async def one_by_one() -> None:
            while queue:
                queue.pop()
                try:
                    async with session.post(f"{base}/three-thirteen/new", headers=headers, allow_redirects=False,
                                            data={"names": ["Ana", "Bao", "Chi"], "dealer": "0"}) as response:
                        await response.read()
                        answers[response.status] = answers.get(response.status, 0) + 1
                except aiohttp.ClientError:
                    answers[0] = answers.get(0, 0) + 1
        await asyncio.gather(*(one_by_one() for _ in range(4)))
    took.append(time.monotonic() - began)


def group_cpu_seconds(group: int | None) -> float | None:
    """CPU time used so far by every process of a process group (the server and its workers)."""
    if group is None:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # field 5 of stat: the process group
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def run_room(base: str, tables: int, watchers: int, seconds: float, every: float, max_requests: int,
                   server_group: int | None = None, flood_games: int = 0) -> None:
    async with aiohttp.ClientSession() as session:
        room = [await create_table(session, base) for _ in range(tables)]
    for t in room:
        t.watchers = [0] * watchers
    tally = Tally()
    budget = [max_requests]
    server_cpu, client_cpu, load = group_cpu_seconds(server_group), time.process_time(), os.getloadavg()[0]
    started = time.monotonic()
    until = started + seconds
    tasks = [asyncio.create_task(keeper(base, t, tally, until, every, budget)) for t in room]
    tasks += [asyncio.create_task(watcher(base, t, i, tally, until + 2 * POLL_SECONDS, budget))
              for t in room for i in range(watchers)]
    flooded: dict[int, int] = {}
    flood_took: list[float] = []
    if flood_games:
        tasks.append(asyncio.create_task(flood(base, flood_games, started + seconds / 3, flooded, flood_took)))
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=seconds + 60)
    elapsed = time.monotonic() - started
    client_cpu = time.process_time() - client_cpu
    if server_cpu is not None:
        server_cpu = (group_cpu_seconds(server_group) or 0) - server_cpu
    behind = sum(1 for t in room for v in t.watchers if v != t.version)
    ms = 1000
    print(f"room: {tables} tables x {watchers} watching phones = {tables * watchers} phones, "
          f"keepers saving every ~{every:g} s, {elapsed:.0f} s")
    print(f"requests/s: {tally.requests / elapsed:.0f}  ({tally.requests} requests)")
    polls = tally.empty + tally.news
    print(f"polls, all        : {len(polls):6d}  p50 {percentile(polls, 50) * ms:6.1f} ms  "
          f"p99 {percentile(polls, 99) * ms:6.1f} ms")
    print(f"polls, empty (204): {len(tally.empty):6d}  p50 {percentile(tally.empty, 50) * ms:6.1f} ms  "
          f"p99 {percentile(tally.empty, 99) * ms:6.1f} ms")
    print(f"polls, news  (200): {len(tally.news):6d}  p50 {percentile(tally.news, 50) * ms:6.1f} ms  "
          f"p99 {percentile(tally.news, 99) * ms:6.1f} ms")
    print(f"writes       (303): {len(tally.writes):6d}  p50 {percentile(tally.writes, 50) * ms:6.1f} ms  "
          f"p99 {percentile(tally.writes, 99) * ms:6.1f} ms  stale (409): {tally.stale_writes}")
    kinds: dict[str, int] = {}
    for e in tally.errors:
        kinds[e] = kinds.get(e, 0) + 1
    print(f"errors: {len(tally.errors)} {kinds if kinds else ''}".rstrip())
    cpu = "" if server_cpu is None else (f"server CPU {server_cpu:.1f} s = {server_cpu / max(1, tally.requests) * ms:.2f}"
                                         f" ms a request; ")
    print(f"{cpu}load test client CPU {client_cpu:.1f} s; machine load average {load:.1f} at the start"
          f" ({os.cpu_count()} cores)")
    converged = tables * watchers - behind
    print(f"converged: {converged}/{tables * watchers} watchers on their table's final version"
          + ("" if behind == 0 else f"  ({behind} behind)"))
    if flood_games:
        print(f"flood: {flood_games} new games asked by {FLOOD_ADDRESS} in {flood_took[0] if flood_took else 0:.1f} s,"
              f" answered {dict(sorted(flooded.items()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--watchers", type=int, default=20, help="watching phones per table")
    parser.add_argument("--seconds", type=float, default=30, help="how long keepers write (default 30)")
    parser.add_argument("--write-every", type=float, default=6.0, help="seconds between a keeper's saves")
    parser.add_argument("--max-requests", type=int, default=200_000, help="stop after this many requests")
    parser.add_argument("--server", choices=["waitress", "gunicorn"], default="waitress")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=None, help="threads (waitress) or per worker (gunicorn)")
    parser.add_argument("--database", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--url", default=None, help="a server already running on loopback")
    parser.add_argument("--flood", type=int, default=0, help="limits on; one address asks to start this many games")
    args = parser.parse_args()
    if args.seconds > 300 or args.tables * args.watchers > 5000:
        parser.error("keep runs short and rooms at most 5,000 phones: the machine is shared")
    if args.url:
        if not is_loopback(urlsplit(args.url).hostname):
            parser.error("only a server on loopback (127.0.0.1, ::1, localhost) may be measured")
        asyncio.run(run_room(args.url.rstrip("/"), args.tables, args.watchers, args.seconds, args.write_every,
                             args.max_requests, flood_games=args.flood))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{Path(tmp) / 'room.sqlite'}"
        limits = {"RATE_LIMITS": "1", "FORWARDED_ALLOW_IPS": "127.0.0.1"} if args.flood else {}
        server = ProductionServer(args.server, database, Path(tmp) / "server.log", workers=args.workers,
                                  threads=args.threads, env=limits)
        with server:
            label = f"{args.server}" + (f", {args.workers} workers" if args.server == "gunicorn" else "")
            print(f"server: {label}, {urlsplit(database).scheme}, {server.url}")
            group = server.process.pid if server.process else None
            asyncio.run(run_room(server.url, args.tables, args.watchers, args.seconds, args.write_every,
                                 args.max_requests, group, flood_games=args.flood))
    return 0


if __name__ == "__main__":
    sys.exit(main())
