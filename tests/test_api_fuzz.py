"""No input makes the JSON API fail: whatever a phone sends gets 200, or a 400 (a body its document
forbids) or 422 (a body it allows whose facts cannot be) with a reason.

Hypothesis throws random JSON, half-right card strings and wrong types at every endpoint.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARDISH = st.text(alphabet="A23456789TJQK10shdc♠♣♦♥♤ ,JKRB1xz🃏", max_size=40)
JSON_SCALARS = st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=False) | CARDISH
JSON = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(CARDISH, inner, max_size=3),
                    max_leaves=6)

TIENLEN_SWITCHES = ["twos_in_sequences", "first_lead", "quad_beats_pair_of_twos", "quad_beats_three_pairs",
                    "four_pairs_beat_quad", "bomb_after_pass", "play_on", "instant_wins", "bogus"]
THREE_SWITCHES = ["faces", "decks", "aces", "jokers", "longer_game", "up_and_back", "doubles", "false_out", "bogus"]

ENDPOINTS = {
    "/api/tienlen/check": st.fixed_dictionaries(
        {"play": CARDISH | JSON},
        optional={"table": CARDISH | JSON, "first_play": JSON_SCALARS,
                  "rules": st.dictionaries(st.sampled_from(TIENLEN_SWITCHES), JSON_SCALARS, max_size=3) | JSON},
    ),
    "/api/three-thirteen/score": st.fixed_dictionaries(
        {"hand": CARDISH | JSON},
        optional={"round": JSON_SCALARS, "players": JSON_SCALARS,
                  "rules": st.dictionaries(st.sampled_from(THREE_SWITCHES), JSON_SCALARS, max_size=3) | JSON},
    ),
    "/api/trece/check": st.fixed_dictionaries(
        {"top": CARDISH | JSON, "play": CARDISH | JSON},
        optional={"must_follow": JSON_SCALARS, "rules": st.dictionaries(st.sampled_from(["run_after_joker", "x"]),
                                                                         JSON_SCALARS, max_size=2) | JSON},
    ),
    "/api/cards/parse": st.fixed_dictionaries({"cards": CARDISH | JSON}),
    "/api/tienlen/score": st.fixed_dictionaries(
        {"players": st.integers(1, 5) | JSON_SCALARS, "winner": st.integers(-1, 4) | JSON_SCALARS,
         "cards_left": st.lists(st.integers(-1, 14), max_size=5) | JSON},
        optional={"order": st.permutations([0, 1, 2, 3]) | JSON, "leftover": st.lists(CARDISH | st.none(), max_size=4) | JSON,
                  "frozen": st.lists(st.booleans(), max_size=4) | JSON, "instant_win": JSON_SCALARS,
                  "chops": st.lists(st.lists(st.fixed_dictionaries(
                      {"by": st.integers(-1, 4), "from": st.integers(-1, 4)}, optional={"twos": CARDISH}),
                      max_size=3), max_size=2) | JSON,
                  "rules": st.dictionaries(st.sampled_from(["score_by", "frozen", "chop_red", "play_on", "x"]),
                                           JSON_SCALARS, max_size=3) | JSON},
    ),
}

@pytest.mark.parametrize("path", sorted(ENDPOINTS))
def test_any_body_gets_a_verdict_or_a_reason_never_a_crash(shared_app, path):
    client = shared_app.test_client()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=ENDPOINTS[path] | JSON)
    def check(body):
        response = client.post(path, json=body)
        assert response.status_code in (200, 400, 422), (body, response.status_code, response.get_data(as_text=True))
        data = response.get_json()
        if response.status_code in (400, 422):
            assert isinstance(data["error"], str) and data["error"].strip()
        else:
            assert "error" not in data

    check()
