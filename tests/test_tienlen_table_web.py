"""The Tiến lên table through the web layer: whole hands played with the test client.

Every write is a plain form POST (as without JavaScript: answered by a 303 to the
table) unless the test says htmx.  The state is read back from the table page.
"""

from __future__ import annotations

import html
import re
import threading

import pytest

from referee.web.extensions import db
from referee.web.models import Event, Game
from referee.web.store import find_by_token

NAMES = ("Ana", "Bao", "Chi", "Dung")
HTMX = {"HX-Request": "true"}


# --- helpers --------------------------------------------------------------------------------


def create(client, names=NAMES, leader=1, hand_size=13, **switches):
    form = {f"name{i}": n for i, n in enumerate(names)}
    form.update(leader=str(leader), hand_size=str(hand_size))
    for key, value in switches.items():
        form[f"{key}__present"] = "1"
        if value:
            form[key] = value if isinstance(value, str) else "on"
    response = client.post("/tienlen/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def version(app, token):
    with app.app_context():
        return find_by_token(token).game.version


def watch_token(app, token):
    with app.app_context():
        return find_by_token(token).game.watch_token


def event_count(app):
    with app.app_context():
        return db.session.query(Event).count()


def page(client, token, **query):
    response = client.get(f"/tienlen/g/{token}", query_string=query)
    assert response.status_code == 200
    return text(response)


def text(response):
    return html.unescape(response.get_data(as_text=True))


class Table:
    """A keeper phone at the table: remembers its token and always sends the current version."""

    def __init__(self, app, client, token):
        self.app, self.client, self.token = app, client, token

    def post(self, what, seen=None, headers=None, **form):
        form["version"] = str(version(self.app, self.token) if seen is None else seen)
        return self.client.post(f"/tienlen/g/{self.token}/{what}", data=form, headers=headers or {})

    def play(self, seat, cards, **kw):
        return self.post("play", seat=str(seat), cards=cards, **kw)

    def pass_(self, seat, **kw):
        return self.post("pass", seat=str(seat), **kw)

    def refused(self, response):
        """A write the referee refused (422): the page that says why."""
        assert response.status_code == 422, text(response)
        return text(response)

    def ok(self, response):
        assert response.status_code == 303, text(response)
        assert response.headers["Location"].endswith(f"/tienlen/g/{self.token}")
        return response

    def page(self):
        """The table's page without what is new at each drawing: the moment it was made
        (``data-rendered``, to the second) and a starting form's fresh write id (the keeper's
        "Make a group of these players")."""
        drawn = re.sub(r'data-rendered="[^"]*"', "", page(self.client, self.token))
        return re.sub(r'name="write" value="[^"]*" data-write-id', 'name="write" data-write-id', drawn)


def turn(body):
    """The name in the turn banner."""
    match = re.search(r'class="tl-status-name">([^<]+)<', body)
    return match.group(1).strip() if match else None


def table_cards(body):
    return re.findall(r'class="tl-card [a-z]+" aria-label="([^"]+)"', body)


def typed(body):
    match = re.search(r'name="cards" value="([^"]*)"', body)
    return match.group(1) if match else None


def passed(body):
    """Names tagged as passed (locked out)."""
    rows = re.findall(r'<li class="tl-player([^"]*)">(.*?)</li>', body, re.S)
    return [re.sub(r"<[^>]+>|▶|on turn:", "", r[1]).split()[0] for r in rows if "is-locked" in r[0]]


def cards_left(body):
    return [int(n) for n in re.findall(r'class="tl-left"><b>(\d+)</b>', body)]


@pytest.fixture
def table(app, client):
    return Table(app, client, create(client))


# --- creating a game ------------------------------------------------------------------------


def test_the_new_game_form_asks_for_names_in_seat_order_and_the_holder_of_3s(client):
    body = text(client.get("/tienlen/new"))
    for i in range(4):
        assert f'name="name{i}"' in body
    assert body.count('name="leader"') == 4
    assert 'name="play_on"' in body and 'name="first_lead"' in body


def test_a_game_needs_two_to_four_names_and_someone_holding_3s(client):
    response = client.post("/tienlen/new", data={"name0": "Ana", "leader": "0"})
    assert response.status_code == 422
    assert "2 to 4 players" in text(response)
    response = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao"})
    assert response.status_code == 422
    body = text(response)
    assert "holds 3♠" in body
    assert 'value="Ana"' in body and 'value="Bao"' in body  # what was typed stays
    response = client.post("/tienlen/new", data={"name0": "Ana", "name1": "ana", "leader": "0"})
    assert response.status_code == 422
    assert "both called" in text(response)


def test_the_3s_holder_must_be_a_named_seat(client):
    response = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "leader": "3"})
    assert response.status_code == 422


