"""Live at the table under load: how long a saved round takes to show on every watching phone.

Run on demand (not part of the suite), against the production servers on loopback:

    .venv/bin/python -m tests.bench_live                                   # both servers, 1,000 phones
    .venv/bin/python -m tests.bench_live --server waitress --tables 10     # the LAN server, 200 phones
    .venv/bin/python -m tests.bench_live --server gunicorn --workers 2     # PostgreSQL: TEST_DATABASE_URL
    .venv/bin/python -m tests.bench_live --plays --tables 10               # plays at Tiến lên tables
    .venv/bin/python -m tests.bench_live --fault both --tables 5 --watchers 10   # back after a fault

Each server is started on a free loopback port: the LAN server (waitress) on a fresh SQLite
file, gunicorn (``--workers``) on a fresh database of the PostgreSQL cluster of
``TEST_DATABASE_URL`` (or ``--database``).  Each watching phone does what a followed page does
(static/js/live.js): it opens its table's event stream (``<page>/live``) on one connection, takes
each fragment the stream sends, and on another connection fetches the fragment
(``?since=<version>``, htmx's headers) whenever an event names only a version it does not show,
plus a safety-net poll every 30 s.  Each table's keeper saves
a round every ``--write-every`` seconds (default 6); with ``--plays`` the tables are followed
Tiến lên tables and each keeper enters a play instead (every card of a fresh deck in turn, one
card a play, ``next`` when a player is out), each with its own write id as the phone's outbox
sends it.  A phone's *delivery* time is from the
keeper's write acknowledged (its 303 received) to that phone holding the fragment of that
version (0 if it held it before the keeper's answer came).  It prints, per server: the delivery
p50/p95/p99/max over every (write, phone), the keepers' writes p50/p99, the errors, how many
phones ended on their table's final version, the server's CPU time and the machine's load.

``--fault db-stop|worker-kill|both`` measures instead how soon every watcher is back after a
fault, on gunicorn (``--workers``) with a PostgreSQL cluster of its own (``initdb`` in a temporary
folder: the test cluster is never stopped).  Each phone follows its sheet as a browser's
EventSource does (a dropped stream opened again after the server's ``retry``, with
``Last-Event-ID``; a version it does not show fetched, as live.js asks the poll).  A round is
saved on every sheet and shown by every phone; then the fault: PostgreSQL stopped for 3 s and
started again (its end: the start answered), or the worker holding the most streams SIGKILLed
(its end: the kill).  At the fault's end each keeper saves a round, sent again (the same write id)
until answered.  It prints, per fault, from the fault's end to each phone's first event after it
and to each phone showing that round: p50/p95/max, and the phones that never showed it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import servers  # noqa: E402
from tests.bench_room import HX, Table, create_table, group_cpu_seconds, percentile, round_form  # noqa: E402
from tests.servers import PrivatePostgres, ProductionServer, children, fresh_postgres, worker_sockets  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)"')
TIENLEN_WATCH = re.compile(r'id="watch-link" type="text" readonly value="[^"]*/tienlen/g/([A-Za-z0-9_-]+)"')
SAFETY_SECONDS = 30.0
PLAYS = False
"""``--plays``: followed Tiến lên tables, the keeper entering plays (a deck's cards in order)."""
POLLING = False
"""``--poll``: the phones poll every 3 s as before the streams (a baseline measured the same way)."""


@dataclass
class Room:
    acked: dict[tuple[int, int], float] = field(default_factory=dict)  # (table, version) -> keeper's 303 received
    shown: list[tuple[int, int, float]] = field(default_factory=list)  # (table, version, a phone held it)
    writes: list[float] = field(default_factory=list)
    stale_writes: int = 0
    resent: int = 0
    """Saves sent again on a new connection: the kept-alive one was closed by the server."""
    fetches: int = 0
    errors: list[str] = field(default_factory=list)
    final: dict[int, int] = field(default_factory=dict)  # table -> its last version
    phones: dict[tuple[int, int], int] = field(default_factory=dict)  # (table, phone) -> version it shows
    streams_open: int = 0
    pushed: int = 0
    until: float = float("inf")


def page_of(token: str) -> str:
    """A table's followed page (a Three Thirteen sheet, or with ``--plays`` a Tiến lên table)."""
    return f"/tienlen/g/{token}" if PLAYS else f"/three-thirteen/g/{token}"


DECK = [rank + suit for rank in "3 4 5 6 7 8 9 T J Q K A 2".split() for suit in "scdh"]
HAND_WRITES = 50
"""A hand of the plays' script: Bao (seat 1) and the three after him play the deck's cards in
order, one a play, each beating the last; Bao's 13th card (the 49th play) is his last, he wins
and ``next`` deals again (he leads the next hand, which plays the same script)."""


def play_form(version: int) -> tuple[str, dict[str, str]]:
    """The keeper's next write at a Tiến lên table that is at ``version`` (only the keeper writes)."""
    step = version % HAND_WRITES
    if step == HAND_WRITES - 1:
        return "next", {"version": str(version)}
    return "play", {"version": str(version), "seat": str((1 + step) % 4), "cards": DECK[step]}


async def create_tienlen_table(session: aiohttp.ClientSession, base: str) -> Table:
    form = {"name0": "Ana", "name1": "Bao", "name2": "Chi", "name3": "Dung", "leader": "1", "hand_size": "13"}
    async with session.post(f"{base}/tienlen/new", data=form, headers={"Sec-Fetch-Site": "same-origin"},
                            allow_redirects=False) as response:
        assert response.status == 303, await response.text()
        keeper = response.headers["Location"].rsplit("/", 1)[-1]
    async with session.get(f"{base}/tienlen/g/{keeper}") as response:
        page = await response.text()
    match = TIENLEN_WATCH.search(page)
    assert match, "no watch link on the keeper's table"
    return Table(keeper, match.group(1))


async def phone(base: str, index: int, seat: int, watch: str, room: Room, far: float) -> None:
    """One watching phone: its stream on one connection, its fetches on another (until ``room.until``)."""
    version = 0
    room.phones[(index, seat)] = 0
    timeout = aiohttp.ClientTimeout(total=None, sock_read=40, sock_connect=20)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1), timeout=timeout) as streams, \
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                  timeout=aiohttp.ClientTimeout(total=30)) as fetches:
        lock = asyncio.Lock()
        last_asked = time.monotonic()

        async def fetch(said: int | None) -> None:
            nonlocal version, last_asked
            async with lock:
                if said is not None and said <= version:
                    return
                last_asked = time.monotonic()
                try:
                    async with fetches.get(f"{base}{page_of(watch)}", params={"since": str(version)},
                                           headers=HX) as response:
                        body = await response.read()
                        if response.status == 200:
                            room.fetches += 1
                            found = VERSION.search(body.decode())
                            if found:
                                version = int(found.group(1))
                                room.shown.append((index, version, time.monotonic()))
                                room.phones[(index, seat)] = version
                        elif response.status != 204:
                            room.errors.append(f"fetch {response.status}")
                except (TimeoutError, aiohttp.ClientError) as exc:
                    room.errors.append(f"fetch {type(exc).__name__}")

        async def safety_net() -> None:
            while time.monotonic() < room.until:
                await asyncio.sleep(1.0)
                if time.monotonic() - last_asked >= SAFETY_SECONDS:
                    await fetch(None)

        if POLLING:  # today's page without a stream: a poll every 3 s, at its own phase
            await asyncio.sleep(random.uniform(0, 3.0))
            next_at = time.monotonic()
            while time.monotonic() < room.until:
                await fetch(None)
                next_at += 3.0
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            return
        net = asyncio.create_task(safety_net())
        try:
            while time.monotonic() < room.until:
                try:
                    async with streams.get(f"{base}{page_of(watch)}/live",
                                           headers={"Accept": "text/event-stream"}) as response:
                        if response.status != 200:
                            room.errors.append(f"stream {response.status}")
                            await asyncio.sleep(2)
                            continue
                        room.streams_open += 1
                        try:
                            buffer = b""
                            while time.monotonic() < room.until:
                                chunk = await asyncio.wait_for(response.content.readany(),
                                                               min(room.until, far) - time.monotonic())
                                if not chunk:
                                    break
                                buffer += chunk
                                while b"\n\n" in buffer:  # one event (a fragment's lines are data: lines)
                                    block, _, buffer = buffer.partition(b"\n\n")
                                    head = dict(line.split(b": ", 1) for line in block.split(b"\n", 3)[:3]
                                                if line.startswith((b"id: ", b"event: ")))
                                    if b"id" not in head:
                                        continue  # a comment line
                                    said = int(head[b"id"])
                                    if head.get(b"event") == b"fragment" and said > version:  # swapped in
                                        version = said
                                        room.pushed += 1
                                        room.shown.append((index, version, time.monotonic()))
                                        room.phones[(index, seat)] = version
                                        last_asked = time.monotonic()
                                    elif head.get(b"event") == b"version" and said > version:  # fetched
                                        asyncio.get_running_loop().create_task(fetch(said))
                        finally:
                            room.streams_open -= 1
                except TimeoutError:
                    break
                except aiohttp.ClientError as exc:
                    room.errors.append(f"stream {type(exc).__name__}")
                    await asyncio.sleep(2)
        finally:
            net.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await net
            async with lock:
                pass


