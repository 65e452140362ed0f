"""Trece through the web layer: the check screen, the JSON check, and a whole table game."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from referee.web.extensions import db

HX = {"HX-Request": "true"}
KING_RUN = "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣"


def check_form(top: str = "", play: str = "", must_follow: str = "", **switches: str) -> dict[str, str]:
    """The check form as a browser sends it: the top card as rank + suit radios."""
    data = {"play": play, "must_follow": must_follow, "run_after_joker__present": "1", **switches}
    if top in ("RJ", "BJ"):
        data["top_rank"] = top
    elif top:
        data["top_rank"], data["top_suit"] = top[:-1], top[-1]
    return data


def field_error(html: str, pid: str) -> str:
    match = re.search(rf'<p class="field-error" id="{pid}"[^>]*?(hidden)?>([^<]*)</p>', html)
    assert match, f"no error box {pid}"
    return "" if match.group(1) else html_lib.unescape(match.group(2))


# --------------------------------------------------------------------------- pages


@pytest.mark.parametrize("path", ["/trece/", "/trece/check", "/trece/rules"])
def test_trece_pages_render_and_link_their_stylesheet(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert re.search(r"css/trece\.[0-9a-f]{12}\.css", html)  # versioned name
    assert "/trece/check" in html and "/trece/rules" in html


def test_landing_page_offers_check_rules_and_a_new_table(client):
    html = client.get("/trece/").get_data(as_text=True)
    assert 'action="/trece/new"' in html
    assert 'name="name0"' in html and 'name="turned_rank"' in html


def test_rules_page_explains_the_king_exception_and_the_jokers(client):
    html = client.get("/trece/rules").get_data(as_text=True)
    assert "any queen or any ace" in html
    assert "13 cards" in html and "“thirteen”" in html


# --------------------------------------------------------------------------- the check screen


@pytest.mark.parametrize(
    ("form", "word", "needle"),
    [
        (check_form("J♦", KING_RUN), "Legal", "is a run on J♦"),
        (check_form("J♦", "Q♠"), "Legal", "Q♠ is one rank from J♦"),
        (check_form("K♣", "A♥"), "Legal", "A♥ is one rank from K♣"),
        (check_form("J♦", "7♣"), "Not legal", "7♣ is not one rank from J♦"),
        (check_form("J♦", "Q♥ K♥ Q♣ J♥"), "Not legal", "J♥ is not a ♣"),
        (check_form("K♠", "RJ"), "Not legal", "a red joker goes only on a red king"),
        (check_form("Q♥", "K♥ RJ A♥"), "Not legal", "nothing may follow RJ"),
        (check_form("RJ", "7♣", "h"), "Not legal", "you must play a ♥, not 7♣"),
        (check_form("RJ", "9♥ 10♥", "h"), "Not legal", "played alone"),
        (check_form("RJ", "9♥ 10♥", "h", run_after_joker="on"), "Legal", "starts with a ♥"),
    ],
)
def test_check_screen_gives_the_verdict_and_its_reason(client, form, word, needle):
    response = client.post("/trece/check", data=form, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'<div class="word">{word}' in html
    assert needle in html
    assert "<html" not in html


def test_a_joker_play_says_its_demand_once(client):
    html = client.post("/trece/check", data=check_form("Q♥", "K♥ RJ"), headers=HX).get_data(as_text=True)
    assert 'data-verdict="legal"' in html
    assert html.count("must play") == 1, html
    assert "RJ on K♥: the other player must play a ♥" in html
    assert 'data-demand="♥"' in html


def test_a_joker_play_says_its_demand_once_in_every_language(client):
    said = {"es": "RJ sobre K♥: el otro jugador tiene que jugar una carta de ♥",
            "pt": "RJ sobre K♥: o outro jogador precisa jogar uma carta de ♥",
            "vi": "RJ trên K♥: người kia phải đánh một lá ♥"}
    for lang, sentence in said.items():
        client.set_cookie("lang", lang)
        html = client.post("/trece/check", data=check_form("Q♥", "K♥ RJ"), headers=HX).get_data(as_text=True)
        assert sentence in html, lang
        other = sentence.split(": ")[1].split()[:2]  # "el otro", "o outro", "người kia"
        assert html.count(" ".join(other)) == 1, (lang, html)


@pytest.mark.parametrize("htmx", [False, True])
def test_check_is_a_full_page_without_htmx_and_the_verdict_alone_with_it(client, htmx):
    response = client.post("/trece/check", data=check_form("J♦", KING_RUN), headers=HX if htmx else {})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    assert 'data-verdict="legal"' in html
    assert ("<html" in html) is not htmx
    # The htmx answer never replaces the pickers, only the verdict and the error boxes.
    assert ('data-picker' in html) is not htmx


def test_check_page_keeps_what_was_chosen(client):
    html = client.post("/trece/check", data=check_form("J♦", KING_RUN)).get_data(as_text=True)
    assert re.search(r'name="top_rank" value="J" checked', html)
    assert re.search(r'name="top_suit" value="d" checked', html)
    assert f'value="{KING_RUN}"' in html


def test_check_page_reads_a_shared_link(client):
    html = client.get("/trece/check", query_string={"top": "J♦", "play": KING_RUN}).get_data(as_text=True)
    assert 'data-verdict="legal"' in html


@pytest.mark.parametrize(
    ("form", "pid", "needle"),
    [
        (check_form("J♦", "Q♥ 1x"), "picker-play-error", "'1x' at position 2 is not a card"),
        (check_form("J♦", "Q♥ Q♥"), "picker-play-error", "Q♥ appears twice"),
        (check_form("J♦", "J♦ Q♦"), "picker-play-error", "J♦ is the top of the pile already"),
        (check_form("RJ", "7♠", "s"), "must_follow-error", "RJ cannot demand ♠"),
        ({"top": "J♦ Q♦", "play": "K♦"}, "top-error", "one card expected"),
        ({"top_rank": "Z", "top_suit": "d", "play": "K♦"}, "top-error", "is not a card"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_cards_are_named_beside_their_field_never_a_500(client, form, pid, needle, htmx):
    response = client.post("/trece/check", data=form, headers=HX if htmx else {})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert needle in field_error(html, pid)
    assert 'data-verdict="error"' in html


@pytest.mark.parametrize(
    ("form", "needle"),
    [
        (check_form("", "Q♥"), "Choose the top card"),
        (check_form("RJ", "Q♥"), "demands a suit"),
        (check_form("J♦", ""), "Tap the cards of the play"),
        ({"top_rank": "J", "play": "Q♥"}, "Choose the top card"),
    ],
)
def test_an_unfinished_check_waits_without_an_error(client, form, needle):
    response = client.post("/trece/check", data=form, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-verdict="waiting"' in html and needle in html


def test_a_demand_is_ignored_when_no_joker_is_on_top(client):
    html = client.post("/trece/check", data=check_form("J♦", "Q♠", "h"), headers=HX).get_data(as_text=True)
    assert 'data-verdict="legal"' in html


def test_the_switch_is_remembered_on_the_phone(client):
    form = check_form("RJ", "9♥ 10♥", "h", run_after_joker="on")
    response = client.post("/trece/check", data=form, headers=HX)
    assert "rules_trece=" in response.headers["Set-Cookie"]
    page = client.get("/trece/check").get_data(as_text=True)
    assert re.search(r'name="run_after_joker" value="on" checked', page)
    off = client.post("/trece/check", data=check_form("RJ", "9♥ 10♥", "h"), headers=HX)
    assert 'data-verdict="illegal"' in off.get_data(as_text=True)
    assert not re.search(r'name="run_after_joker" value="on" checked', client.get("/trece/check").get_data(as_text=True))


def test_a_broken_remembered_cookie_falls_back_to_the_defaults(client):
    client.set_cookie("rules_trece", '{"no_such_rule": true}')
    assert client.get("/trece/check").status_code == 200
    assert client.get("/trece/").status_code == 200


# --------------------------------------------------------------------------- the JSON check


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"top": "J♦", "play": KING_RUN, "must_follow": None, "rules": {"run_after_joker": False}},
            {"legal": True, "reason": f"{KING_RUN} is a run on J♦", "joker": False, "demands_suit": None},
        ),
        ({"top": "Q♥", "play": "K♥ RJ"}, {"legal": True, "joker": True, "demands_suit": "♥"}),
        ({"top": "qs", "play": "ks bj"}, {"legal": True, "joker": True, "demands_suit": "♠"}),
        ({"top": "RJ", "play": "7♣", "must_follow": "h"}, {"legal": False, "reason": "you must play a ♥, not 7♣"}),
        ({"top": "RJ", "play": "9♦", "must_follow": "♦"}, {"legal": True, "demands_suit": None}),
        ({"top": "RJ", "play": ["9♦", "10♦"], "must_follow": "d", "rules": {"run_after_joker": True}},
         {"legal": True}),
        ({"top": "J♦", "play": "7♣"}, {"legal": False, "joker": False, "demands_suit": None}),
    ],
)
def test_api_check_answers_the_verdict(client, body, expected):
    response = client.post("/api/trece/check", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert set(answer) == {"legal", "reason", "reason_code", "params", "joker", "demands_suit"}
    for key, value in expected.items():
        assert answer[key] == value


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"top": "J♦", "play": "Q♥ 1x"}, "'1x' at position 2 is not a card"),
        ({"top": "J♦", "play": "Q♥ Q♥"}, "Q♥ appears twice"),
        ({"top": "J♦", "play": "J♦"}, "top of the pile already"),
        ({"top": "J♦", "play": ""}, "at least one card"),
        ({"top": "", "play": "Q♥"}, "'top'"),
        ({"top": "J♦ Q♦", "play": "K♦"}, "one card expected"),
        ({"play": "Q♥"}, "'top' is missing"),
        ({"top": "J♦"}, "'play' is missing"),
        ({"top": "J♦", "play": 7}, "'play' must be a string"),
        ({"top": 11, "play": "Q♥"}, "'top' must be a string"),
        ({"top": "J♦", "play": "Q♥", "rules": {"run_after_jokers": True}}, "unknown house rule 'run_after_jokers'"),
        ({"top": "J♦", "play": "Q♥", "rules": ["run_after_joker"]}, "'rules' must be an object"),
        ({"top": "J♦", "play": "Q♥", "rules": {"run_after_joker": 3}}, "run_after_joker"),
        ({"top": "J♦", "play": "Q♥", "colour": "red"}, "unknown field 'colour'"),
        ({"top": "RJ", "play": "9♥", "must_follow": "x"}, "'x' is not a suit"),
        ({"top": "RJ", "play": "9♥", "must_follow": 3}, "'must_follow' must be a suit"),
        ({"top": "RJ", "play": "9♥"}, "demands a suit"),
        ({"top": "RJ", "play": "9♠", "must_follow": "s"}, "RJ cannot demand ♠"),
        ({"top": "J♦", "play": "Q♦", "must_follow": "h"}, "only a joker demands a suit"),
        ({"top": "J♦", "play": "JK"}, "JK"),
    ],
)
def test_api_check_names_what_is_wrong(api_error, body, needle):
    assert needle in api_error("/api/trece/check", json=body)


def test_api_check_refuses_a_body_that_is_not_json(api_error):
    assert "JSON object" in api_error("/api/trece/check", data="J♦ Q♥", content_type="text/plain")


def test_api_check_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    operation = doc["paths"]["/api/trece/check"]["post"]
    assert "400" in operation["responses"]
    assert operation["requestBody"]["content"]["application/json"]["example"]["top"] == "J♦"


# --------------------------------------------------------------------------- the table


class Table:
    """A table driven through the web layer, reading back what the page shows."""

    def __init__(self, client, htmx: bool = False, names=("Ana", "Ben"), turned=("Q", "♥")) -> None:
        self.client = client
        self.headers = HX if htmx else {}
        response = client.post("/trece/new", data={
            "name0": names[0], "name1": names[1], "dealer": "0",
            "turned_rank": turned[0], "turned_suit": turned[1], "run_after_joker__present": "1",
        })
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]
        self.html = client.get(self.url).get_data(as_text=True)
        self.watch_url = re.search(r'id="watch-link" type="text" readonly value="http://[^/]+([^"]+)"',
                                   self.html).group(1)

    @property
    def token(self) -> str:
        return self.url.rsplit("/", 1)[1]

    @property
    def version(self) -> int:
        return int(re.search(r'data-version="(\d+)"', self.html).group(1))

    def send(self, path: str, data: dict[str, str], version: int | None = None):  # type: ignore[no-untyped-def]
        data = {"version": str(self.version if version is None else version), **data}
        response = self.client.post(self.url + path, data=data, headers=self.headers)
        if response.status_code == 303:
            response = self.client.get(response.headers["Location"])
        self.html = response.get_data(as_text=True)
        return response

    def play(self, cards: str, **kw):  # type: ignore[no-untyped-def]
        return self.send("/act", {"action": "play", "cards": cards}, **kw)

    def draw(self, **kw):  # type: ignore[no-untyped-def]
        return self.send("/act", {"action": "draw"}, **kw)

    def call(self, action: str, player: int, **kw):  # type: ignore[no-untyped-def]
        return self.send("/act", {"action": action, "player": str(player)}, **kw)

    def undo(self, **kw):  # type: ignore[no-untyped-def]
        return self.send("/undo", {}, **kw)

    def refresh(self) -> str:
        self.html = self.client.get(self.url).get_data(as_text=True)
        return self.html

    @property
    def counts(self) -> tuple[int, int]:
        a, b = re.findall(r'data-count="(\d+)"', self.html)
        return int(a), int(b)

    @property
    def stock(self) -> int:
        return int(re.search(r'data-stock="(\d+)"', self.html).group(1))

    @property
    def top(self) -> str:
        return re.search(r'data-top="([^"]+)"', self.html).group(1)

    @property
    def demand(self) -> str | None:
        match = re.search(r'data-demand="([^"]+)"', self.html)
        return match.group(1) if match else None

    def shows(self) -> tuple:
        return self.counts, self.stock, self.top, self.demand


def test_a_new_table_shows_both_counts_the_stock_and_the_turned_card(client):
    table = Table(client)
    assert table.shows() == ((13, 13), 27, "Q♥", None)
    assert "Ben to play" in table.html
    assert table.version == 0
    assert "Share this game" in table.html and 'class="qr"' in table.html


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"name0": "Ana", "name1": "", "turned_rank": "Q", "turned_suit": "h"}, "needs exactly 2 players"),
        ({"name0": "Ana", "name1": "ana", "turned_rank": "Q", "turned_suit": "h"}, "both called"),
        ({"name0": "Ana", "name1": "Ben", "turned_rank": "Q"}, "Choose the card turned face up"),
        ({"name0": "Ana", "name1": "Ben", "turned_rank": "RJ"}, "cannot be here"),
        ({"name0": "Ana", "name1": "Ben", "turned": "1x"}, "is not a card"),
    ],
)
def test_a_table_that_cannot_start_says_why_and_keeps_the_form(client, data, needle):
    response = client.post("/trece/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert needle in html
    assert 'value="Ana"' in html


@pytest.mark.parametrize("htmx", [False, True])
def test_a_whole_game_with_a_joker_penalty_a_caught_last_card_and_a_winner(client, htmx):
    t = Table(client, htmx=htmx)
    # Ben ends a run with the red joker: Ana owes a ♥.
    assert t.play("K♥ RJ").status_code == 200
    assert t.shows() == ((13, 11), 27, "RJ", "♥")
    assert "Ana must play a ♥ or pick up 13" in t.html
    # Ana cannot follow: 13 cards; then one card each until someone plays a ♥.
    assert "Ana picks up 13" in t.html
    t.draw()
    assert t.shows() == ((26, 11), 14, "RJ", "♥")
    assert "Ben draws a card" in t.html
    t.draw()
    t.draw()
    assert t.shows() == ((27, 12), 12, "RJ", "♥")
    t.play("5♥")
    assert t.shows() == ((27, 11), 12, "5♥", None)
    t.play("6♥")
    # Ben runs down to one card (king exception in the middle) and forgets to say it.
    t.play("7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♣ 2♣ 3♣")
    assert t.counts == (26, 1)
    assert "last card not said" in t.html
    assert 'data-action="thirteen" data-player="0"' in t.html
    t.call("thirteen", 0)
    assert t.counts == (26, 14)
    assert "Ana said “thirteen”: Ben had not said “last card” and picked up 13" in t.html
    assert "the pile became the new stock" in t.html
    t.play("4♣")
    t.play("5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♦ 2♦ 3♦ 4♦")
    assert t.counts == (25, 1)
    t.call("last_card", 1)
    assert "said last card" in t.html
    # Saying it in time means "thirteen" is refused without cost.
    refused = t.call("thirteen", 0)
    assert refused.status_code == 422
    assert "Ben said last card in time" in t.html
    assert t.counts == (25, 1)
    t.play("5♦")
    t.play("6♦")
    assert t.counts == (24, 0)
    assert "Ben has no cards left and wins!" in t.html
    assert 'data-action="play"' not in t.html and 'data-action="draw"' not in t.html
    assert t.version == 13
    # The game is over: nothing more is taken.
    assert t.draw().status_code == 422
    assert "the game is over" in t.html
    assert t.version == 13


def test_an_illegal_play_is_refused_with_the_reason_and_changes_nothing(client):
    t = Table(client)
    before = (t.shows(), t.version)
    response = t.play("9♦ 10♦")
    assert response.status_code == 422
    assert 'data-verdict="illegal"' in t.html
    assert "9♦ is not one rank from Q♥" in t.html
    assert 'value="9♦ 10♦"' in t.html  # the typed cards stay in the box
    assert (t.shows(), t.version) == before
    t.refresh()
    assert (t.shows(), t.version) == before


@pytest.mark.parametrize(
    ("cards", "needle"),
    [("K♥ 1x", "'1x' at position 2 is not a card"), ("K♥ K♥", "K♥ appears twice"), ("", "Tap the cards played"),
     ("Q♥", "top of the pile already"), ("JK", "JK")],
)
def test_bad_cards_at_the_table_are_named_beside_the_field(client, cards, needle):
    t = Table(client, htmx=True)
    response = t.play(cards)
    assert response.status_code == 422
    assert needle in field_error(t.html, "picker-cards-error")
    assert t.version == 0


def test_a_card_already_in_the_pile_cannot_be_played_again(client):
    t = Table(client)
    t.play("K♥")
    t.play("A♥")
    assert t.play("K♥").status_code == 422
    assert "K♥ is already in the pile" in t.html


def test_undo_names_the_action_and_takes_it_back(client):
    t = Table(client, htmx=True)
    t.play("K♥ RJ")
    t.draw()
    assert "Undo: Ana could not follow the joker and picked up 13" in t.html
    assert t.undo().status_code == 200
    assert "Undone: Ana could not follow the joker and picked up 13" in t.html
    assert t.shows() == ((13, 11), 27, "RJ", "♥")
    assert "Undo: Ben played K♥ RJ — Ana must play a ♥" in t.html
    t.undo()
    assert t.shows() == ((13, 13), 27, "Q♥", None)
    assert t.version == 4
    assert 'data-action="undo"' not in t.html
    assert t.undo().status_code == 422
    assert "nothing to undo" in t.html


def test_an_unknown_action_is_refused(client):
    t = Table(client, htmx=True)
    assert t.send("/act", {"action": "shuffle"}).status_code == 400
    assert t.call("last_card", 7).status_code == 400
    assert t.version == 0


def test_the_watch_page_shows_the_table_without_controls_and_polls(client):
    t = Table(client)
    t.play("K♥")
    html = client.get(t.watch_url).get_data(as_text=True)
    assert 'data-top="K♥"' in html
    assert "data-action" not in html and "<form" not in html.split('id="table"')[1].split("</section>")[0]
    assert f'hx-get="{t.watch_url}?since=1"' in html and 'hx-trigger="every 3s, sse:version"' in html
    assert 'id="keeper-link"' not in html
    # A poll at the current version costs nothing; after a change it gets the fresh table.
    assert client.get(t.watch_url, query_string={"since": 1}, headers=HX).status_code == 204
    t.draw()
    fresh = client.get(t.watch_url, query_string={"since": 1}, headers=HX)
    assert fresh.status_code == 200
    body = fresh.get_data(as_text=True)
    assert "<html" not in body and 'data-version="2"' in body


def test_a_server_restart_loses_nothing(tmp_path, make_app):
    uri = f"sqlite:///{tmp_path / 'trece.sqlite'}"
    first = make_app(uri)
    t = Table(first.test_client())
    t.play("K♥ RJ")
    t.draw()
    t.undo()
    t.draw()
    shown = (t.shows(), t.version, t.html.count("<li>"))
    with first.app_context():
        db.session.remove()
        db.engine.dispose()
    second = make_app(uri)
    html = second.test_client().get(t.url).get_data(as_text=True)
    again = Table.__new__(Table)
    again.html = html
    assert (again.shows(), again.version, again.html.count("<li>")) == shown
    assert shown[0] == ((26, 11), 14, "RJ", "♥")
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_game_is_the_same_on_sqlite_and_postgresql(any_db_app):
    t = Table(any_db_app.test_client(), htmx=True)
    t.play("K♥ RJ")
    t.draw()
    t.play("5♥", version=1)  # stale: Ben's phone had not seen the draw
    assert "The table changed on another phone" in t.html
    t.draw()
    t.undo()
    assert t.shows() == ((26, 11), 14, "RJ", "♥")
    assert t.version == 4


@pytest.mark.parametrize("king, joker", [("♠", "BJ"), ("♣", "BJ"), ("♥", "RJ"), ("♦", "RJ")])
def test_every_joker_on_its_king_shows_its_demand_line_on_the_check_screen(client, king, joker):
    # ♠ is the first suit (0): it was read as "no demand" and its line was missing.
    html = client.post("/trece/check", data=check_form(f"Q{king}", f"K{king} {joker}"), headers=HX).get_data(as_text=True)
    assert f'data-demand="{king}"' in html
    assert f"{joker} on K{king}: the other player must play a {king}" in html


@pytest.mark.parametrize("king, joker", [("♠", "BJ"), ("♣", "BJ"), ("♥", "RJ"), ("♦", "RJ")])
def test_every_joker_on_its_king_shows_the_demand_banner_at_the_table(client, king, joker):
    t = Table(client, turned=("Q", king))
    t.play(f"K{king} {joker}")
    assert t.demand == king
    assert f"Ana must play a {king} or pick up 13" in t.html
