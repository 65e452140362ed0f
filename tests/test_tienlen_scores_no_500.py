"""Issue 27's goal "0 HTTP 500 from any score form or API body": random bodies and forms, made of
the pieces a score entry is made of (seats, counts, cards typed twice, 2s, bombs, chop chains
before and after the first out), are answered with a score or a refusal naming what is wrong."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARDS = ["2s", "2c", "2d", "2h", "3c", "3d", "4c", "4d", "5c", "5d", "9s", "9c", "9d", "9h", "Ah", "JK", "5x", "10h"]
seat = st.one_of(st.integers(-1, 4), st.just(True), st.none(), st.just("1"))
count = st.one_of(st.integers(-1, 14), st.just(1.5), st.none())
cards_text = st.lists(st.sampled_from(CARDS), max_size=14).map(" ".join)
per_seat = st.one_of(st.none(), st.lists(st.one_of(st.none(), cards_text), min_size=1, max_size=5))
step = st.fixed_dictionaries({"by": seat, "from": seat}, optional={
    "twos": st.one_of(cards_text, st.integers()), "after_out": st.one_of(st.booleans(), st.just("yes"))})
body = st.fixed_dictionaries(
    {"players": st.one_of(st.integers(1, 5), st.just("3")), "winner": seat,
     "cards_left": st.one_of(st.lists(count, min_size=1, max_size=5), st.just("0 13"))},
    optional={"order": st.one_of(st.none(), st.lists(seat, max_size=5)), "leftover": per_seat, "caught": per_seat,
              "frozen": st.one_of(st.none(), st.lists(st.booleans(), max_size=5)),
              "chops": st.one_of(st.none(), st.lists(st.lists(step, max_size=3), max_size=3)),
              "instant_win": seat,
              "rules": st.fixed_dictionaries({}, optional={"play_on": st.booleans(), "instant_wins": st.booleans(),
                                                           "score_by": st.sampled_from(["cards", "places"])})})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=body)
def test_any_api_body_is_scored_or_refused_with_a_reason(client, data) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/api/tienlen/score", json=data)
    # 400: a body the API's document forbids; 422: one it allows whose facts cannot be.
    assert response.status_code in (200, 400, 422), response.get_data(as_text=True)
    if response.status_code != 200:
        assert response.get_json()["error"]


def sheet(client, **switches) -> str:  # type: ignore[no-untyped-def]
    form = {f"name{i}": n for i, n in enumerate(("An", "Bao", "Chi"))}
    for key, value in switches.items():
        form[f"{key}__present"], form[key] = "1", "on" if value else ""
    return client.post("/tienlen/scores/new", data=form).headers["Location"].rsplit("/", 1)[1]


def version(client, path: str) -> str:  # type: ignore[no-untyped-def]
    return re.search(r'name="version" value="(\d+)"', client.get(path).get_data(as_text=True)).group(1)


form_value = st.one_of(st.sampled_from(["", "0", "1", "2", "3", "13", "14", "yes", "no", "x", "٣"]), cards_text)
field = st.one_of(
    st.sampled_from(["out", "instant"]),
    st.builds(lambda n, s: f"{n}_{s}", st.sampled_from(["place", "left", "cards", "caught", "frozen"]),
              st.integers(0, 3)),
    st.builds(lambda n, r: f"{n}_{r}", st.sampled_from(["chop_by", "chop_on", "chop_twos", "chop_new", "chop_after"]),
              st.integers(0, 9)))


@pytest.mark.parametrize("play_on", [False, True])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.dictionaries(field, form_value, max_size=14))
def test_any_game_typed_by_hand_is_saved_or_refused_with_a_422(client, play_on, typed) -> None:  # type: ignore[no-untyped-def]
    token = sheet(client, play_on=play_on)
    path = f"/tienlen/scores/g/{token}/add"
    response = client.post(path, data={**typed, "version": version(client, path)})
    assert response.status_code in (303, 422), response.get_data(as_text=True)[:2000]
    if response.status_code == 303:
        correction = f"/tienlen/scores/g/{token}/game/1"
        assert client.get(correction).status_code == 200
        again = client.post(correction, data={**typed, "version": version(client, correction)})
        assert again.status_code == 303
