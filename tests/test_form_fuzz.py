"""No form a phone can send makes a page fail: random fields on every page and write route
get a page or a refusal with a reason (4xx), never a 500."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARDISH = st.text(alphabet="A23456789TJQK10shdc♠♣♦♥ ,JKRB1x<>&'\"", max_size=30)
VALUE = CARDISH | st.integers(-3, 40).map(str) | st.sampled_from(["", "on", "off", "true", "-1", "999999999999"])
FIELDS = ["version", "cards", "play", "table", "top", "must_follow", "first_play", "seat", "kind", "action",
          "name0", "name1", "name2", "name3", "names", "dealer", "leader", "hand_size", "turned", "out",
          "points_0", "points_1", "cards_0", "cards_1", "round", "players", "wild", "run_after_joker",
          "faces", "decks", "aces", "jokers", "first_lead", "quad_beats_pair_of_twos", "twos_in_sequences",
          "left_0", "left_1", "left_2", "place_0", "place_1", "chop_by_0", "chop_on_0", "chop_twos_0", "instant",
          "lowest", "link", "score_by", "frozen", "chop_red", "play_on"]
FORM = st.dictionaries(st.sampled_from(FIELDS), VALUE, max_size=8)


@pytest.fixture(scope="module")
def tokens(shared_app):
    """A game of each kind, made once for the module."""
    client = shared_app.test_client()
    made = {
        "tienlen": client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "0"}),
        "trece": client.post("/trece/new", data={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned": "7h",
                                                 "top": "7h"}),
        "three_thirteen": client.post("/three-thirteen/new", data={"names": ["Ann", "Bao", "Chi"], "dealer": "0"}),
        "tienlen_scores": client.post("/tienlen/scores/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi"}),
    }
    tokens = {}
    for kind, response in made.items():
        assert response.status_code == 303, (kind, response.status_code, response.get_data(as_text=True)[:500])
        tokens[kind] = re.search(r"/g/([\w-]+)", response.headers["Location"]).group(1)
    return tokens


ROUTES = [
    ("POST", "/tienlen/check"), ("GET", "/tienlen/check"), ("POST", "/tienlen/new"),
    ("POST", "/tienlen/g/{tienlen}/play"), ("POST", "/tienlen/g/{tienlen}/pass"), ("POST", "/tienlen/g/{tienlen}/next"),
    ("POST", "/tienlen/g/{tienlen}/instant"), ("POST", "/tienlen/g/{tienlen}/undo"), ("GET", "/tienlen/g/{tienlen}"),
    ("POST", "/trece/check"), ("GET", "/trece/check"), ("POST", "/trece/new"), ("POST", "/trece/g/{trece}/act"),
    ("POST", "/trece/g/{trece}/undo"), ("GET", "/trece/g/{trece}"),
    ("GET", "/three-thirteen/score"), ("POST", "/three-thirteen/new"),
    ("POST", "/three-thirteen/g/{three_thirteen}/round/1"), ("GET", "/three-thirteen/g/{three_thirteen}/round/1"),
    ("GET", "/three-thirteen/g/{three_thirteen}/round/1/preview/0"), ("POST", "/three-thirteen/g/{three_thirteen}/undo"),
    ("GET", "/three-thirteen/g/{three_thirteen}"),
    ("POST", "/tienlen/scores/new"), ("GET", "/tienlen/scores/g/{tienlen_scores}"),
    ("POST", "/tienlen/scores/g/{tienlen_scores}/add"), ("POST", "/tienlen/scores/g/{tienlen_scores}/game/1"),
    ("POST", "/tienlen/scores/g/{tienlen_scores}/tables"), ("POST", "/tienlen/scores/g/{tienlen_scores}/follow"),
    ("POST", "/tienlen/scores/g/{tienlen_scores}/undo"), ("GET", "/tienlen/scores/g/{tienlen_scores}/add"),
]


@pytest.mark.parametrize(("method", "route"), ROUTES, ids=[f"{m} {r}" for m, r in ROUTES])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_any_form_gets_a_page_or_a_reason_never_a_crash(shared_app, tokens, method, route, htmx):
    client = shared_app.test_client()
    path = route.format(**tokens)
    headers = {"HX-Request": "true"} if htmx else {}

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(form=FORM)
    def check(form):
        if method == "GET":
            response = client.get(path, query_string=form, headers=headers)
        else:
            response = client.post(path, data=form, headers=headers)
        assert response.status_code < 500, (form, response.status_code)
        if response.status_code >= 400:
            assert response.get_data(as_text=True).strip(), "a refusal says why"

    check()
