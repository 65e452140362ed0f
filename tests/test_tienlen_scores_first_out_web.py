"""Issue 27 through the sheet: the same game followed, typed by hand (with or without the order),
sent to the API or corrected unchanged scores the same; the correction form carries every fact."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from referee.web.store import find_by_token

NAMES = ("An", "Bao", "Chi")
BAO = "2h 3c 3d 4h 5h 6h 8d 9h 10d Jh Qd Kh Ad"  # Bao's hand when An went out: the 2♥, no bomb
RIGHT = [54, -30, -24]


def text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.get_data(as_text=True))


def totals(body: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-total="\d">([+-]?\d+)<', body)]


class FormFields(HTMLParser):
    """What a browser would send for the page's form with ``action`` (inputs, checked boxes,
    selected options, text areas), as a phone sends it saved unchanged."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.inside, self.fields = action, False, {}  # type: ignore[var-annotated]
        self.select: str | None = None
        self.in_template = False

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("action") == self.action
        if tag == "template":
            self.in_template = True
        if not self.inside or self.in_template:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[a["name"]] = a.get("value") or "on"
            else:
                self.fields[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self.select = a.get("name")
            self.fields.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in a:
            self.fields[self.select] = a.get("value") or ""

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag == "form":
            self.inside = False
        if tag == "template":
            self.in_template = False
        if tag == "select":
            self.select = None


def form_of(body: str, action: str) -> dict[str, str]:
    parser = FormFields(action)
    parser.feed(body)
    return parser.fields


class Sheet:
    def __init__(self, app, client, **switches):  # type: ignore[no-untyped-def]
        self.app, self.client = app, client
        form = {f"name{i}": n for i, n in enumerate(NAMES)}
        for key, value in switches.items():
            form[f"{key}__present"] = "1"
            form[key] = "on" if value is True else str(value)
        response = client.post("/tienlen/scores/new", data=form)
        assert response.status_code == 303, text(response)
        self.token = response.headers["Location"].rsplit("/", 1)[1]

    def version(self, token: str | None = None) -> int:
        with self.app.app_context():
            return find_by_token(token or self.token).game.version

    def post(self, path: str, **form):  # type: ignore[no-untyped-def]
        form.setdefault("version", str(self.version()))
        return self.client.post(f"/tienlen/scores/g/{self.token}{path}", data=form)

    def page(self, path: str = "") -> str:
        response = self.client.get(f"/tienlen/scores/g/{self.token}{path}")
        assert response.status_code == 200, text(response)
        return text(response)

    def table(self, leader: int = 0, lowest: str = "3♠") -> tuple[str, int]:
        response = self.post("/tables", leader=str(leader), lowest=lowest)
        assert response.status_code == 303, text(response)
        token = response.headers["Location"].rsplit("/", 1)[1]
        with self.app.app_context():
            return token, find_by_token(token).game.id

    def play(self, table: str, seat: int, cards: str | None) -> None:
        action = "pass" if cards is None else "play"
        data = {"seat": str(seat), "version": str(self.version(table))}
        if cards is not None:
            data["cards"] = cards
        response = self.client.post(f"/tienlen/g/{table}/{action}", data=data)
        assert response.status_code == 303, text(response)

    def correct_unchanged(self, number: int):  # type: ignore[no-untyped-def]
        path = f"/tienlen/scores/g/{self.token}/game/{number}"
        fields = form_of(self.page(f"/game/{number}"), path)
        return self.client.post(path, data=fields), fields


def play_the_issue_hand(sheet: Sheet) -> int:
    """An plays 3♠…A♠, Bao and Chi pass, An plays 2♣ and is out; Bao plays 2♥, Chi bombs it with
    5♣5♦6♣6♦7♣7♦ and goes out later."""
    table, table_id = sheet.table(leader=0)
    for seat, cards in ((0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"), (1, None), (2, None), (0, "2c"),
                        (1, "2h"), (2, "5c 5d 6c 6d 7c 7d"), (1, None), (2, "8c 9c 10c Jc Qc Kc Ac")):
        sheet.play(table, seat, cards)
    return table_id


@pytest.fixture
def play_on(app, client):  # type: ignore[no-untyped-def]
    return Sheet(app, client, play_on=True)


@pytest.mark.parametrize("entered", [{"cards_1": BAO}, {"caught_1": "2h"}])
def test_a_two_played_after_the_first_out_and_chopped_is_entered_from_the_table(play_on, entered) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    form = play_on.page(f"/table/{table_id}/0")
    assert "played no card" not in form.replace("had played no card when An went out", "")
    response = play_on.post(f"/table/{table_id}/0", **entered)
    assert response.status_code == 303, text(response)
    body = play_on.page()
    assert totals(body) == RIGHT
    assert "Bao had played no card when An went out: Bao pays An 2 × 13 = 26" in body
    assert "Bao was caught holding 2♥: Bao pays An 2" in body and "Chi chopped Bao's 2♥: Bao pays Chi 2" in body


def test_the_from_table_form_says_what_is_missing_from_a_hand_held_at_the_first_out(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    response = play_on.post(f"/table/{table_id}/0", cards_1=BAO.replace("2h", "Qh"))
    assert response.status_code == 422
    assert "Bao played 2♥ after An went out, so it is among Bao's leftover cards" in text(response)


@pytest.mark.parametrize("places", [{}, {"place_0": "1", "place_1": "3", "place_2": "2"}])
@pytest.mark.parametrize("entered", [{"cards_1": BAO}, {"caught_1": "2h"}])
def test_the_same_game_by_hand_with_or_without_the_order_scores_the_same(play_on, places, entered) -> None:  # type: ignore[no-untyped-def]
    response = play_on.post("/add", out="0", left_1="13", left_2="13", chop_by_0="2", chop_on_0="1",
                            chop_twos_0="2h", chop_after_0="yes", **places, **entered)
    assert response.status_code == 303, text(response)
    assert totals(play_on.page()) == RIGHT


def test_the_same_game_through_the_api_scores_the_same(client) -> None:  # type: ignore[no-untyped-def]
    body = {"players": 3, "winner": 0, "cards_left": [0, 13, 13], "caught": [None, "2h", None],
            "chops": [[{"by": 2, "from": 1, "twos": "2h", "after_out": True}]], "rules": {"play_on": True}}
    for order in (None, [0, 2, 1]):
        response = client.post("/api/tienlen/score", json={**body, "order": order})
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["points"] == RIGHT


@pytest.mark.parametrize("order", [None, [0, 1]])
def test_the_api_checks_the_counts_with_or_without_the_order(client, order) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/api/tienlen/score", json={
        "players": 2, "winner": 0, "cards_left": [0, 12], "order": order,
        "chops": [[{"by": 1, "from": 0, "twos": "2h"}]], "rules": {"play_on": True}})
    assert response.status_code == 422  # the document allows the body: the counts cannot be
    assert response.get_json()["error"] == ("seat 1 had played 1 of 13 cards when seat 0 went out, fewer than "
                                            "the 4 cards of a bomb")


def test_a_caught_card_typed_twice_on_the_from_table_form_is_a_422_naming_it(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    response = play_on.post(f"/table/{table_id}/0", caught_1="2s 2s")
    assert response.status_code == 422
    assert "2♠ is given twice" in text(response)


def test_a_table_game_corrected_unchanged_keeps_its_score(app, client) -> None:  # type: ignore[no-untyped-def]
    sheet = Sheet(app, client)
    table, table_id = sheet.table(leader=0)
    for seat, cards in ((0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"), (1, None), (2, None), (0, "2h")):
        sheet.play(table, seat, cards)
    response = sheet.post(f"/table/{table_id}/0", caught_1="2s 2d")
    assert response.status_code == 303, text(response)
    assert totals(sheet.page()) == [26 + 3 + 26, -29, -26]
    response, fields = sheet.correct_unchanged(1)
    assert response.status_code == 303, text(response)
    assert fields["caught_1"] == "2♠ 2♦"
    assert totals(sheet.page()) == [26 + 3 + 26, -29, -26]


def test_the_play_on_game_corrected_unchanged_keeps_its_caught_two_and_the_moment_of_its_chop(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    assert play_on.post(f"/table/{table_id}/0", caught_1="2h").status_code == 303
    response, fields = play_on.correct_unchanged(1)
    assert response.status_code == 303, text(response)
    assert fields["chop_after_0"] == "yes" and fields["caught_1"] == "2♥"
    assert totals(play_on.page()) == RIGHT


def test_more_than_four_bombs_are_entered_by_hand_and_all_shown_to_correct(app, client) -> None:  # type: ignore[no-untyped-def]
    sheet = Sheet(app, client)
    # One trick of four bombs, An and Bao in turn on An's bomb; then Chi bombs Bao's bomb in a new trick.
    steps = [("1", "0"), ("0", "1"), ("1", "0"), ("0", "1"), ("2", "1")]
    rows = {f"chop_{what}_{row}": seat for row, (by, on) in enumerate(steps) for what, seat in (("by", by), ("on", on))}
    response = sheet.post("/add", out="0", left_1="1", left_2="9", chop_new_4="yes", **rows)
    assert response.status_code == 303, text(response)
    # Bombs: An pays Bao 2, Bao pays An 2 + 2, An pays Bao 2 + 4, Bao pays An 2 + 6; Bao pays Chi 2.
    right = [4 + 1 + 9, -4 - 2 - 1, 2 - 9]
    assert totals(sheet.page()) == right
    fields = form_of(sheet.page("/game/1"), f"/tienlen/scores/g/{sheet.token}/game/1")
    assert fields["chop_by_4"] == "2" and "chop_by_5" in fields  # every bomb, and a row for one more
    response, _ = sheet.correct_unchanged(1)
    assert response.status_code == 303 and totals(sheet.page()) == right


def test_a_sixth_chop_row_typed_beyond_the_rows_shown_is_read(app, client) -> None:  # type: ignore[no-untyped-def]
    sheet = Sheet(app, client)
    response = sheet.post("/add", out="0", left_1="8", left_2="9", chop_by_5="1", chop_on_5="2", chop_twos_5="2h")
    assert response.status_code == 303, text(response)
    assert totals(sheet.page()) == [17, -8 + 2, -9 - 2]


def test_what_it_scores_answers_the_cards_typed_so_far(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    form = play_on.page(f"/table/{table_id}/0")
    assert 'hx-get="/tienlen/scores/g/' in form and 'hx-include="#ts-table-form"' in form
    before = play_on.client.get(f"/tienlen/scores/g/{play_on.token}/table/{table_id}/0/preview")
    after = play_on.client.get(f"/tienlen/scores/g/{play_on.token}/table/{table_id}/0/preview",
                               query_string={"caught_1": "2h"})
    assert before.status_code == after.status_code == 200
    assert "caught holding" not in text(before)
    lines = re.findall(r"<li>(.*?)</li>", text(after))
    assert "Bao was caught holding 2♥: Bao pays An 2" in lines and len(lines) == 4
    response = play_on.post(f"/table/{table_id}/0", caught_1="2h")
    assert response.status_code == 303
    saved = play_on.page()
    assert all(line in saved for line in lines)  # what the preview said is what was saved
    refused = play_on.client.get(f"/tienlen/scores/g/{play_on.token}/table/{table_id}/0/preview",
                                 query_string={"caught_1": "2s 2s"})
    assert "2♠ is given twice" in text(refused)


def test_a_second_keepers_refusal_shows_the_hand_as_the_sheet_holds_it(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    seen = str(play_on.version())
    assert play_on.post(f"/table/{table_id}/0", caught_1="2h").status_code == 303  # the first keeper
    for version in (seen, str(play_on.version())):  # the second keeper, on the page from before or reloaded
        response = play_on.post(f"/table/{table_id}/0", caught_1="2h 2s", version=version)
        assert response.status_code in (409, 422)
        body = text(response)
        assert "This hand is already on the sheet." in body and "On the sheet as game 1" in body
        lines = re.findall(r"<li>(.*?)</li>", body.split("On the sheet as game 1", 1)[1])
        assert "Bao was caught holding 2♥: Bao pays An 2" in lines
        assert not any("2♠" in line for line in lines)  # not the list this keeper typed


def test_a_caught_double_sequence_of_four_pairs_is_one_bomb_on_the_from_table_form(play_on) -> None:  # type: ignore[no-untyped-def]
    table_id = play_the_issue_hand(play_on)
    response = play_on.post(f"/table/{table_id}/0", caught_1="2h 8d 8h 9d 9h 10d 10h Jd Jh")
    assert response.status_code == 303, text(response)
    body = play_on.page()
    assert totals(body) == [54 + 4, -30 - 4, -24]
    assert "Bao was caught holding a bomb: 8♦ 8♥ 9♦ 9♥ 10♦ 10♥ J♦ J♥: Bao pays An 4" in body, re.findall(r"caught holding[^<]*", body)


def test_the_caught_holding_switches_say_it_is_counted_when_the_first_player_went_out(client) -> None:  # type: ignore[no-untyped-def]
    page = text(client.get("/tienlen/scores/"))
    assert "Caught holding a 2♠ or 2♣ when the first player went out: paid to that player." in page
    assert "Caught holding a 2♦ or 2♥ when the first player went out: paid to that player." in page
    assert "at the end" not in page
