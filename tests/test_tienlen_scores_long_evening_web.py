"""A long Tiến lên evening stays usable: after 40 games the sheet shows the latest games with
Undo, CSV and Rematch right above them; the older games are folded, each still there."""

from __future__ import annotations

import re

from tests.test_tienlen_scores_web import Evening, start_sheet

LATEST = 5


def test_after_forty_games_undo_and_the_latest_games_come_first_the_older_ones_folded(app, client):
    e = Evening(app, client, start_sheet(client))
    for _ in range(40):
        assert e.post("/add", out="0", left_1="5", left_2="4", left_3="2").status_code == 303
    body = e.page()
    games = re.findall(r'<article class="ts-game" data-game="(\d+)"', body)
    assert sorted(map(int, games)) == list(range(1, 41))  # every game still on the page
    folded = body.index('<details class="ts-older"')
    first_games = re.findall(r'data-game="(\d+)"', body[:folded])
    assert first_games == [str(n) for n in range(40, 40 - LATEST, -1)]  # the latest, newest first
    assert "5 latest games shown" not in body  # the fold says how many it holds instead
    assert re.search(r"<summary>[^<]*35 older games", body)
    undo = body.index('data-action="undo"')
    assert undo < body.index('data-game="40"')  # Undo, CSV and Rematch above the games
    assert body.index("Export CSV") < body.index('data-game="40"')


def test_a_short_evening_folds_nothing(app, client):
    e = Evening(app, client, start_sheet(client))
    for _ in range(LATEST):
        assert e.post("/add", out="0", left_1="5", left_2="4", left_3="2").status_code == 303
    assert '<details class="ts-older"' not in e.page()