def test_empty_rows_are_skipped_and_seats_close_up(app, client):
    token = create(client, names=("Ana", "", "Chi"), leader=2)
    body = page(client, token)
    assert turn(body) == "Chi"
    assert cards_left(body) == [13, 13]


def test_house_rules_chosen_at_creation_are_kept_and_remembered(app, client):
    token = create(client, play_on=True, first_lead="any")
    with app.app_context():
        game = find_by_token(token).game
        assert game.rules["play_on"] is True and game.rules["first_lead"] == "any"
        assert game.setup["leader"] == 1 and game.setup["players"] == list(NAMES)
    body = text(client.get("/tienlen/new"))
    assert re.search(r'name="play_on" value="on" checked', body)
    assert re.search(r'<option value="any" selected>', body)


# --- the opening ----------------------------------------------------------------------------


def test_the_holder_of_3s_is_on_turn_and_must_lead_it(app, table):
    body = table.page()
    assert turn(body) == "Bao"
    assert "must contain 3♠" in body
    assert "Pass" not in re.sub(r"Passed|passed", "", body.split("tl-play")[1].split("</form>")[0])


def test_an_opening_without_3s_is_refused_and_changes_nothing(app, table):
    response = table.play(1, "4s 4h")
    assert response.status_code == 422
    body = text(response)
    assert "the first play of the game must contain the 3♠" in body
    assert typed(body) == "4s 4h"
    assert turn(body) == "Bao"
    assert version(app, table.token) == 0 and event_count(app) == 0


def test_the_opening_with_3s_stands_and_the_turn_moves_on(table):
    table.ok(table.play(1, "3s 4h 5c"))
    body = table.page()
    assert table_cards(body) == ["3♠", "4♥", "5♣"]
    assert "played by Bao" in body
    assert turn(body) == "Chi"
    assert cards_left(body) == [13, 10, 13, 13]
    assert "Bao played 3♠ 4♥ 5♣" in body


def test_a_play_out_of_turn_is_refused_by_name(table):
    assert "it is Bao's turn, not Chi's" in table.refused(table.play(2, "3s"))


# --- passes, the lock and the clearing ------------------------------------------------------


def test_passes_lock_players_out_until_the_table_clears_and_the_last_player_leads(table):
    table.ok(table.play(1, "3s"))
    table.ok(table.pass_(2))
    body = table.page()
    assert passed(body) == ["Chi"]
    assert turn(body) == "Dung"
    table.ok(table.play(3, "9h"))
    table.ok(table.pass_(0))
    body = table.page()
    assert passed(body) == ["Ana", "Chi"]
    assert turn(body) == "Bao"
    table.ok(table.pass_(1))
    # Dung played last and everyone else has passed since: the table clears and Dung leads anything.
    body = table.page()
    assert passed(body) == []
    assert table_cards(body) == [] and "The table is clear" in body
    assert turn(body) == "Dung" and "leads: any combination" in body
    assert "Bao passed · table cleared" in body


def test_the_clearing_frees_the_locked_players(table):
    table.ok(table.play(1, "3s"))
    for seat in (2, 3, 0):
        table.ok(table.pass_(seat))
    body = table.page()
    assert passed(body) == []
    assert turn(body) == "Bao"
    assert "table cleared" in body
    table.ok(table.play(1, "7s"))
    table.ok(table.play(2, "8s"))  # Chi passed before the clearing and may play again


def test_leading_an_empty_table_cannot_be_passed(table):
    assert "the table is empty: Bao must lead" in table.refused(table.pass_(1))


def test_a_locked_player_is_skipped(table):
    table.ok(table.play(1, "3s"))
    table.ok(table.pass_(2))
    table.ok(table.play(3, "5s"))
    table.ok(table.play(0, "6s"))
    table.ok(table.play(1, "7s"))
    assert turn(table.page()) == "Dung"  # Chi passed: locked out until the table clears


# --- bombs, going out, the next hand --------------------------------------------------------


def test_four_of_a_kind_bombs_a_single_two(table):
    table.ok(table.play(1, "3s"))
    table.ok(table.play(2, "2c"))
    table.ok(table.play(3, "9s 9h 9c 9d"))
    body = table.page()
    assert table_cards(body) == ["9♠", "9♣", "9♦", "9♥"]
    assert "four 9s" in body and "bomb" in body
    assert "Dung played 9♠ 9♣ 9♦ 9♥ · bomb" in body


def test_a_double_sequence_bombs_a_single_two_but_a_pair_does_not(table):
    table.ok(table.play(1, "3s"))
    table.ok(table.play(2, "2h"))
    assert "a single 2 is beaten only by" in table.refused(table.play(3, "4s 4h"))
    table.ok(table.play(3, "5s 5h 6s 6h 7s 7h"))
    assert "double sequence of 3 pairs" in table.page()


