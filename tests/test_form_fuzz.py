"""No form a phone can send makes a page fail: random fields on every page and write route
get a page or a refusal with a reason (4xx), never a 500.  The routes are every GET and POST
address of every game of the registry (tests/games.py), the toy game's included."""

import dataclasses

import pytest
from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games import ENTRIES, ROWS

CARDISH = st.text(alphabet="A23456789TJQK10shdc♠♣♦♥ ,JKRB1x<>&'\"", max_size=30)
VALUE = CARDISH | st.integers(-3, 40).map(str) | st.sampled_from(["", "on", "off", "true", "-1", "999999999999"])
FIELDS = ["version", "cards", "play", "table", "top", "must_follow", "first_play", "seat", "kind", "action",
          "name0", "name1", "name2", "name3", "names", "dealer", "leader", "hand_size", "turned", "out",
          "points_0", "points_1", "cards_0", "cards_1", "round", "players", "wild", "run_after_joker",
          "faces", "decks", "aces", "jokers", "first_lead", "quad_beats_pair_of_twos", "twos_in_sequences",
          "left_0", "left_1", "left_2", "place_0", "place_1", "chop_by_0", "chop_on_0", "chop_twos_0", "instant",
          "lowest", "link", "score_by", "frozen", "chop_red", "play_on"]
# ... and every field of the registry's worked examples and every switch of its rules classes.
FIELDS = sorted({*FIELDS, *(key for row in ROWS for form in (row.new, row.legal[1], row.refused[1]) for key in form),
                 *(f.name for entry in ENTRIES for cls in entry.rules for f in dataclasses.fields(cls))})
FORM = st.dictionaries(st.sampled_from(FIELDS), VALUE, max_size=8)


@pytest.fixture(scope="module")
def tokens(shared_app):
    """A game of each followed kind of the registry (from its entry's example), made once."""
    client = shared_app.test_client()
    return {row.kind: row.start(client)[0] for row in ROWS}


def routes(app, entry, tokens) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every GET and POST address of a game's blueprints, with its followed games' tokens and
    numbers (a round, a seat, a table) filled in."""
    kinds = {f.blueprint.name: f.kind for f in entry.followed}
    names = {bp.name for bp in entry.blueprints}
    found = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            blueprint = rule.endpoint.rpartition(".")[0]
            if blueprint not in names:
                continue
            values = {arg: (tokens[kinds[blueprint]] if arg == "token" else 1) for arg in rule.arguments}
            path = url_for(rule.endpoint, **values)
            found += [(method, path) for method in sorted((rule.methods or set()) & {"GET", "POST"})]
    assert found, entry.slug
    return found


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.slug for e in ENTRIES])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_any_form_gets_a_page_or_a_reason_never_a_crash(shared_app, tokens, entry, htmx):
    client = shared_app.test_client()
    headers = {"HX-Request": "true"} if htmx else {}

    for method, path in routes(shared_app, entry, tokens):
        fuzz(client, method, path, headers)


def fuzz(client, method: str, path: str, headers: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(form=FORM)
    def check(form):  # type: ignore[no-untyped-def]
        if method == "GET":
            response = client.get(path, query_string=form, headers=headers)
        else:
            response = client.post(path, data=form, headers=headers)
        assert response.status_code < 500, (method, path, form, response.status_code)
        if response.status_code >= 400:
            assert response.get_data(as_text=True).strip(), "a refusal says why"

    check()
