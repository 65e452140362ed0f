"""Benchmark of issue 39's goals; run with ``python -m tests.bench_hardening [--races 1000]``
(PostgreSQL too when ``TEST_DATABASE_URL`` is set, e.g. after ``source scripts/pg-start``).

On a SQLite file and on PostgreSQL, with the app in this process and its requests sent from
threads released together:

- ``--races`` racing pairs: half two offline starts claiming one token (one as its keeper link,
  the other as its watch link), half an import and an offline start claiming one token; then how
  many tokens open two games (the goal: 0), and the answers given;
- 100 offline starts and 100 imports with tokens weaker than the server's: how many were taken;
- the same file imported 10 times at once: how many sets of games (the goal: 1), the answers;
- 3 different files of 2,000 games imported at once: the answers (the goal: no 503) and seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import tempfile
import threading
import time
from collections import Counter
from io import BytesIO
from typing import Any

from sqlalchemy import func, select, text

from referee.web.extensions import db
from referee.web.models import Game, new_token
from tests.conftest import _make_app
from tests.games import row

TRECE = row("trece")


def _at_once(jobs: list[Any]) -> list[Any]:
    start = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:  # noqa: BLE001  # counted as such
            results[i] = type(exc).__name__

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _import(client, body: bytes) -> int:  # type: ignore[no-untyped-def]
    return int(client.post("/groups/import", data={"file": (BytesIO(body), "x.json")},
                           content_type="multipart/form-data").status_code)


def _file(template: dict[str, Any], games: list[tuple[str, str]]) -> bytes:
    record = template["games"][0]
    return json.dumps({**template, "games": [{**record, "keeper_token": k, "watch_token": w} for k, w in games]}).encode()


def run(uri: str, races: int) -> None:
    app = _make_app(uri)
    client = app.test_client()
    keeper, _ = TRECE.start(client)
    template = json.loads(client.get(f"/groups/game/{keeper}/export.json").data)
    answers: Counter[Any] = Counter()
    clients = [app.test_client() for _ in range(2)]
    for i in range(races):
        shared = new_token()
        start = {**TRECE.new, "keeper_token": new_token(), "watch_token": shared, "write": secrets.token_hex(16)}
        if i % 2:
            other = {**TRECE.new, "keeper_token": shared, "watch_token": new_token(), "write": secrets.token_hex(16)}
            jobs = [lambda f=other: clients[0].post("/trece/new", data=f).status_code]
        else:
            body = _file(template, [(shared, new_token())])
            jobs = [lambda b=body: _import(clients[0], b)]
        jobs.append(lambda f=start: clients[1].post("/trece/new", data=f).status_code)
        answers.update(_at_once(jobs))
    with app.app_context():
        twice = db.session.execute(text(
            "SELECT count(*) FROM (SELECT t FROM (SELECT keeper_token AS t FROM games UNION ALL "
            "SELECT watch_token FROM games) AS a GROUP BY t HAVING count(*) > 1) AS b")).scalar()
    print(f"  {races} racing starts and imports: tokens opening two games {twice}; answers {dict(answers)}")

    before = _games(app)
    weak = ["a" * 32, "0" * 32, "abcdefgh" * 4, "passwordpasswordpasswordpassword"]
    taken = sum(client.post("/trece/new", data={**TRECE.new, "keeper_token": weak[i % 4],
                                                "watch_token": new_token()}).status_code == 303 for i in range(100))
    for i in range(100):
        client.post("/groups/import", data={"file": (BytesIO(_file(template, [(weak[i % 4][:-1] + str(i % 10), "b" * 32)])), "x.json")},
                    content_type="multipart/form-data")
    with app.app_context():
        weak_stored = db.session.scalar(select(func.count()).select_from(Game).where(
            Game.keeper_token.in_(weak) | Game.watch_token.in_([*weak, "b" * 32])
            | Game.keeper_token.like("aaaa%") | Game.keeper_token.like("0000%")))
    print(f"  100 offline starts with weak tokens: {taken} taken; 100 imports: {weak_stored} weak tokens stored "
          f"({_games(app) - before - taken} games made with fresh tokens)")

    body = _file(template, [(new_token(), new_token()) for _ in range(5)])
    before = _games(app)
    same = Counter(_at_once([lambda: _import(app.test_client(), body) for _ in range(10)]))
    print(f"  the same 5-game file 10 times at once: {(_games(app) - before) / 5:.0f} set(s); answers {dict(same)}")

    if uri.startswith("sqlite"):
        big = [_file(template, [(new_token(), new_token()) for _ in range(2000)]) for _ in range(3)]
        started = time.perf_counter()
        three = Counter(_at_once([lambda b=b: _import(app.test_client(), b) for b in big]))
        print(f"  3 different 2,000-game files at once: answers {dict(three)} in {time.perf_counter() - started:.1f} s")
    with app.app_context():
        db.session.remove()
        if not uri.startswith("sqlite"):
            db.drop_all()
            with db.engine.begin() as connection:
                connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def _games(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Game)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--races", type=int, default=1000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    print("SQLite:")
    run(f"sqlite:///{folder}/bench.sqlite", args.races)
    if os.environ.get("TEST_DATABASE_URL"):
        from tests.servers import fresh_postgres

        with fresh_postgres(os.environ["TEST_DATABASE_URL"]) as url:
            print("PostgreSQL:")
            run(url, args.races)


if __name__ == "__main__":
    main()
