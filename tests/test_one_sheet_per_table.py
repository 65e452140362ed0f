"""One score sheet per table, however many phones press "Score this hand" at once (a unique,
indexed key: ``store.made_for``), on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time

from sqlalchemy import select

from referee.web.extensions import db
from referee.web.models import Game

NAMES = ("An", "Binh", "Chi", "Dung")
PHONES = 12


def _table(client) -> str:  # type: ignore[no-untyped-def]
    r = client.post("/tienlen/new", data={**{f"name{i}": n for i, n in enumerate(NAMES)}, "leader": "1"})
    assert r.status_code == 303
    return r.headers["Location"].rsplit("/", 1)[1]


def test_twelve_phones_pressing_score_this_hand_at_once_make_one_sheet(any_db_app):
    table = _table(any_db_app.test_client())
    at_once = threading.Barrier(PHONES)
    answers: list[tuple[int, str]] = []

    def phone() -> None:
        client = any_db_app.test_client()
        at_once.wait()
        response = client.post(f"/tienlen/scores/score/{table}/0")
        for attempt in range(1, 30):
            # A database too busy to answer in time (a loaded machine: PostgreSQL's lock
            # timeout) says so with a 503 and whether it stored anything; the phone sends again a
            # little later, as its outbox does, and must then land on the one sheet.
            if response.status_code != 503:
                break
            assert response.headers.get("X-Thirteen-Saved") in {"yes", "no", "unknown"}
            time.sleep(min(0.1 * attempt, 2))
            response = client.post(f"/tienlen/scores/score/{table}/0")
        answers.append((response.status_code, response.headers.get("Location", "")))

    phones = [threading.Thread(target=phone) for _ in range(PHONES)]
    for p in phones:
        p.start()
    for p in phones:
        p.join(120)
    assert len(answers) == PHONES
    assert {status for status, _ in answers} == {303}
    assert len({location for _, location in answers}) == 1  # every phone opens the same sheet
    with any_db_app.app_context():
        sheets = db.session.scalars(select(Game).where(Game.kind == "tienlen_scores")).all()
        assert len(sheets) == 1 and sheets[0].version == 1  # made once, following the table once


def test_a_sheet_is_found_by_its_tables_key_not_by_reading_later_sheets(app):
    from referee.web import store

    with app.app_context():
        table = store.create_game("tienlen", list(NAMES), rules={}, setup={})
        sheet = store.create_game("tienlen_scores", list(NAMES), rules={}, setup={"table": table.id}, made_for=table)
        later = store.create_game("tienlen_scores", list(NAMES), rules={}, setup={"table": table.id})
        assert store.made_for("tienlen_scores", table) == sheet != later
        assert store.create_game("tienlen_scores", list(NAMES), rules={}, setup={}, made_for=table) == sheet
        assert store.made_for("tienlen", table) is None
