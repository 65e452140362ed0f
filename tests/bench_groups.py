"""Benchmark of groups; run with ``python -m tests.bench_groups`` (PostgreSQL too when
``TEST_DATABASE_URL`` is set, e.g. after ``source scripts/pg-start``).

A group's file is made with the games' own state machines: each evening a Tiến lên sheet of
four of the group's five people with eight games typed by hand, and every other evening a
Three Thirteen sheet (three players, eleven rounds) and a finished Trece table.  On each
database it times:

- importing the file of a group of 50 evenings (a fresh database), and of 100 evenings;
- opening the group's page and its stats page with 100 evenings: *fresh process* (the first
  request of a new Python process on the stored group: the app made, its modules imported, its
  templates compiled, every game replayed; the process started apart, its start-up not counted),
  *cold* (the first opening after the import in the same process: every game replayed) and
  *warm* (the median of ten openings, the replays kept per game and version).

Beside each time of a page, the CPU time of the process that answered it (``time.process_time``):
on this shared 2-core machine the wall time grows with the load average (other work's turn on the
cores), the process's own CPU time much less (PostgreSQL's own work is in the wall time only).
``--only sqlite`` or ``--only postgres`` measures one database (each run stays under 3 minutes).

Each Tiến lên sheet plays for a stake, and every other one has an end of two games less than it
played, so the money of every evening (``referee.evening_money``) is in what is timed.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from referee import trece
from referee.cards import Card
from referee.three_thirteen_sheet import Sheet, SheetSetup
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_scores import FinishedGame
from referee.web.games.tienlen.forms import read_game
from referee.web.groups import evenings as group_evenings
from referee.web.groups import transfer
from referee.web.models import new_token


def typed(evening: Evening, form: dict[str, str]) -> FinishedGame | dict[str, object]:
    """A game typed on the by-hand form, read into its facts as the web does (the library takes
    facts); a form that does not read gives facts the library refuses."""
    facts = read_game(evening.names, evening.rules, form).facts
    return facts if facts is not None else {}

PEOPLE = ("An", "Binh", "Chi", "Dung", "Em")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _game(kind: str, names: tuple[str, ...], setup: dict[str, Any], rules: dict[str, Any],
          events: list[tuple[str, dict[str, Any]]], when: datetime, group: str) -> dict[str, Any]:
    return {
        "kind": kind, "keeper_token": new_token(), "watch_token": new_token(), "group": group,
        "created_at": _when(when), "updated_at": _when(when), "players": list(names), "rules": rules,
        "setup": setup,
        "events": [{"seq": i, "kind": k, "payload": p, "created_at": _when(when + timedelta(minutes=i))}
                   for i, (k, p) in enumerate(events, start=1)],
    }


def _stored(record: Any) -> tuple[str, dict[str, Any]]:
    payload = record.to_dict()
    return str(payload.pop("action")), payload


def document(evenings: int, seed: int = 13) -> bytes:
    """A group's file of ``evenings`` evenings, one a week back from today."""
    rng = random.Random(seed)
    group_token = new_token()
    start = datetime(2026, 12, 1, 19, tzinfo=UTC) - timedelta(weeks=evenings)
    games = [{
        "kind": "group", "keeper_token": group_token, "watch_token": new_token(), "group": None,
        "created_at": _when(start), "updated_at": _when(start), "players": [], "rules": {},
        "setup": {"name": "Fridays", "people": list(PEOPLE)}, "events": [],
    }]
    for week in range(evenings):
        when = start + timedelta(weeks=week)
        names = tuple(rng.sample(PEOPLE, 4))
        sheet = Evening(EveningSetup(names))
        for _ in range(8):
            winner = rng.randrange(4)
            sheet.add_by_hand(typed(sheet, {"out": str(winner)} | {f"left_{s}": str(rng.randint(1, 13)) for s in range(4)
                                                       if s != winner}))
        money = [("money", {"stake": 1000, "currency": "VND"})]
        if week % 2:
            money.append(("end", {"target": 0, "games": 6, "until": "", "utc_offset": 0}))
        games.append(_game("tienlen_scores", names, {}, sheet.rules.to_dict(),
                           [_stored(r) for r in sheet.log] + money, when, group_token))
        if week % 2:
            continue
        three = tuple(rng.sample(PEOPLE, 3))
        rummy = Sheet(SheetSetup(three))
        for number in range(1, 12):
            out = rng.randrange(3)
            run = " ".join(f"{RANKS[i]}s" for i in range(number + 2))
            rummy.enter_round(number, cards=[run if s == out else "" for s in range(3)],
                              points=["" if s == out else str(rng.randint(0, 60)) for s in range(3)], out=[out])
        games.append(_game("three_thirteen", three, {"first_dealer": 0}, {},
                           [_stored(r) for r in rummy.log], when + timedelta(hours=1), group_token))
        pair = tuple(rng.sample(PEOPLE, 2))
        setup = trece.Setup((pair[0], pair[1]), Card.parse("5d"), dealer=rng.randrange(2))
        table = trece.State(setup)
        table.play(None, "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h")
        games.append(_game("trece", pair, setup.to_dict(), setup.rules.to_dict(),
                           [(r.action, r.to_dict()) for r in table.log], when + timedelta(hours=2), group_token))
    return json.dumps({"format": transfer.FORMAT, "version": transfer.VERSION, "games": games}).encode()