async def keeper(base: str, index: int, token: str, room: Room, until: float, every: float) -> None:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        await asyncio.sleep(random.uniform(0, every))
        version = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            if PLAYS:
                action, form = play_form(version)
                url = f"{base}/tienlen/g/{token}/{action}"
                headers = {"Sec-Fetch-Site": "same-origin", "X-Thirteen-Write": secrets.token_hex(10)}
            else:
                url, form = f"{base}/three-thirteen/g/{token}/round/1", round_form(version)
                headers = {"Sec-Fetch-Site": "same-origin"}
            for attempt in (1, 2):
                try:
                    async with session.post(url, data=form, headers=headers, allow_redirects=False) as response:
                        await response.read()
                        if response.status == 303:
                            room.writes.append(time.perf_counter() - started)
                            version += 1
                            room.acked[(index, version)] = time.monotonic()
                            room.final[index] = version
                        elif response.status == 409:
                            room.stale_writes += 1
                        else:
                            room.errors.append(f"write {response.status}")
                except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
                    # A kept-alive connection the server closed (its keepalive, 5 s, is shorter than
                    # the keeper's ~6 s between saves) just as the save went out: a browser sends
                    # the request again on a new connection, and so does the keeper, once.
                    if attempt == 1:
                        room.resent += 1
                        continue
                    room.errors.append(f"write {type(exc).__name__}")
                except (TimeoutError, aiohttp.ClientError) as exc:
                    room.errors.append(f"write {type(exc).__name__}")
                break
            await asyncio.sleep(every * random.uniform(0.8, 1.2))