def test_a_pair_of_twos_needs_four_pairs_unless_the_house_rule_lets_a_quad_bomb_it(app, client):
    plain = Table(app, client, create(client))
    plain.ok(plain.play(1, "3s 3c"))
    plain.ok(plain.play(2, "2s 2c"))
    assert plain.play(3, "9s 9h 9c 9d").status_code == 422
    house = Table(app, client, create(client, quad_beats_pair_of_twos=True))
    house.ok(house.play(1, "3s 3c"))
    house.ok(house.play(2, "2s 2c"))
    house.ok(house.play(3, "9s 9h 9c 9d"))


def test_a_player_going_out_wins_the_hand_and_leads_the_next(app, client):
    t = Table(app, client, create(client, hand_size=2))
    t.ok(t.play(1, "3s"))
    t.ok(t.play(2, "5s"))
    for seat in (3, 0, 1):
        t.ok(t.pass_(seat))
    t.ok(t.play(2, "6s"))  # Chi's last card
    body = t.page()
    assert "Hand over" in body and "Chi wins" in body
    assert cards_left(body) == [2, 1, 0, 2]
    assert f'action="/tienlen/g/{t.token}/play"' not in body  # no more plays this hand
    assert "Next hand: Chi leads" in body
    assert t.play(3, "7s").status_code == 422
    t.ok(t.post("next"))
    body = t.page()
    assert "Hand 2" in body and turn(body) == "Chi"
    assert "leads: any combination" in body  # no 3♠ rule after the first hand
    assert cards_left(body) == [2, 2, 2, 2]
    tally = re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td></tr>", body)
    assert tally == [("Ana", "0"), ("Bao", "0"), ("Chi", "1"), ("Dung", "0")]
    assert "Hand 1: Chi won" in body
    t.ok(t.play(2, "3s"))  # a fresh deck: 3♠ can be played again


def test_the_next_hand_waits_for_the_end_of_this_one(table):
    assert "the hand is not over yet" in table.refused(table.post("next"))


def test_with_play_on_everyone_is_ranked(app, client):
    t = Table(app, client, create(client, names=("Ana", "Bao", "Chi"), leader=0, hand_size=1, play_on=True))
    t.ok(t.play(0, "3s"))
    body = t.page()
    assert "Hand over" not in body and turn(body) == "Bao"
    t.ok(t.play(1, "4s"))
    body = t.page()
    assert "Hand over" in body and "Ana wins" in body
    order = re.search(r'<ol class="tl-finish-order">(.*?)</ol>', body, re.S).group(1)
    assert re.findall(r"<li>(\w+)</li>", order) == ["Ana", "Bao", "Chi"]
    t.ok(t.post("next"))
    assert "Hand 1: Ana won · Ana, Bao, Chi" in t.page()


# --- refusals keep the state ----------------------------------------------------------------


def test_a_refused_play_leaves_everything_as_it_was(app, table):
    table.ok(table.play(1, "3s 4h 5c"))
    before = table.page()
    seen = version(app, table.token)
    for cards in ("6s 8h", "4s 5s 6s 7s", "3c 4c 5s", "zz"):
        response = table.play(2, cards)
        assert response.status_code == 422, cards
        body = text(response)
        assert typed(body) == cards
        assert 'role="alert"' in body
    assert version(app, table.token) == seen
    assert table.page() == before


def test_a_card_played_twice_is_refused_by_name(table):
    table.ok(table.play(1, "3s"))
    table.ok(table.play(2, "8h"))
    assert "3♠ has already been played" in table.refused(table.play(3, "3s"))


def test_a_refusal_in_htmx_returns_the_fragment_with_the_reason(table):
    table.ok(table.play(1, "3s"))
    response = table.play(2, "3s", headers=HTMX)
    assert response.status_code == 422
    body = text(response)
    assert "<html" not in body and body.lstrip().startswith("<section")
    assert "3♠ has already been played" in body
    assert "HX-Request" in response.vary


def test_an_htmx_write_answers_with_the_fresh_table(table):
    response = table.play(1, "3s", headers=HTMX)
    assert response.status_code == 200
    body = text(response)
    assert "<html" not in body and turn(body) == "Chi"


# --- undo -----------------------------------------------------------------------------------


