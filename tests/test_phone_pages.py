"""A game started offline is drawn on the phone as the server draws it (issue 35): the same
records (the start form with the phone's links, then its writes in order) given to the server's
test client and to the phone's :func:`referee.web.phone_pages.draw` (plain CPython here; the
engine's Pyodide runs the same module) give the same pages and fragments, status and address.

The only differences allowed, each normalised away below and why:

- ``data-rendered`` (when the page was made) and a start form's ``write`` id (fresh on every
  showing, random): they differ between two draws of the server too;
- the history's ``HH:MM`` and the home list's ``updated``: the phone says when a change was
  typed, the server when it received it (after the network came back);
- the keeper's share box reads its address from ``/engine.json`` (the server's own
  ``public_base``): given here as the test client's.
"""

from __future__ import annotations

import json
import random
import re
import secrets
from html.parser import HTMLParser
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from referee.web import engine, phone_pages
from referee.web.sharing import public_base
from tests.sizes import examples


def token() -> str:
    while True:
        made = secrets.token_urlsafe(24)
        if len(set(made)) >= 16:
            return made


def write_id() -> str:
    return secrets.token_hex(12)


class FormFields(HTMLParser):
    """The fields a form sends as the browser would send them (its first form posting to ``action``)."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.inside, self.pairs = action, False, []  # type: list[tuple[str, str]]
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("action") == self.action
        elif not self.inside:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox") and "checked" not in a:
                return
            self.pairs.append((a["name"], a.get("value", "on" if kind in ("radio", "checkbox") else "")))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.pairs.append((self.select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def normal(html: str) -> str:
    html = re.sub(r'data-rendered="[^"]*"', 'data-rendered=""', html)
    html = re.sub(r'name="write" value="[0-9a-z]+"', 'name="write" value=""', html)
    html = re.sub(r'"updated": "[^"]*"', '"updated": ""', html)
    html = re.sub(r"(#\d+ · )\d\d:\d\d", r"\1", html)
    return re.sub(r"\s+", " ", html).strip()


@pytest.fixture
def kit(app):  # type: ignore[no-untyped-def]
    """The app's kit, as pages.zip carries it, given to the phone's module here."""
    made = engine.pages_kit(app)
    made["values"]["phone_engine"] = False  # this test app has no engine: its pages do not ask for it
    phone_pages._kit = phone_pages.Kit.load(json.loads(json.dumps(made)))
    phone_pages._env = None
    with app.test_request_context("/"):
        base, source = public_base()
    yield {"base": base, "source": source}
    phone_pages._kit = phone_pages._env = None


class Table:
    """One game asked of the server and drawn by the phone, write by write."""

    def __init__(self, client: Any, share: dict[str, str], language: str, *, form: str = "/three-thirteen/",
                 action: str = "/three-thirteen/new", names: dict[str, str] | None = None) -> None:
        self.client, self.share, self.language = client, share, language
        self.headers = {"Accept-Language": language}
        page = client.get(form, headers=self.headers).get_data(as_text=True)
        fields = FormFields(action)
        fields.feed(page)
        self.keeper, self.watch = token(), token()
        typed = iter(["Ann", "Bao", "Chi Nguyễn Thị Minh Khai", ""])
        named = names or {}
        params = [(k, next(typed, "") if k == "names" else named.pop(k, v)) for k, v in fields.pairs]
        params += [*named.items(), ("keeper_token", self.keeper), ("watch_token", self.watch)]
        self.start = {"action": action, "params": params, "at": 1_700_000_000_000}
        self.writes: list[dict[str, Any]] = []
        answer = client.post(action, data=MultiDict(params), headers={**self.headers,
                                                                      "X-Thirteen-Write": dict(params)["write"]})
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/g/{self.keeper}")
        self.game = answer.headers["Location"]
        self.version = 0

    def phone(self, method: str, path: str, form: list[tuple[str, str]] | None = None, *, htmx: bool = False,
              boosted: bool = False, write: str = "") -> dict[str, Any]:
        asked = {"method": method, "path": path, "form": form or [], "htmx": htmx, "boosted": boosted,
                 "language": self.language, "write": write, "share": self.share, "at": 1_700_000_100_000,
                 "game": {"start": self.start, "writes": self.writes}}
        return json.loads(phone_pages.draw(json.dumps(asked)))  # type: ignore[no-any-return]

    def server_headers(self, htmx: bool, boosted: bool) -> dict[str, str]:
        headers = dict(self.headers)
        if htmx:
            headers["HX-Request"] = "true"
        if boosted:
            headers["HX-Boosted"] = "true"
        return headers

    def same_get(self, path: str, *, htmx: bool = False, boosted: bool = False) -> str:
        server = self.client.get(path, headers=self.server_headers(htmx, boosted))
        phone = self.phone("GET", path, htmx=htmx, boosted=boosted)
        assert phone["status"] == server.status_code, path
        html = server.get_data(as_text=True)
        assert normal(phone["html"]) == normal(html), path
        return html

    def same_write(self, path: str, form: list[tuple[str, str]], *, status: int = 200, htmx: bool = True,
                   boosted: bool = True) -> str:
        """The write sent to both, as htmx sends a boosted form (the server's 303 followed as the
        browser's request follows it); kept in the phone's records when the server stored it."""
        mine = write_id()
        form = [("version", str(self.version)), *form]
        headers = {**self.server_headers(htmx, boosted), "X-Thirteen-Write": mine}
        phone = self.phone("POST", path, form, htmx=htmx, boosted=boosted, write=mine)
        server = self.client.post(path, data=MultiDict(form), headers=headers)
        url = ""
        if server.status_code == 303:
            url = server.headers["Location"]
            server = self.client.get(url, headers=self.server_headers(htmx, boosted))
        assert (phone["status"], phone["url"]) == (server.status_code, url), path
        assert status in (0, phone["status"]), path  # 0: whatever the server says, as long as the phone says it too
        html = server.get_data(as_text=True)
        assert normal(phone["html"]) == normal(html), path
        assert phone["stored"] == (server.status_code == 200)
        if phone["stored"]:
            self.writes.append({"path": path, "params": form, "id": mine, "at": 1_700_000_050_000})
            self.version += 1
        return html


@pytest.mark.parametrize("language", ["en", "vi"])
def test_a_sheet_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]
    table = Table(client, kit, language)
    sheet, round_page = table.game, table.game + "/round/{}"
    table.same_get(sheet)
    table.same_get(sheet, htmx=True, boosted=True)
    table.same_get(round_page.format(1))
    table.same_get(round_page.format(1) + "/preview/0?cards_0=3h+4h+5h", htmx=True)
    # Round 1 refused (a hand that does not fit the round), then saved: 422, then the sheet.
    table.same_write(round_page.format(1), [("cards_0", "3h 4h"), ("cards_1", ""), ("cards_2", "")], status=422)
    saved = table.same_write(round_page.format(1), [("out", "0"), ("cards_0", "3h 4h 5h"), ("cards_1", "kh qs 9c"),
                                                    ("points_2", "17")])
    assert "Round 1 saved." in saved or language != "en"
    table.same_write(round_page.format(2), [("points_0", "4"), ("cards_1", "4s 4d 4c 9h"), ("out", "1"),
                                            ("points_2", "12")])
    # Round 1 corrected, then that correction undone.
    table.same_get(round_page.format(1))
    table.same_write(round_page.format(1), [("out", "0"), ("cards_0", "3h 4h 5h"), ("cards_1", "kh qs jc"),
                                            ("points_2", "20")])
    table.same_write(table.game + "/undo", [], htmx=True, boosted=False)
    # What the phone shows now: the sheet, its fragment (a poll's answer), each round's page.
    table.same_get(sheet)
    table.same_get(sheet + f"?since={table.version - 1}", htmx=True)
    table.same_get(round_page.format(2))
    table.same_get(round_page.format(3))
    # A stale phone (a version behind), a round the sheet has not reached, a watch link.
    table.version -= 1
    table.same_write(round_page.format(3), [("points_0", "1"), ("points_1", "2"), ("points_2", "3")], status=409)
    table.version += 1
    table.same_get(round_page.format(9))
    table.same_get(round_page.format(1) + "/preview/7?cards_7=3h", htmx=True)  # no such seat: the plain 404
    table.same_get(f"/three-thirteen/g/{table.watch}")
    assert table.phone("GET", sheet + f"?since={table.version}", htmx=True)["status"] == 204
    assert len(table.writes) == 4


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_tienlen_table_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]
    table = Table(client, kit, language, form="/tienlen/new", action="/tienlen/new",
                  names={"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "1"})
    here = table.game
    table.same_get(here)
    move = {"htmx": True, "boosted": False}
    table.same_write(here + "/play", [("seat", "1"), ("cards", "4h")], status=422, **move)  # the opening needs 3♠
    table.same_write(here + "/play", [("cards", "3s")], status=400, **move)  # no seat: unreadable
    for seat, cards in [("1", "3s"), ("2", "5h"), ("0", "7d"), ("1", "9c")]:
        table.same_write(here + "/play", [("seat", seat), ("cards", cards)], **move)
    table.same_write(here + "/pass", [("seat", "2"), ("cards", "")], **move)
    table.same_write(here + "/play", [("seat", "0"), ("cards", "Kd")], **move)
    table.same_write(here + "/undo", [("cards", "")], **move)
    table.same_get(here)
    table.same_get(here, htmx=True)
    table.same_write(here + "/redo", [("cards", "")], **move)
    table.same_write(here + "/play", [("seat", "1"), ("cards", "2s")], boosted=True)  # a plain form: 303, followed
    table.version -= 1
    table.same_write(here + "/pass", [("seat", "2"), ("cards", "Qh")], status=409, **move)  # stale: typed kept
    table.version += 1
    table.same_get(here.replace(table.keeper, table.watch))
    assert table.phone("GET", here + f"?since={table.version}", htmx=True)["status"] == 204
    assert len(table.writes) == 9


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_trece_table_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]
    table = Table(client, kit, language, form="/trece/", action="/trece/new",
                  names={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"})
    here = table.game
    table.same_get(here)
    move = {"htmx": True, "boosted": False}
    act = here + "/act"
    table.same_write(act, [("action", "play"), ("cards", "9♦ 10♦")], status=422, **move)  # not one rank from Q♥
    table.same_write(act, [("action", "play"), ("cards", "Q♦ K♦ 1x")], status=422, **move)  # not a card
    table.same_write(act, [("action", "play"), ("cards", "K♥")], **move)  # Ben
    table.same_write(act, [("action", "play"), ("cards", "Q♣")], **move)  # Ana
    table.same_write(act, [("action", "play"), ("cards", "K♦ RJ")], **move)  # Ben: the joker demands a ♦
    table.same_write(act, [("action", "draw")], **move)  # Ana cannot follow: the penalty, 13 cards
    table.same_get(here)
    table.same_write(here + "/undo", [("cards", "")], **move)
    table.same_write(here + "/redo", [("cards", "")], **move)
    table.same_write(act, [("action", "last_card"), ("player", "5")], status=400, **move)
    table.version -= 1
    table.same_write(act, [("action", "draw")], status=409, **move)
    table.version += 1
    table.same_get(here.replace(table.keeper, table.watch))
    table.same_get(here + f"?since={table.version - 1}", htmx=True)
    assert len(table.writes) == 6


END = {"target": "", "games": "", "until": "", "utc_offset": "0"}


def end_form(**typed: str) -> list[tuple[str, str]]:
    """The end-of-the-evening form's fields as the browser sends them (empty: off)."""
    return list({**END, **typed}.items())


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_end_of_a_trece_evening_started_offline_is_answered_on_the_phone_as_by_the_server(client, kit, language):  # type: ignore[no-untyped-def]
    """A Trece table's end of the evening (RULES.md: its games, or the games a player won; not the
    clock): set, refused, undone and redone, stale and from the watch link, the same on the phone."""
    table = Table(client, kit, language, form="/trece/", action="/trece/new",
                  names={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"})
    here, end = table.game, table.game + "/end"
    assert 'data-phone-draws' in table.same_get(here)  # the phone answers the end form of a table it started
    # Three games (a boosted form: the 303 followed), then the table's moves go on beside it.
    to_go = table.same_write(end, end_form(games="3"))
    assert 'data-state="to-go"' in to_go and 'value="3"' in to_go
    table.same_write(here + "/act", [("action", "play"), ("cards", "K♥")], htmx=True, boosted=False)
    # The clock refused (the sentence in the form, opened), a target that is no number at its field.
    refused = table.same_write(end, end_form(games="4", until="23:30"), status=422)
    assert '<details class="evening-end-form" open>' in refused and 'class="field-error" role="alert"' in refused
    assert 'id="end-games" name="games" inputmode="numeric" min="0" max="1000" value="4"' in refused
    assert "not by the clock" in refused or language != "en"
    table.same_write(end, end_form(target="-4"), status=422)
    table.same_write(end, end_form(target="x1"), status=422, htmx=True, boosted=False)
    # The end undone (the play's before it stays), redone, then a target of games won by a plain form.
    table.same_write(end, end_form(target="2"), htmx=True, boosted=False)
    undone = table.same_write(here + "/undo", [("cards", "")], htmx=True, boosted=False)
    assert "End of the evening changed" in undone or language != "en"
    table.same_get(here)
    table.same_write(here + "/redo", [("cards", "")], htmx=True, boosted=False)
    table.same_write(end, end_form(target="2", games="5"), htmx=False, boosted=False)
    table.same_get(here)
    table.same_get(here + f"?since={table.version - 1}", htmx=True)
    # A stale phone, the watch link, a form with no version.
    table.version -= 1
    table.same_write(end, end_form(games="9"), status=409)
    table.version += 1
    watch = here.replace(table.keeper, table.watch)
    assert 'class="evening-end-form"' not in table.same_get(watch)
    table.same_write(watch + "/end", end_form(games="9"), status=403)
    assert table.phone("POST", end, end_form(games="9"), htmx=True)["status"] == 400
    assert table.phone("GET", here + f"?since={table.version}", htmx=True)["status"] == 204
    assert [w["path"].rsplit("/", 1)[1] for w in table.writes] == ["end", "act", "end", "undo", "redo", "end"]


def test_the_worker_warms_up_each_game_it_draws_before_the_first_tap(kit):  # type: ignore[no-untyped-def]
    """The engine's worker draws a made-up sheet, round, table and Trece table once pages.zip is
    in (a failure there is silent in the worker: the first tap pays for it instead)."""
    phone_pages.warm_up("vi")
    assert phone_pages._env is not None and phone_pages._env.cache is not None
    compiled = {name for _loader, name in phone_pages._env.cache}
    assert {"three_thirteen/game.html", "three_thirteen/round.html", "tienlen/table.html", "trece/table.html"} <= compiled


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for r in RANKS for s in "shdc"]


LADDER = [f"{r}{s}" for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"] for s in "scdh"]
"""Tiến lên's singles from the lowest up: each beats the one before it."""


def random_write(game: str, chance: random.Random, shown: str, climbed: list[str]) -> tuple[str, list[tuple[str, str]], bool]:
    """A random write of ``game`` (its path under the game, its fields, whether htmx sends it as
    a fragment's request): often one the rules take, else refused or unreadable; undo and redo
    among them.  ``shown`` is the page the last answer drew (whose turn it is)."""
    roll = chance.random()
    if roll < 0.1:
        return "/undo", [("cards", "")], True
    if roll < 0.15:
        return "/redo", [("cards", "")], True
    junk = roll > 0.85
    if game == "three_thirteen":
        number = chance.choice([1, 1, 2, 2, 3])
        out = chance.randrange(3)
        fields = [("out", str(out)), (f"cards_{out}", " ".join(f"{r}h" for r in RANKS[: number + 2]))]
        fields += [(f"points_{seat}", str(chance.choice([0, 3, 12, 45]))) for seat in range(3) if seat != out]
        if junk:
            fields = [(f"cards_{seat}", " ".join(chance.sample(DECK, number + 1))) for seat in range(3)]
            fields.append(("out", chance.choice(["0", "7", "x"])))
        return f"/round/{number}", fields, False
    if game == "tienlen":
        seat = re.search(r'name="seat" value="(\d)"', shown)
        turn = seat.group(1) if seat else "0"
        if junk:
            return "/play", [("seat", chance.choice(["0", "1", "2", "9"])), ("cards", " ".join(chance.sample(DECK, 2)))], True
        if chance.random() < 0.25:
            return "/pass", [("seat", turn), ("cards", "")], True
        card = LADDER[min(len(climbed), len(LADDER) - 1)]
        climbed.append(card)
        return "/play", [("seat", turn), ("cards", card)], True
    kind = chance.choice(["play", "play", "play", "draw", "last_card", "thirteen"])
    fields = [("action", kind)]
    if kind == "play":
        fields.append(("cards", " ".join(chance.sample([*DECK, "RJ", "BJ"], chance.choice([1, 1, 2])))))
    elif kind != "draw":
        fields.append(("player", chance.choice(["0", "1"])))
    return "/act", fields, True


STARTS = {
    "three_thirteen": {"form": "/three-thirteen/", "action": "/three-thirteen/new", "names": None},
    "tienlen": {"form": "/tienlen/new", "action": "/tienlen/new",
                "names": {"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "1"}},
    "trece": {"form": "/trece/", "action": "/trece/new",
              "names": {"name0": "Ana", "name1": "Ben", "dealer": "1", "turned_rank": "7", "turned_suit": "c"}},
}


@pytest.mark.parametrize("game", list(STARTS))
def test_random_writes_on_a_game_started_offline_are_answered_by_the_phone_as_by_the_server(client, kit, game):  # type: ignore[no-untyped-def]
    """Random writes, most of them refused, on each game: every answer (status, page, address,
    whether it is stored) and the page after it the same on the phone as on the server."""
    stored = 0
    for seed in range(examples(3, 12)):
        chance = random.Random(f"{game}-{seed}")
        start = STARTS[game]
        table = Table(client, kit, chance.choice(["en", "es", "pt", "vi"]), form=str(start["form"]),
                      action=str(start["action"]), names=dict(start["names"] or {}) or None)
        shown, climbed = table.same_get(table.game), []  # type: ignore[var-annotated]
        for _ in range(examples(12, 30)):
            path, fields, fragment = random_write(game, chance, shown, climbed)
            stale = chance.random() < 0.05
            table.version -= stale
            answer = table.same_write(table.game + path, fields, status=0, htmx=True, boosted=not fragment)
            table.version += stale
            shown = answer if 'name="seat"' in answer else table.same_get(table.game)
        table.same_get(table.game)
        stored += len(table.writes)
    assert stored >= 6, "the random writes must store some: the rules took too few"


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_stake_of_a_sheet_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]
    """A Three Thirteen sheet's stake (issue 35): refused (no amount, a unit the currency has
    not), set with "each pair squares", the money after two rounds, its undo, a stale form: the
    same pages on the phone as on the server (the phone's money tables are Babel's)."""
    table = Table(client, kit, language)
    sheet, round_page = table.game, table.game + "/round/{}"
    table.same_write(round_page.format(1), [("out", "0"), ("cards_0", "3h 4h 5h"), ("cards_1", "kh qs 9c"),
                                            ("points_2", "17")])
    table.same_write(sheet + "/money", [("stake", "abc"), ("currency", "EUR"), ("settle", "winner")], status=422)
    table.same_write(sheet + "/money", [("stake", "0,005" if language == "pt" else "0.005"), ("currency", "EUR"),
                                        ("settle", "winner")], status=422)
    table.same_write(sheet + "/money", [("stake", "1"), ("currency", "EUR"), ("settle", "nobody")], status=422)
    money = table.same_write(sheet + "/money", [("stake", "0,25" if language == "pt" else "0.25"), ("currency", "EUR"),
                                                ("settle", "each")])
    assert "€0.25 a point" in money or language != "en"
    table.same_write(round_page.format(2), [("points_0", "4"), ("cards_1", "4s 4d 4c 9h"), ("out", "1"),
                                            ("points_2", "12")])
    table.same_get(sheet)
    table.same_get(round_page.format(3))
    table.same_write(table.game + "/undo", [], htmx=True, boosted=False)
    table.same_write(table.game + "/undo", [], htmx=True, boosted=False)  # the stake undone
    table.same_get(sheet)
    table.same_write(table.game + "/redo", [], htmx=True, boosted=False)
    table.version -= 1
    table.same_write(sheet + "/money", [("stake", "3"), ("currency", "USD"), ("settle", "winner")], status=409)
    table.version += 1
    table.same_get(f"/three-thirteen/g/{table.watch}")
    assert len(table.writes) == 6


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_stake_of_a_trece_table_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]
    """A Trece table's stake per game won (issue 35), refused then set, the game over (the loser
    pays), undone: the same pages on the phone as on the server."""
    table = Table(client, kit, language, form="/trece/", action="/trece/new",
                  names={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"})
    here = table.game
    move = {"htmx": True, "boosted": False}
    table.same_write(here + "/money", [("stake", "0,5" if language == "vi" else "0.5"), ("currency", "VND")], status=422)
    table.same_write(here + "/money", [("stake", "5000"), ("currency", "XYZ")], status=422)
    money = table.same_write(here + "/money", [("stake", "5.000" if language == "vi" else "5000"), ("currency", "VND")])
    assert 'value="5000"' in money or 'value="5.000"' in money
    table.same_write(here + "/act", [("action", "play"), ("cards", "K♥")], **move)
    table.same_write(here + "/act", [("action", "play"), ("cards", "Q♣")], **move)
    table.same_get(here)
    table.same_write(here + "/undo", [("cards", "")], **move)
    table.same_write(here + "/undo", [("cards", "")], **move)
    table.same_write(here + "/undo", [("cards", "")], **move)  # the stake undone
    table.same_get(here)
    table.same_write(here + "/redo", [("cards", "")], **move)
    table.same_get(here.replace(table.keeper, table.watch))
    assert len(table.writes) == 7
