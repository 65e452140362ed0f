"""Migrations that fill in what was stored before them, on SQLite and PostgreSQL: a database is
upgraded to the revision before, rows are written as the old code wrote them, then the upgrade
runs and the rows must land where ``RULES.md`` says.

Issue 36's ``group_evenings_started_from`` ("A group's evenings and stats": every game started
from a group's game belongs to the group, on that game's evening): a score sheet that "Score this
hand" made for a group's table (``made_for``, with no group before) and a table started from a
group's sheet (its setup's ``sheet`` keeper token) get their source (``started_from``) and its
group, so the group's page shows them on the source's evening (by the group's clock, the day
turning at 06:00; a group made before time zones is on UTC), even when begun the next day.
What nothing points back to is left as it was, and no summary is kept yet."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from flask_migrate import upgrade
from sqlalchemy import MetaData, Table, select

from referee.web.database import MIGRATIONS
from referee.web.extensions import db
from referee.web.groups.evenings import build_group, evening_days
from referee.web.models import Game, new_token
from tests.servers import fresh_postgres, postgres_url

BEFORE = "sheet_for_table"  # the revision before issue 36's


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_uri(request: Any, tmp_path: Any) -> Iterator[str]:
    """An empty database of its own (a migration test upgrades from an old revision)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite'}"
    else:
        with fresh_postgres(postgres_url()) as url:
            yield url


def _old_game(games: Table, connection: Any, kind: str, when: datetime, **columns: Any) -> dict[str, Any]:
    """A row as the code before issue 36 stored it (no started_from, no summary)."""
    row = {"kind": kind, "rules": {}, "setup": {}, "version": 0, "keeper_token": new_token(),
           "watch_token": new_token(), "created_at": when, "updated_at": when, **columns}
    row["id"] = connection.execute(games.insert().values(**row)).inserted_primary_key[0]
    return row


def test_games_started_from_a_groups_game_land_in_the_group_on_its_evening(make_app: Any, old_uri: str) -> None:
    app = make_app(old_uri, AUTO_MIGRATE=False)
    at = lambda day, hour, minute=0: datetime(2026, 11, day, hour, minute, tzinfo=UTC)  # noqa: E731
    with app.app_context():
        upgrade(directory=MIGRATIONS, revision=BEFORE)
        with db.engine.begin() as connection:
            games = Table("games", MetaData(), autoload_with=connection)
            assert "started_from" not in games.c
            group = _old_game(games, connection, "group", at(1, 18),
                              setup={"name": "Fridays", "people": ["An", "Binh", "Chi"]})  # before time zones
            other = _old_game(games, connection, "group", at(1, 18), setup={"name": "Others", "people": ["An"]})
            # Friday 6: the group's table at 22:30; "Score this hand" made its sheet at 07:10 the
            # next morning, outside the group (issue 36's E3).
            table = _old_game(games, connection, "tienlen", at(6, 22, 30), group_id=group["id"])
            made = _old_game(games, connection, "tienlen_scores", at(7, 7, 10), setup={"table": table["id"]},
                             made_for=f"tienlen_scores:{table['id']}")
            # ... and that sheet started a table of its own (both outside the group before).
            next_table = _old_game(games, connection, "tienlen", at(7, 7, 40), setup={"sheet": made["keeper_token"]})
            # Friday 13: the group's sheet at 20:00 started a table at 06:30 the next morning.
            sheet = _old_game(games, connection, "tienlen_scores", at(13, 20), group_id=group["id"])
            from_sheet = _old_game(games, connection, "tienlen", at(14, 6, 30),
                                   setup={"sheet": sheet["keeper_token"], "sheet_watch": sheet["watch_token"]})
            # A sheet made for another group's table stays in its own group.
            theirs = _old_game(games, connection, "tienlen_scores", at(14, 7), group_id=other["id"],
                               made_for=f"trece_sheet:{table['id']}")
            # Games outside every group, and keys that point nowhere: as they were.
            lone_table = _old_game(games, connection, "tienlen", at(20, 21))
            lone_sheet = _old_game(games, connection, "tienlen_scores", at(20, 22),
                                   made_for=f"tienlen_scores:{lone_table['id']}")
            gone = _old_game(games, connection, "tienlen_scores", at(20, 22), made_for="tienlen_scores:99999")
            garbled = _old_game(games, connection, "tienlen_scores", at(20, 22), made_for="tienlen_scores:x1")
            unknown = _old_game(games, connection, "tienlen", at(20, 23), setup={"sheet": "no-such-token"})
            not_a_token = _old_game(games, connection, "tienlen", at(20, 23), setup={"sheet": 7})

        upgrade(directory=MIGRATIONS)

        stored = {g.id: g for g in db.session.scalars(select(Game))}
        where = {row["id"]: (stored[row["id"]].group_id, stored[row["id"]].started_from) for row in (
            made, next_table, from_sheet, theirs, lone_sheet, gone, garbled, unknown, not_a_token, table, sheet)}
        assert where == {
            made["id"]: (group["id"], table["id"]),
            next_table["id"]: (group["id"], made["id"]),
            from_sheet["id"]: (group["id"], sheet["id"]),
            theirs["id"]: (other["id"], table["id"]),
            lone_sheet["id"]: (None, lone_table["id"]),
            gone["id"]: (None, None), garbled["id"]: (None, None),
            unknown["id"]: (None, None), not_a_token["id"]: (None, None),
            table["id"]: (group["id"], None), sheet["id"]: (group["id"], None),
        }
        assert all(g.summary is None and g.summary_version is None for g in stored.values())

        # The group's page puts each on its source's evening (UTC, the day turning at 06:00).
        owner = stored[group["id"]]
        mine = [g for g in stored.values() if g.group_id == owner.id]
        days = evening_days(build_group(owner), [(g.id, g.watch_token, g.created_at, g.started_from) for g in mine])
        assert days == {table["id"]: "2026-11-06", made["id"]: "2026-11-06", next_table["id"]: "2026-11-06",
                        sheet["id"]: "2026-11-13", from_sheet["id"]: "2026-11-13"}
        db.session.remove()
        db.engine.dispose()