def test_undo_names_the_action_and_takes_it_back(app, table):
    table.ok(table.play(1, "3s 4h 5c"))
    table.ok(table.play(2, "7s 8s 9s"))
    body = table.page()
    assert "Undo: Chi played 7♠ 8♠ 9♠" in body
    table.ok(table.post("undo"))
    body = table.page()
    assert turn(body) == "Chi"
    assert table_cards(body) == ["3♠", "4♥", "5♣"]
    assert "Undo: Bao played 3♠ 4♥ 5♣" in body
    table.ok(table.play(2, "7s 8s 9s"))  # the cards are free again
    table.ok(table.post("undo"))
    table.ok(table.post("undo"))
    body = table.page()
    assert turn(body) == "Bao" and "Undo:" not in body
    response = table.post("undo")
    assert response.status_code == 422 and "nothing to undo" in text(response)


def test_undo_reaches_back_over_a_clearing_and_a_next_hand(app, client):
    t = Table(app, client, create(client, names=("Ana", "Bao"), leader=0, hand_size=1))
    t.ok(t.play(0, "3s"))
    t.ok(t.post("next"))
    assert "Undo: Next hand, led by Ana" in t.page()
    t.ok(t.post("undo"))
    body = t.page()
    assert "Hand 1" in body and "Ana wins" in body


# --- links, versions, polling ---------------------------------------------------------------


def test_the_watch_link_shows_the_table_without_any_control_that_writes(app, client, table):
    table.ok(table.play(1, "3s"))
    watch = watch_token(app, table.token)
    body = page(client, watch)
    assert turn(body) == "Chi" and table_cards(body) == ["3♠"]
    body = re.sub(r'<nav class="langs".*?</nav>', "", body, flags=re.S)  # the language switcher writes no game
    assert "<form" not in body and 'method="post"' not in body and "hx-post" not in body
    assert table.token not in body  # the keeper link is not given away
    assert "Undo" not in body


@pytest.mark.parametrize("what", ["play", "pass", "undo", "next", "instant"])
def test_a_watch_link_may_not_write(app, client, table, what):
    watch = watch_token(app, table.token)
    response = client.post(f"/tienlen/g/{watch}/{what}", data={"version": "0", "seat": "1", "cards": "3s"})
    assert response.status_code == 403
    assert event_count(app) == 0


def test_an_unknown_link_is_404(client):
    assert client.get("/tienlen/g/nope").status_code == 404
    assert client.post("/tienlen/g/nope/play", data={"version": "0"}).status_code == 404


def test_instant_wins_can_be_declared_before_the_first_play_when_the_rule_is_on(app, client):
    t = Table(app, client, create(client, instant_wins=True))
    assert "Declare an instant win" in t.page()
    t.ok(t.post("instant", seat="3", kind="dragon"))
    body = t.page()
    assert "Dung wins" in body and "instant win: a dragon (3 to ace)" in body
    off = Table(app, client, create(client))
    assert "Declare an instant win" not in off.page()
    assert off.post("instant", seat="3", kind="dragon").status_code == 422


# --- persistence and concurrency on a real database -----------------------------------------


def test_two_phones_on_the_same_turn_cannot_both_play(any_db_app):
    client = any_db_app.test_client()
    token = create(client)
    Table(any_db_app, client, token).ok(Table(any_db_app, client, token).play(1, "3s"))
    statuses: list[int] = []
    bodies: list[str] = []
    barrier = threading.Barrier(2)

    def phone(cards: str) -> None:
        c = any_db_app.test_client()
        barrier.wait()
        r = c.post(f"/tienlen/g/{token}/play", data={"version": "1", "seat": "2", "cards": cards})
        statuses.append(r.status_code)
        bodies.append(text(r))

    threads = [threading.Thread(target=phone, args=(c,)) for c in ("5h", "6h")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(statuses) == [303, 409]
    stale = bodies[statuses.index(409)]
    assert "The table changed" in stale
    assert typed(stale) in ("5h", "6h")
    with any_db_app.app_context():
        game = find_by_token(token).game
        assert game.version == 2 and len(game.events) == 2


def test_a_restarted_server_loses_nothing(tmp_path, make_app):
    uri = f"sqlite:///{tmp_path / 'table.sqlite'}"
    first = make_app(uri)
    client = first.test_client()
    token = create(client)
    t = Table(first, client, token)
    t.ok(t.play(1, "3s 4h 5c"))
    t.ok(t.pass_(2))
    t.ok(t.play(3, "7s 8s 9s"))
    t.ok(t.post("undo"))
    before = t.page()
    with first.app_context():
        db.session.remove()
        db.engine.dispose()

    second = make_app(uri)
    after = re.sub(r'name="write" value="[^"]*" data-write-id', 'name="write" data-write-id',
                   re.sub(r'data-rendered="[^"]*"', "", page(second.test_client(), token)))
    assert after == before
    assert turn(after) == "Dung" and passed(after) == ["Chi"]
    assert "Undo: Chi passed" in after
    with second.app_context():
        assert db.session.query(Game).count() == 1
        db.session.remove()
        db.engine.dispose()