async def run_room(base: str, tables: int, watchers: int, seconds: float, every: float, group: int | None) -> None:
    async with aiohttp.ClientSession() as session:
        made = [await (create_tienlen_table if PLAYS else create_table)(session, base) for _ in range(tables)]
    room = Room(final={i: 0 for i in range(tables)})
    far = time.monotonic() + 3600
    phones = [asyncio.create_task(phone(base, i, s, t.watch, room, far))
              for i, t in enumerate(made) for s in range(watchers)]
    opening = time.monotonic()
    while not POLLING and room.streams_open < tables * watchers and time.monotonic() < opening + 60:
        await asyncio.sleep(0.2)  # every phone opens its stream first (slow on a loaded machine)
    await asyncio.sleep(3.0)
    opened, open_seconds = room.streams_open, time.monotonic() - opening
    writing_until = time.monotonic() + seconds
    until = writing_until + 5  # then 5 s for the last writes to reach every phone
    room.until = until
    server_cpu, client_cpu, load = group_cpu_seconds(group), time.process_time(), os.getloadavg()[0]
    keepers = [asyncio.create_task(keeper(base, i, t.keeper, room, writing_until, every)) for i, t in enumerate(made)]
    await asyncio.gather(*keepers)
    await asyncio.gather(*phones)
    client_cpu = time.process_time() - client_cpu
    if server_cpu is not None:
        server_cpu = (group_cpu_seconds(group) or 0) - server_cpu
    delivery = [max(0.0, at - room.acked[(table, version)]) for table, version, at in room.shown
                if (table, version) in room.acked]
    behind = sum(1 for (table, _), version in room.phones.items() if version != room.final[table])
    ms = 1000
    how = "polling every 3 s" if POLLING else f"{opened} streams open before the first write, in {open_seconds:.0f} s"
    what = "Tiến lên tables" if PLAYS else "tables"
    does = "entering a play" if PLAYS else "saving a round"
    print(f"room: {tables} {what} x {watchers} watching phones = {tables * watchers} phones "
          f"({how}), keepers {does} every ~{every:g} s for {seconds:g} s")
    print(f"delivery, write acknowledged -> fragment on the phone: {len(delivery)} (write, phone) pairs  "
          f"p50 {percentile(delivery, 50) * ms:6.1f} ms  p95 {percentile(delivery, 95) * ms:6.1f} ms  "
          f"p99 {percentile(delivery, 99) * ms:6.1f} ms  max {max(delivery, default=float('nan')) * ms:6.1f} ms")
    print(f"writes (303): {len(room.writes)}  p50 {percentile(room.writes, 50) * ms:6.1f} ms  "
          f"p99 {percentile(room.writes, 99) * ms:6.1f} ms  stale (409): {room.stale_writes}, resent on a new connection: {room.resent};  fragments sent in the "
          f"streams: {room.pushed}, fetched: {room.fetches}")
    kinds: dict[str, int] = {}
    for e in room.errors:
        kinds[e] = kinds.get(e, 0) + 1
    print(f"errors: {len(room.errors)} {kinds if kinds else ''}".rstrip())
    cpu = "" if server_cpu is None else f"server CPU {server_cpu:.1f} s; "
    print(f"{cpu}load test client CPU {client_cpu:.1f} s; machine load average {load:.1f} at the first write"
          f" ({os.cpu_count()} cores)")
    print(f"converged: {len(room.phones) - behind}/{len(room.phones)} phones on their table's final version"
          + ("" if behind == 0 else f"  ({behind} left behind)"))


