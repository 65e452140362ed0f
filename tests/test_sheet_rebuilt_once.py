"""A score sheet is rebuilt (its events replayed) once per request: saving a round or a game,
refused or stale, on a plain form or through htmx."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from referee.web.games.three_thirteen import sheet as three_thirteen_sheet
from referee.web.games.tienlen import evening_pages as tienlen_evening  # where the evening is replayed
from referee.web.store import find_by_token

HTMX = {"HX-Request": "true"}


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every replay of a sheet's events, by the web module that asked for it."""
    counted: list[str] = []

    def counting(module: Any, name: str) -> None:
        real: Callable[..., Any] = module.replay

        def replay(*args: Any, **kwargs: Any) -> Any:
            counted.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, "replay", replay)

    counting(three_thirteen_sheet, "three_thirteen")
    counting(tienlen_evening, "tienlen_scores")
    return counted


def _version(app: Any, token: str) -> str:
    with app.app_context():
        return str(find_by_token(token).game.version)


def _three_thirteen(client: Any) -> str:
    response = client.post("/three-thirteen/new", data={"names": ["Ana", "Bao", ""], "dealer": "0"})
    assert response.status_code == 303
    return str(response.headers["Location"].rsplit("/", 1)[-1])


def _round(app: Any, token: str, ana: str) -> dict[str, Any]:
    return {"version": _version(app, token), "out": ["1"], "cards_0": ana, "points_0": "",
            "cards_1": "A♥ 2♥ 3♥", "points_1": ""}


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain form", "htmx"])
def test_saving_a_three_thirteen_round_rebuilds_the_sheet_once(app, client, replays, headers) -> None:  # type: ignore[no-untyped-def]
    token = _three_thirteen(client)
    replays.clear()
    response = client.post(f"/three-thirteen/g/{token}/round/1", data=_round(app, token, "9♠ 9♥ 7♣"), headers=headers)
    assert response.status_code in (200, 303) and _version(app, token) == "1"
    assert replays == ["three_thirteen"]
    if headers:  # the fragment answering the write shows the round just saved
        assert "Round 1 entered: 25, 0" in response.get_data(as_text=True)


def test_a_refused_three_thirteen_round_rebuilds_the_sheet_once(app, client, replays) -> None:  # type: ignore[no-untyped-def]
    token = _three_thirteen(client)
    replays.clear()
    response = client.post(f"/three-thirteen/g/{token}/round/1", data=_round(app, token, "9♠ 9x"))
    assert response.status_code == 422
    assert replays == ["three_thirteen"]


def _evening(client: Any) -> str:
    response = client.post("/tienlen/scores/new", data={"name0": "An", "name1": "Binh", "name2": "Chi"})
    assert response.status_code == 303
    return str(response.headers["Location"].rsplit("/", 1)[1])


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain form", "htmx"])
def test_a_tienlen_game_added_by_hand_rebuilds_the_sheet_once(app, client, replays, headers) -> None:  # type: ignore[no-untyped-def]
    token = _evening(client)
    replays.clear()
    response = client.post(f"/tienlen/scores/g/{token}/add", headers=headers,
                           data={"version": _version(app, token), "out": "0", "left_1": "5", "left_2": "4"})
    assert response.status_code in (200, 303) and _version(app, token) == "1"
    assert replays == ["tienlen_scores"]
    if headers:
        totals = re.findall(r'data-total="\d">([+-]?\d+)<', response.get_data(as_text=True))
        assert [int(t) for t in totals] == [9, -5, -4]


def test_a_refused_or_stale_tienlen_game_rebuilds_the_sheet_once(app, client, replays) -> None:  # type: ignore[no-untyped-def]
    token = _evening(client)
    replays.clear()
    response = client.post(f"/tienlen/scores/g/{token}/add", data={"version": "0", "out": "0", "left_1": "5"})
    assert response.status_code == 422 and replays == ["tienlen_scores"]
    client.post(f"/tienlen/scores/g/{token}/add", data={"version": "0", "out": "0", "left_1": "5", "left_2": "4"})
    replays.clear()
    response = client.post(f"/tienlen/scores/g/{token}/add", data={"version": "0", "out": "1", "left_0": "5",
                                                                   "left_2": "4"})
    assert response.status_code == 409 and replays == ["tienlen_scores"]
