"""What a public address meets: starting ids reused, limits, retention, caches keyed by what a
client sets, headers behind a proxy, a table's page that must not hold its sheet's keeper link."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from referee.web.extensions import db
from referee.web.models import Game
from tests.games import ROWS


def _games(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Game)))


@pytest.mark.parametrize("write", ["a1" * 16, "9" * 20], ids=["hex", "twenty-nines"])
def test_a_starting_id_reused_on_another_kind_of_game_is_a_409_that_starts_nothing(app, client, write):
    first, other = ROWS[0], next(r for r in ROWS if r.kind != ROWS[0].kind)
    assert client.post(f"{first.prefix}/new", data={**first.new, "write": write}).status_code == 303
    before = _games(app)
    response = client.post(f"{other.prefix}/new", data={**other.new, "write": write}, headers={"Accept-Language": "es"})
    assert response.status_code == 409
    assert "Abre la página de nuevo" in response.get_data(as_text=True)
    assert _games(app) == before
    again = client.post(f"{first.prefix}/new", data={**first.new, "write": write})  # its own form: the same game
    assert again.status_code == 303 and _games(app) == before