# --------------------------------------------------------------------------- --fault: back after a fault


@dataclass
class Watcher:
    """One phone following a sheet as a browser's EventSource does: on a dropped stream it waits
    the server's ``retry`` and opens it again with ``Last-Event-ID``; an event that names only a
    version it does not show is fetched (as live.js asks the poll)."""

    table: int
    watch: str
    last_id: str | None = None
    version: int = 0  # the page was drawn at the sheet's start (version 0)
    events: list[float] = field(default_factory=list)  # when each event came (any stream)
    held: list[tuple[float, int]] = field(default_factory=list)  # (when, version) each version it came to show
    opened: int = 0  # streams opened (answered 200)
    refused: int = 0  # answers not 200


async def event_source(base: str, w: Watcher, stop: asyncio.Event) -> None:
    retry, wait = 3.0, 0.0  # EventSource's own default until the server says
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=None)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=2), timeout=timeout) as session:

        def hold(version: int) -> None:
            if version > w.version:
                w.version = version
                w.held.append((time.monotonic(), version))

        async def fetch() -> None:
            with contextlib.suppress(TimeoutError, aiohttp.ClientError):
                async with session.get(f"{base}/three-thirteen/g/{w.watch}", params={"since": str(w.version)},
                                       headers=HX, timeout=aiohttp.ClientTimeout(total=15)) as response:
                    found = VERSION.search(await response.text()) if response.status == 200 else None
                    if found:
                        hold(int(found.group(1)))

        while not stop.is_set():
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if w.last_id is not None:
                headers["Last-Event-ID"] = w.last_id
            with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.IncompleteReadError):
                async with session.get(f"{base}/three-thirteen/g/{w.watch}/live", headers=headers) as response:
                    if response.status != 200:  # EventSource gives up; live.js asks again after 2, 4 … s
                        w.refused += 1
                        wait = min(max(wait * 2, 2.0), 60.0)
                        await asyncio.sleep(wait)
                        continue
                    w.opened += 1
                    wait = 0.0
                    buffer = b""
                    reading = asyncio.ensure_future(response.content.readany())
                    stopping = asyncio.ensure_future(stop.wait())
                    try:
                        while True:
                            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
                            if stopping.done():
                                return
                            chunk = reading.result()
                            if not chunk:
                                break
                            buffer += chunk
                            reading = asyncio.ensure_future(response.content.readany())
                            while b"\n\n" in buffer:
                                block, _, buffer = buffer.partition(b"\n\n")
                                fields = dict(line.split(b": ", 1) for line in block.split(b"\n")
                                              if line.startswith((b"id: ", b"event: ", b"retry: ")))
                                if b"retry" in fields:
                                    retry = int(fields[b"retry"]) / 1000
                                if b"id" not in fields:
                                    continue  # a comment line
                                w.events.append(time.monotonic())
                                w.last_id = fields[b"id"].decode()
                                said = int(fields[b"id"])
                                if fields.get(b"event") == b"fragment":
                                    hold(said)
                                elif said > w.version:
                                    asyncio.get_running_loop().create_task(fetch())
                    finally:
                        for task in (reading, stopping):
                            task.cancel()
            if not stop.is_set():
                await asyncio.sleep(retry)  # the stream dropped: the browser waits its retry, then again