def _app(uri: str) -> Any:
    from app import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "TESTING": True, "PHONE_ENGINE": False,
                      "TEMPLATE_CACHE": os.path.join(tempfile.gettempdir(), "thirteen-bench-templates")})
    return app


def _clean(app: Any) -> None:
    from sqlalchemy import text

    from referee.web.extensions import db

    with app.app_context():
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def _import(client: Any, body: bytes) -> tuple[float, str]:
    from io import BytesIO

    began = time.perf_counter()
    r = client.post("/groups/import", data={"file": (BytesIO(body), "g.json")}, content_type="multipart/form-data")
    took = time.perf_counter() - began
    assert r.status_code == 303, r.get_data(as_text=True)[:400]
    return took, r.headers["Location"]


def _open(client: Any, path: str) -> tuple[float, float]:
    """(wall time, this process's CPU time) of one request of ``path``."""
    began, cpu = time.perf_counter(), time.process_time()
    r = client.get(path)
    took, used = time.perf_counter() - began, time.process_time() - cpu
    assert r.status_code == 200
    return took, used


def _fresh(uri: str, path: str) -> tuple[float, float]:
    """The first request of ``path`` in a new process (its start-up and the app's making not counted)."""
    out = subprocess.run([sys.executable, "-m", "tests.bench_groups", "--fresh", uri, path],
                         capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def _ms(took: tuple[float, float]) -> str:
    return f"{took[0] * 1000:.0f} ms | {took[1] * 1000:.0f} ms"


def _forget(app: Any) -> None:
    """Nothing kept: no game's summary (as after the upgrade that added them), no compiled template."""
    import shutil

    from sqlalchemy import update

    from referee.web.extensions import db
    from referee.web.models import Game

    with app.app_context():
        db.session.execute(update(Game).values(summary=None, summary_version=None))
        db.session.commit()
    shutil.rmtree(app.config["TEMPLATE_CACHE"], ignore_errors=True)


def fresh_main(uri: str, path: str) -> None:
    """In a new process: make the app, then time its first request of ``path`` (printed in seconds)."""
    app = _app(uri)
    client = app.test_client()
    print(*_open(client, path))


def run(name: str, uri: str, small: bytes, large: bytes) -> list[str]:
    rows = []
    app = _app(uri)
    try:
        client = app.test_client()
        took, _ = _import(client, small)
        rows.append(f"| {name} | import a group of 50 evenings | {took * 1000:.0f} ms | |")
        group_evenings._READ.clear()
        took, where = _import(client, large)
        rows.append(f"| {name} | import a group of 100 evenings | {took * 1000:.0f} ms | |")
        for label, path in (("group's page", where), ("stats page", where + "/stats")):
            _forget(app)
            rows.append(f"| {name} | {label}, 100 evenings: first request of a fresh process, nothing kept "
                        f"(every game replayed, templates compiled) | {_ms(_fresh(uri, path))} |")
            rows.append(f"| {name} | {label}, 100 evenings: first request of a fresh process | {_ms(_fresh(uri, path))} |")
            group_evenings._READ.clear()
            cold = _open(client, path)
            warm = [_open(client, path) for _ in range(10)]
            median = (statistics.median(w for w, _ in warm), statistics.median(c for _, c in warm))
            rows.append(f"| {name} | {label}, 100 evenings: cold | {_ms(cold)} |")
            rows.append(f"| {name} | {label}, 100 evenings: warm (median of 10) | {_ms(median)} |")
    finally:
        _clean(app)
    return rows


def main(only: str = "") -> None:
    small, large = document(50, seed=1), document(100, seed=2)
    games = len(json.loads(large)["games"])
    print(f"A group of 100 evenings: {games - 1} games, {len(large) // 1024} KB; of 50: {len(small) // 1024} KB")
    print("load average before: " + " ".join(f"{x:.1f}" for x in os.getloadavg()) + "\n")
    print("| database | what | time | CPU of the process |\n|---|---|---|---|")
    if only in ("", "sqlite"):
        with tempfile.TemporaryDirectory() as tmp:
            for row in run("SQLite", f"sqlite:///{tmp}/bench.sqlite", small, large):
                print(row, flush=True)
    url = os.environ.get("TEST_DATABASE_URL") if only in ("", "postgres") else None
    if url:
        for row in run("PostgreSQL", url, small, large):
            print(row, flush=True)
    print("\nload average after: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    if not url and only != "sqlite":
        print("(no TEST_DATABASE_URL: PostgreSQL not measured; source scripts/pg-start first)", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fresh"]:
        fresh_main(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[2] if sys.argv[1:2] == ["--only"] else "")
