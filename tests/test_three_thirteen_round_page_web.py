"""The Three Thirteen round page as the server draws it: a round opens on its hands (the first
too), a correction's form comes before the saved hands, and a hand given more cards than the
round deals is told so at once."""

from __future__ import annotations

import re


def new_sheet(client, names=("An", "Bo", "Cy")) -> str:  # type: ignore[no-untyped-def]
    r = client.post("/three-thirteen/new", data={"names": list(names), "dealer": "0"})
    assert r.status_code == 303
    return r.headers["Location"].replace("http://localhost", "")


def test_more_cards_than_the_round_deals_are_said_while_the_hand_is_tapped_in(client):
    sheet = new_sheet(client)
    body = client.get(f"{sheet}/round/1/preview/1?cards_1=4s+5s+6s+9d").get_data(as_text=True)
    assert "4 of 3 cards: 1 too many" in body
    assert 'role="alert"' in body
    body = client.get(f"{sheet}/round/1/preview/1?cards_1=4s+5s+6s+9d+Kd").get_data(as_text=True)
    assert "5 of 3 cards: 2 too many" in body
    body = client.get(f"{sheet}/round/1/preview/1?cards_1=4s+9d").get_data(as_text=True)
    assert "2 of 3 cards" in body and "too many" not in body


def test_the_first_round_opens_on_its_hands_the_banner_and_instructions_after_the_form(client):
    sheet = new_sheet(client)
    body = client.get(f"{sheet}/round/1").get_data(as_text=True)
    form = body.index('class="stack tt-round-form"')
    assert body.index('class="muted tt-how"') > form
    assert body.index('class="tt-back"') > form


def test_a_saved_rounds_correction_comes_before_its_saved_hands(client):
    sheet = new_sheet(client)
    html = client.get(f"{sheet}/round/1").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    form = {"version": version, "out": "0", "cards_0": "4h 5h 6h", "points_1": "7", "points_2": "9"}
    assert client.post(f"{sheet}/round/1", data=form).status_code == 303
    body = client.get(f"{sheet}/round/1").get_data(as_text=True)
    assert body.index("Save the correction") < body.index("Saved hands")


def test_a_new_sheets_form_shows_four_names_and_start_first_the_rest_folded(client):
    body = client.get("/three-thirteen/").get_data(as_text=True)
    start = body.index("Start the sheet")
    assert body.index('id="name-3"') < start < body.index('class="switches-box"')
    more = body.index('<details class="tt-more-players">')
    assert body.index('id="name-3"') < more < body.index('id="name-4"')  # players 5 to 8 folded, closed
    assert body.index('class="lead"') > start  # the introduction after the form


def test_a_new_evenings_form_shows_start_before_its_folded_scoring_rules(client):
    body = client.get("/tienlen/scores/").get_data(as_text=True)
    start = body.index("Start the sheet")
    assert body.index('id="name3"') < start < body.index('<details class="switches-box ts-switches">')