async def write_until_answered(base: str, keeper: str, version: int) -> float:
    """A keeper's round saved as the phone's outbox sends it: again (the same write id) until
    answered 303; when it was."""
    form, write = round_form(version), secrets.token_hex(10)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        while True:
            with contextlib.suppress(TimeoutError, aiohttp.ClientError):
                async with session.post(f"{base}/three-thirteen/g/{keeper}/round/1", data=form, allow_redirects=False,
                                        headers={"Sec-Fetch-Site": "same-origin", "X-Thirteen-Write": write}) as response:
                    await response.read()
                    if response.status == 303:
                        return time.monotonic()
                    assert response.status >= 500, f"the keeper's write answered {response.status}"
            await asyncio.sleep(0.5)


@dataclass
class Back:
    """How every watcher came back after one fault."""

    fault: str
    watchers: int
    reconnected: int  # watchers whose stream dropped and opened again
    first_event: list[float]  # per watcher: from the fault's end to its first event after it
    post_write: list[float]  # per watcher: from the fault's end to showing the write made after it
    write_acked: float  # from the fault's end to that write acknowledged
    missing: int  # watchers that never showed it
    held_by_worker: dict[int, int] = field(default_factory=dict)

    def report(self) -> str:
        ms = 1000

        def line(values: list[float]) -> str:
            return (f"p50 {percentile(values, 50) * ms:6.0f} ms  p95 {percentile(values, 95) * ms:6.0f} ms  "
                    f"max {max(values, default=float('nan')) * ms:6.0f} ms  ({len(values)}/{self.watchers})")

        return (f"{self.fault}: {self.watchers} watchers ({self.reconnected} reconnected"
                + (f"; streams per worker before: {sorted(self.held_by_worker.values())}" if self.held_by_worker else "")
                + ")\n"
                f"  fault's end -> first event after it:   {line(self.first_event)}\n"
                f"  fault's end -> the write made after it shown: {line(self.post_write)}\n"
                f"  that write acknowledged {self.write_acked * ms:.0f} ms after the fault's end; "
                f"watchers that never showed it: {self.missing}")


async def through_a_fault(fault: str, server: ProductionServer, pg: PrivatePostgres, tables: int, watchers: int,
                          settle: float = 60.0) -> Back:
    """``tables`` sheets × ``watchers`` phones following them on ``server`` (gunicorn on ``pg``);
    then the fault: ``db-stop`` (PostgreSQL stopped 3 s, started again; its end: the start
    answered) or ``worker-kill`` (the gunicorn worker holding the most streams SIGKILLed; its
    end: the kill).  At the fault's end each keeper saves a round (again until answered, as the
    outbox does); every watcher is timed to its first event after the fault's end and to showing
    that round."""
    base = server.url
    async with aiohttp.ClientSession() as session:
        made = [await create_table(session, base) for _ in range(tables)]
    stop = asyncio.Event()
    crowd = [Watcher(t, made[t].watch) for t in range(tables) for _ in range(watchers)]
    tasks = [asyncio.create_task(event_source(base, w, stop)) for w in crowd]
    try:
        deadline = time.monotonic() + settle
        while not all(w.events for w in crowd):  # every stream open (its first event came)
            assert time.monotonic() < deadline, f"{sum(not w.events for w in crowd)} streams never opened"
            await asyncio.sleep(0.2)
        await asyncio.gather(*(write_until_answered(base, t.keeper, 0) for t in made))  # one round before
        while any(w.version < 1 for w in crowd):
            assert time.monotonic() < deadline, "the round before the fault did not reach every watcher"
            await asyncio.sleep(0.2)
        opened = [w.opened for w in crowd]
        held: dict[int, int] = {}
        if fault == "db-stop":
            await asyncio.to_thread(pg.stop)
            await asyncio.sleep(3)
            await asyncio.to_thread(pg.start)
        else:
            assert server.process is not None
            held = await asyncio.to_thread(worker_sockets, server.process.pid, server.port)
            os.kill(max(held, key=lambda pid: held[pid]), signal.SIGKILL)
        end = time.monotonic()
        acked = await asyncio.gather(*(write_until_answered(base, t.keeper, 1) for t in made))
        deadline = time.monotonic() + settle
        while any(w.version < 2 for w in crowd) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Back(
        fault=fault, watchers=len(crowd),
        reconnected=sum(w.opened > before for w, before in zip(crowd, opened, strict=True)),
        first_event=[next(at for at in w.events if at > end) - end for w in crowd if any(at > end for at in w.events)],
        post_write=[next(at for at, v in w.held if v >= 2) - end for w in crowd if w.version >= 2],
        write_acked=max(acked) - end, missing=sum(w.version < 2 for w in crowd), held_by_worker=held)


