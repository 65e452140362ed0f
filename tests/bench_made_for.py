"""How long "Score this hand" takes to find a table's sheet with many later sheets in the database.

``python -m tests.bench_made_for [--later 20000] [--database sqlite|postgres]``: one table and the
sheet made for it, then ``--later`` sheets made after it (for other tables), then the time of
``store.made_for`` and of the whole ``POST /tienlen/scores/score/<table>/0`` (median of 50)."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from sqlalchemy import insert

from referee.web import store
from referee.web.extensions import db
from referee.web.models import Game, new_token

NAMES = ["An", "Binh", "Chi", "Dung"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--later", type=int, default=20_000)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    from app import create_app

    folder = tempfile.mkdtemp()
    uri = f"sqlite:///{folder}/bench.sqlite" if args.database == "sqlite" else os.environ["TEST_DATABASE_URL"]
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    response = client.post("/tienlen/new", data={**{f"name{i}": n for i, n in enumerate(NAMES)}, "leader": "1"})
    token = response.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/tienlen/scores/score/{token}/0").status_code == 303  # the table's sheet
    with app.app_context():
        rows = [{"kind": "tienlen_scores", "rules": {}, "setup": {"table": 10_000_000 + i}, "version": 0,
                 "keeper_token": new_token(), "watch_token": new_token(), "made_for": f"tienlen_scores:{10_000_000 + i}"}
                for i in range(args.later)]
        for start in range(0, len(rows), 2000):
            db.session.execute(insert(Game), rows[start:start + 2000])
        db.session.commit()
        table = store.find_by_token(token).game
        lookups = []
        for _ in range(50):
            started = time.perf_counter()
            assert store.made_for("tienlen_scores", table) is not None
            lookups.append((time.perf_counter() - started) * 1000)
            db.session.rollback()
    presses = []
    for _ in range(50):
        started = time.perf_counter()
        assert client.post(f"/tienlen/scores/score/{token}/0").status_code == 303
        presses.append((time.perf_counter() - started) * 1000)
    print(f"{args.database}, {args.later:,} later sheets: store.made_for median {statistics.median(lookups):.2f} ms; "
          f'"Score this hand" median {statistics.median(presses):.1f} ms, slowest {max(presses):.1f} ms')
    with app.app_context():
        db.engine.dispose()


if __name__ == "__main__":
    main()