def faults(args: argparse.Namespace, tmp: Path) -> None:
    """``--fault``: gunicorn (``--workers``) on a PostgreSQL cluster of its own, through each fault asked."""
    with PrivatePostgres() as pg, \
            ProductionServer("gunicorn", pg.url, tmp / "faults.log", workers=args.workers) as server:
        print(f"\n== server: gunicorn, {args.workers} workers, PostgreSQL of its own, {server.url}; "
              f"machine load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)", flush=True)
        for fault in (["db-stop", "worker-kill"] if args.fault == "both" else [args.fault]):
            back = asyncio.run(through_a_fault(fault, server, pg, args.tables, args.watchers))
            print(back.report(), flush=True)
            if fault == "worker-kill":  # the master starts another worker meanwhile
                deadline = time.monotonic() + 60
                while len(children(server.process.pid)) < args.workers and time.monotonic() < deadline:
                    time.sleep(0.5)
        problems = [line for line in server.output().splitlines() if "Traceback" in line]
        if problems:
            print(f"the server's log says ({len(problems)} lines):", *problems[:5], sep="\n  ")


def measure(kind: str, database: str, args: argparse.Namespace, tmp: Path) -> None:
    server = ProductionServer(kind, database, tmp / f"{kind}.log", workers=args.workers, threads=args.threads)
    with server:
        label = kind + (f", {args.workers} workers" if kind == "gunicorn" else "")
        print(f"\n== server: {label}, {database.split(':', 1)[0]}, {server.url}", flush=True)
        group = server.process.pid if server.process else None
        asyncio.run(run_room(server.url, args.tables, args.watchers, args.seconds, args.write_every, group))
        problems = [line for line in server.output().splitlines() if "Traceback" in line or "Error" in line]
        if problems:
            print(f"the server's log says ({len(problems)} lines):", *problems[:5], sep="\n  ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=20, help="watching phones per table")
    parser.add_argument("--seconds", type=float, default=60, help="how long keepers write (default 60)")
    parser.add_argument("--write-every", type=float, default=6.0, help="seconds between a keeper's saves")
    parser.add_argument("--server", choices=["waitress", "gunicorn", "both"], default="both")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=None, help="threads (waitress) or per worker (gunicorn)")
    parser.add_argument("--plays", action="store_true",
                        help="followed Tiến lên tables, the keepers entering plays instead of saving rounds")
    parser.add_argument("--fault", choices=["db-stop", "worker-kill", "both"], default=None,
                        help="gunicorn on a PostgreSQL of its own: every watcher timed back after the fault "
                             "(--tables sheets x --watchers phones, e.g. 5 x 10)")
    parser.add_argument("--poll", action="store_true", help="the phones poll every 3 s, no stream (the baseline)")
    parser.add_argument("--checkout", default=None, help="serve another checkout (e.g. main's, for the baseline)")
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL"),
                        help="PostgreSQL for gunicorn (default TEST_DATABASE_URL): a fresh database is made on it")
    args = parser.parse_args()
    global POLLING, PLAYS
    POLLING, PLAYS = args.poll, args.plays
    if args.checkout:  # the servers run from that checkout's files (tests.servers starts them from REPO)
        servers.REPO = Path(args.checkout).resolve()
    if args.seconds > 300 or args.tables * args.watchers > 2000:
        parser.error("keep runs short and rooms at most 2,000 phones: the machine is shared")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if args.fault:
            faults(args, tmp)
            return 0
        if args.server in ("waitress", "both"):
            measure("waitress", f"sqlite:///{tmp / 'live.sqlite'}", args, tmp)
        if args.server in ("gunicorn", "both"):
            if not args.database:
                parser.error("gunicorn is measured on PostgreSQL: set TEST_DATABASE_URL or --database")
            with fresh_postgres(args.database) as database:
                measure("gunicorn", database, args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
