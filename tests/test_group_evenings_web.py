"""A group's evenings (issue 36): one amount on every page, every game in its group, evenings by
the group's clock, end switches where RULES.md says them."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from io import BytesIO
from typing import Any

import pytest

from referee.web.extensions import db
from referee.web.models import Event, Game


def _token(location: str) -> str:
    return location.rstrip("/").rsplit("/", 1)[-1]


def _version(html: str) -> str:
    found = re.search(r'data-version="(\d+)"', html)
    assert found
    return found.group(1)


def _stored(client: Any, token: str) -> Game:
    game = db.session.scalar(db.select(Game).where(Game.keeper_token == token))
    assert game is not None
    return game


def make_group(client: Any, people: str = "An\nBinh\nChi\nDung", zone: str = "") -> str:
    r = client.post("/groups/new", data={"name": "Fridays", "people": people, "zone": zone})
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    return _token(r.headers["Location"])


def start(client: Any, path: str, form: dict[str, str]) -> str:
    r = client.post(path, data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return _token(r.headers["Location"])


def post(client: Any, page_path: str, path: str, **form: str) -> Any:
    version = _version(client.get(page_path).get_data(as_text=True))
    return client.post(path, data={**form, "version": version})


def tienlen_sheet(client: Any, group: str, names: list[str]) -> str:
    return start(client, "/tienlen/scores/new", {f"name{i}": n for i, n in enumerate(names)} | {"group": group})


def tienlen_game(client: Any, sheet: str, **form: str) -> None:
    r = post(client, f"/tienlen/scores/g/{sheet}", f"/tienlen/scores/g/{sheet}/add", **form)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]


def stake(client: Any, page: str, amount: str, currency: str = "USD") -> None:
    r = post(client, page, f"{page}/money", stake=amount, currency=currency)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]


def trece_table(client: Any, group: str, first: str, second: str) -> str:
    return start(client, "/trece/new", {"name0": first, "name1": second, "dealer": "0", "turned_rank": "5",
                                        "turned_suit": "d", "group": group})


WIN = "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h"
"""Thirteen cards the player on turn lays on the 5♦ turned up, in one run: they win."""


def trece_win(client: Any, table: str) -> None:
    r = post(client, f"/trece/g/{table}", f"/trece/g/{table}/act", action="play", cards=WIN)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]


def transfers(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r'<span class="settle-words">(.*?)</span>', html, re.S)]


def group_transfers(client: Any, group: str) -> list[str]:
    html = client.get(f"/groups/g/{group}").get_data(as_text=True)
    return transfers(html.split('class="group-evenings"', 1)[1].split('class="group-people"', 1)[0])


# --------------------------------------------------------------------------- E1


def test_a_groups_evening_counts_no_game_past_a_sheets_end(client: Any) -> None:
    group = make_group(client, "An\nBinh")
    sheet = start(client, "/tienlen/scores/new", {"name0": "An", "name1": "Binh", "games": "1", "group": group})
    tienlen_game(client, sheet, out="0", left_1="5")  # An +5
    tienlen_game(client, sheet, out="1", left_0="9")  # past the end: Binh +9
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    on_sheet = transfers(client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True))
    assert on_sheet == ["Binh pays An $5.00"]
    assert group_transfers(client, group) == on_sheet


# --------------------------------------------------------------------------- E2


def test_a_trece_tables_stake_reaches_its_groups_evening(client: Any) -> None:
    group = make_group(client, "Ana\nLuis")
    table = trece_table(client, group, "Ana", "Luis")
    stake(client, f"/trece/g/{table}", "2.50")
    trece_win(client, table)
    on_table = transfers(client.get(f"/trece/g/{table}").get_data(as_text=True))
    assert on_table == ["Ana pays Luis $2.50"]
    assert group_transfers(client, group) == on_table


def test_an_evening_of_a_sheet_and_a_table_in_two_currencies_settles_each_apart(client: Any) -> None:
    group = make_group(client, "Ana\nLuis")
    sheet = tienlen_sheet(client, group, ["Ana", "Luis"])
    tienlen_game(client, sheet, out="0", left_1="3")  # Ana +3
    stake(client, f"/tienlen/scores/g/{sheet}", "1000", "VND")
    table = trece_table(client, group, "Ana", "Luis")
    stake(client, f"/trece/g/{table}", "2.50")
    trece_win(client, table)
    assert sorted(group_transfers(client, group)) == ["Ana pays Luis $2.50", "Luis pays Ana ₫3,000"]


# --------------------------------------------------------------------------- E3


def test_score_this_hand_on_a_groups_table_makes_a_sheet_in_the_group_on_the_tables_evening(client: Any) -> None:
    group = make_group(client, "Ana\nBao\nChi")
    table = start(client, "/tienlen/new", {"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "0",
                                           "hand_size": "13", "group": group})
    with client.application.app_context():
        stored = _stored(client, table)
        stored.created_at = datetime(2026, 12, 4, 23, 50, tzinfo=UTC)  # the table began before midnight
        db.session.commit()
    r = client.post(f"/tienlen/scores/score/{table}/1", data={})
    assert r.status_code == 303
    with client.application.app_context():
        owner, played = _stored(client, group), _stored(client, table)
        sheet = db.session.scalar(db.select(Game).where(Game.made_for == f"tienlen_scores:{played.id}"))
        assert sheet is not None and sheet.group_id == owner.id and sheet.started_from == played.id
        sheet.created_at = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)  # scored the next morning
        db.session.commit()
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    assert re.findall(r'data-evening="([\d-]+)"', page) == ["2026-12-04"]


def test_a_rematch_and_a_table_started_from_a_groups_sheet_are_the_groups(client: Any) -> None:
    group = make_group(client, "An\nBinh")
    sheet = tienlen_sheet(client, group, ["An", "Binh"])
    again = client.post(f"/tienlen/scores/g/{sheet}/again", data={})
    assert again.status_code == 303
    rematch = _token(again.headers["Location"])
    r = post(client, f"/tienlen/scores/g/{sheet}", f"/tienlen/scores/g/{sheet}/tables", leader="0", lowest="3♠")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    table = _token(r.headers["Location"])
    with client.application.app_context():
        owner = _stored(client, group)
        assert [_stored(client, t).group_id for t in (rematch, table)] == [owner.id, owner.id]


# --------------------------------------------------------------------------- E4


def test_a_three_thirteen_sheet_refuses_an_end_and_stores_nothing(client: Any) -> None:
    sheet = start(client, "/three-thirteen/new", {"names": ["An", "Binh"], "dealer": "0"})
    page = f"/three-thirteen/g/{sheet}"
    before = _version(client.get(page).get_data(as_text=True))
    r = client.post(f"{page}/end", data={"games": "2", "version": before})
    assert r.status_code == 422
    assert "A Three Thirteen sheet ends after its last round" in r.get_data(as_text=True)
    assert _version(client.get(page).get_data(as_text=True)) == before
    with client.application.app_context():
        assert db.session.scalar(db.select(db.func.count(Event.id)).where(
            Event.game_id == _stored(client, sheet).id, Event.kind == "end")) == 0


def test_a_trece_table_takes_games_and_target_and_refuses_a_clock(client: Any) -> None:
    group = make_group(client, "Ana\nLuis")
    table = trece_table(client, group, "Ana", "Luis")
    page = f"/trece/g/{table}"
    refused = post(client, page, f"{page}/end", until="23:00")
    assert refused.status_code == 422 and "not by the clock" in refused.get_data(as_text=True)
    assert post(client, page, f"{page}/end", games="1").status_code == 303
    html = client.get(page).get_data(as_text=True)
    assert "1 game left" in html and "Games: ends after this many games" in html and 'name="until"' not in html
    trece_win(client, table)
    html = client.get(page).get_data(as_text=True)
    assert "the evening is over: 1 game played" in html and "Luis won the evening." in html


# --------------------------------------------------------------------------- evenings by the group's clock


def _group_at(client: Any, zone: str, moments: list[datetime]) -> list[str]:
    group = make_group(client, "An\nBinh", zone=zone)
    sheets = [tienlen_sheet(client, group, ["An", "Binh"]) for _ in moments]
    with client.application.app_context():
        for token, moment in zip(sheets, moments, strict=True):
            _stored(client, token).created_at = moment
        db.session.commit()
    return re.findall(r'data-evening="([\d-]+)"', client.get(f"/groups/g/{group}").get_data(as_text=True))


@pytest.mark.parametrize(("zone", "moments"), [
    ("Asia/Ho_Chi_Minh", [datetime(2026, 12, 4, 16, 30, tzinfo=UTC), datetime(2026, 12, 4, 18, 30, tzinfo=UTC)]),
    ("Europe/Madrid", [datetime(2026, 12, 4, 22, 30, tzinfo=UTC), datetime(2026, 12, 5, 0, 30, tzinfo=UTC)]),
    ("UTC", [datetime(2026, 12, 4, 23, 30, tzinfo=UTC), datetime(2026, 12, 5, 1, 30, tzinfo=UTC)]),
])
def test_2330_and_0130_local_are_one_evening(client: Any, zone: str, moments: list[datetime]) -> None:
    assert _group_at(client, zone, moments) == ["2026-12-04"]


def test_a_game_begun_after_six_in_the_morning_is_the_next_evening(client: Any) -> None:
    assert _group_at(client, "Europe/Madrid", [datetime(2026, 12, 4, 20, 0, tzinfo=UTC),
                                               datetime(2026, 12, 5, 5, 30, tzinfo=UTC)]) == ["2026-12-05", "2026-12-04"]


def test_1800_to_2100_at_utc_minus_5_is_one_evening(client: Any) -> None:
    assert _group_at(client, "America/Bogota", [datetime(2026, 12, 4, 23, 0, tzinfo=UTC),
                                                datetime(2026, 12, 5, 2, 0, tzinfo=UTC)]) == ["2026-12-04"]


def test_the_time_zone_is_changed_on_the_groups_page_and_a_bad_one_refused(client: Any) -> None:
    group = make_group(client, "An\nBinh", zone="Europe/Madrid")
    page = f"/groups/g/{group}"
    assert "Europe/Madrid" in client.get(page).get_data(as_text=True)
    bad = post(client, page, f"{page}/zone", zone="Mars/Olympus")
    assert bad.status_code == 422 and "is not a time zone" in bad.get_data(as_text=True)
    assert 'value="Mars/Olympus"' in bad.get_data(as_text=True)  # what was typed, kept
    assert post(client, page, f"{page}/zone", zone="America/Bogota").status_code == 303
    assert "America/Bogota" in client.get(page).get_data(as_text=True)


@pytest.mark.parametrize("zone", ["Not/AZone", "../../etc/passwd", "x" * 70])
def test_a_group_made_with_a_zone_the_server_does_not_know_is_refused_with_a_sentence(client: Any, zone: str) -> None:
    r = client.post("/groups/new", data={"name": "Fridays", "people": "An", "zone": zone})
    assert r.status_code == 422 and "is not a time zone" in r.get_data(as_text=True)


# --------------------------------------------------------------------------- what is kept, and when it is read again


def test_a_fresh_process_reads_what_each_game_came_to_without_replaying_it(client: Any, monkeypatch: Any) -> None:
    from referee.web.groups import evenings

    group = make_group(client, "An\nBinh")
    sheet = tienlen_sheet(client, group, ["An", "Binh"])
    tienlen_game(client, sheet, out="0", left_1="5")
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    assert group_transfers(client, group) == ["Binh pays An $5.00"]  # read once: kept with the game
    evenings._READ.clear()  # a fresh process

    def no_replay(game: Any) -> Any:
        raise AssertionError(f"{game.kind} replayed again at the same version")

    monkeypatch.setattr(evenings, "_read", no_replay)
    assert group_transfers(client, group) == ["Binh pays An $5.00"]


def test_what_is_kept_is_read_again_after_an_undo_or_a_correction(client: Any) -> None:
    from referee.web.groups import evenings

    group = make_group(client, "An\nBinh")
    sheet = tienlen_sheet(client, group, ["An", "Binh"])
    tienlen_game(client, sheet, out="0", left_1="5")
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    assert group_transfers(client, group) == ["Binh pays An $5.00"]
    r = post(client, f"/tienlen/scores/g/{sheet}", f"/tienlen/scores/g/{sheet}/game/1", out="1", left_0="7")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    evenings._READ.clear()
    assert group_transfers(client, group) == ["An pays Binh $7.00"]
    assert post(client, f"/tienlen/scores/g/{sheet}", f"/tienlen/scores/g/{sheet}/undo").status_code == 303
    evenings._READ.clear()
    assert group_transfers(client, group) == ["Binh pays An $5.00"]


# --------------------------------------------------------------------------- the group's own end


def test_a_groups_end_counts_an_evenings_games_in_the_order_played_and_nothing_after(client: Any) -> None:
    group = make_group(client, "An\nBinh")
    page = f"/groups/g/{group}"
    assert post(client, page, f"{page}/end", games="2").status_code == 303
    sheet = tienlen_sheet(client, group, ["An", "Binh"])
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    tienlen_game(client, sheet, out="0", left_1="5")  # An +5
    table = trece_table(client, group, "An", "Binh")
    stake(client, f"/trece/g/{table}", "2.50")
    trece_win(client, table)  # Binh +2.50: the evening's second game, its last
    tienlen_game(client, sheet, out="1", left_0="9")  # past the group's end: counted nowhere on its page
    html = client.get(page).get_data(as_text=True)
    assert "the evening is over: 2 games played" in html
    assert "1 game was played past the end; it is not in the result." in html
    assert group_transfers(client, group) == ["Binh pays An $2.50"]
    refused = post(client, page, f"{page}/end", games="x")
    assert refused.status_code == 422


def test_the_group_library_reads_the_worlds_zones_through_zoneinfo() -> None:
    from referee.group import Group, GroupSetup, ZoneError, check_zone

    assert check_zone("Europe/Madrid") == "Europe/Madrid"
    hanoi = Group(GroupSetup("Tết", ("An",), zone="Asia/Ho_Chi_Minh"))  # 23:30 and 01:30 in Hà Nội
    assert {hanoi.day_of(datetime(2026, 12, 4, 16, 30, tzinfo=UTC)),
            hanoi.day_of(datetime(2026, 12, 4, 18, 30, tzinfo=UTC))} == {"2026-12-04"}
    bogota = Group(GroupSetup("Viernes", zone="America/Bogota"))  # 18:00 and 21:00 at UTC−5
    assert {bogota.day_of(datetime(2026, 12, 4, 23, 0, tzinfo=UTC)),
            bogota.day_of(datetime(2026, 12, 5, 2, 0, tzinfo=UTC))} == {"2026-12-04"}
    with pytest.raises(ZoneError):
        check_zone("Mars/Olympus")


# --------------------------------------------------------------------------- a table's hand scored on a sheet: one game


def _play(client: Any, table: str, seat: int, cards: str | None = None) -> None:
    page = f"/tienlen/g/{table}"
    r = post(client, page, f"{page}/play" if cards else f"{page}/pass", seat=str(seat),
             **({"cards": cards} if cards else {}))
    assert r.status_code == 303, r.get_data(as_text=True)[:800]


def _chop_chain_hand(client: Any, table: str) -> None:
    """Binh leads 3♠; Binh's 2♥ is bombed by Dung, Dung's bomb by An; An goes out; Chi never plays
    (tests/test_tienlen_scores_web.py): An wins, Chi is frozen, two bombs, one 2 chopped."""
    for seat, cards in ((1, "3s"), (2, None), (3, None), (0, None), (1, "2h"), (2, None),
                        (3, "4s 4c 5s 5c 6s 6c"), (0, "7s 7c 8s 8c 9s 9c"), (1, None), (3, None),
                        (0, "3c 4d 5d 6d 7d"), (1, None), (2, None), (3, None), (0, "10s"), (1, None), (2, None),
                        (3, None), (0, "Js")):
        _play(client, table, seat, cards)


def _stat(html: str, person: str, stat: str) -> int:
    found = re.search(rf'<tr data-person="{person}">(?:(?!</tr>).)*data-stat="{stat}">(\d+)<', html, re.S)
    assert found, (person, stat)
    return int(found.group(1))


def _groups_table_hand_scored(client: Any, how: str) -> tuple[str, str]:
    """A group of four; one hand played on a followed table of the group and scored onto a sheet:
    by "Score this hand" on a table started from the group, or on the group's sheet that started
    the table ("Start a table with these players").  The group's and the sheet's keeper tokens."""
    group = make_group(client, "An\nBinh\nChi\nDung")
    if how == "score this hand":
        table = start(client, "/tienlen/new", {"name0": "An", "name1": "Binh", "name2": "Chi", "name3": "Dung",
                                               "leader": "1", "hand_size": "13", "group": group})
        _chop_chain_hand(client, table)
        r = client.post(f"/tienlen/scores/score/{table}/0", data={})
        assert r.status_code == 303
        sheet = r.headers["Location"].split("/tienlen/scores/g/", 1)[1].split("/", 1)[0]
    else:
        sheet = tienlen_sheet(client, group, ["An", "Binh", "Chi", "Dung"])
        r = post(client, f"/tienlen/scores/g/{sheet}", f"/tienlen/scores/g/{sheet}/tables", leader="1", lowest="3♠")
        assert r.status_code == 303, r.get_data(as_text=True)[:500]
        table = _token(r.headers["Location"])
        _chop_chain_hand(client, table)
    with client.application.app_context():
        table_id = _stored(client, table).id
    page = f"/tienlen/scores/g/{sheet}"
    r = post(client, page, f"{page}/table/{table_id}/0")
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    return group, sheet


@pytest.mark.parametrize("how", ["score this hand", "a table started from the sheet"])
def test_a_tables_hand_scored_on_a_sheet_is_one_game_in_the_groups_stats(client: Any, how: str) -> None:
    group, _ = _groups_table_hand_scored(client, how)
    html = client.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert [_stat(html, p, "games") for p in ("An", "Binh", "Chi", "Dung")] == [1, 1, 1, 1]
    assert [_stat(html, p, "wins") for p in ("An", "Binh", "Chi", "Dung")] == [1, 0, 0, 0]
    assert _stat(html, "Chi", "frozen") == 1
    assert [_stat(html, p, "bombs") for p in ("An", "Dung")] == [1, 1]
    assert _stat(html, "Binh", "chopped_from") == 1 and _stat(html, "Dung", "twos_chopped") == 1


@pytest.mark.parametrize("how", ["score this hand", "a table started from the sheet"])
def test_a_tables_hand_scored_on_a_sheet_is_one_game_for_the_groups_end(client: Any, how: str) -> None:
    group, sheet = _groups_table_hand_scored(client, how)
    page = f"/groups/g/{group}"
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    on_sheet = transfers(client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True))
    before = group_transfers(client, group)
    assert post(client, page, f"{page}/end", games="1").status_code == 303
    html = client.get(page).get_data(as_text=True)
    assert "the evening is over: 1 game played" in html
    assert "played past the end" not in html
    assert group_transfers(client, group) == before == on_sheet  # the money as it was: the sheet's
    assert re.search(r'class="winner">🏆 An</span>', html)


def test_a_hand_scored_on_a_sheet_moved_to_an_evening_not_shown_counts_on_the_sheets(client: Any,
                                                                                    monkeypatch: Any) -> None:
    from referee.web import groups

    group, sheet = _groups_table_hand_scored(client, "score this hand")
    page = f"/groups/g/{group}"
    assert post(client, page, f"{page}/move", game=sheet, day="2026-01-02").status_code == 303
    assert post(client, page, f"{page}/end", games="1").status_code == 303
    monkeypatch.setattr(groups, "SHOWN_EVENINGS", 1)  # the table's evening only: the sheet's is not read
    html = client.get(page).get_data(as_text=True)
    assert re.findall(r'data-evening="([\d-]+)"', html) != ["2026-01-02"]
    assert "🏆" not in html and "the evening is over" not in html  # the table's evening: no game of its own
    stats = client.get(f"{page}/stats").get_data(as_text=True)
    assert [_stat(stats, p, "games") for p in ("An", "Binh")] == [1, 1]
    assert _stat(stats, "An", "evenings") == 1


# --------------------------------------------------------------------------- a group made from a game: the phone's zone


def test_make_a_group_of_these_players_sends_the_phones_zone(client: Any) -> None:
    sheet = start(client, "/tienlen/scores/new", {"name0": "An", "name1": "Binh"})
    html = client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    form = html.split('action="/groups/from-game"', 1)[1].split("</form>", 1)[0]
    assert re.search(r'<input type="hidden" name="zone" value="" data-time-zone>', form)  # app.js fills it


def test_a_group_made_from_a_game_has_the_phones_zone_and_its_evening_is_one(client: Any) -> None:
    first = start(client, "/tienlen/scores/new", {"name0": "An", "name1": "Binh"})
    r = client.post("/groups/from-game", data={"game": first, "zone": "America/Los_Angeles"})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    group = _token(r.headers["Location"])
    page = f"/groups/g/{group}"
    assert "America/Los_Angeles" in client.get(page).get_data(as_text=True)
    second = tienlen_sheet(client, group, ["An", "Binh"])
    with client.application.app_context():  # 20:00 and 23:00 at UTC−8: 04:00 and 07:00 UTC
        _stored(client, first).created_at = datetime(2026, 12, 5, 4, 0, tzinfo=UTC)
        _stored(client, second).created_at = datetime(2026, 12, 5, 7, 0, tzinfo=UTC)
        db.session.commit()
    assert re.findall(r'data-evening="([\d-]+)"', client.get(page).get_data(as_text=True)) == ["2026-12-04"]


def test_a_group_made_from_a_game_without_a_zone_is_on_utc_and_a_bad_zone_is_refused(client: Any) -> None:
    sheet = start(client, "/tienlen/scores/new", {"name0": "An", "name1": "Binh"})
    refused = client.post("/groups/from-game", data={"game": sheet, "zone": "Mars/Olympus"})
    assert refused.status_code == 422 and "is not a time zone" in refused.get_data(as_text=True)
    with client.application.app_context():
        assert _stored(client, sheet).group_id is None
        assert db.session.scalar(db.select(db.func.count(Game.id)).where(Game.kind == "group")) == 0
    r = client.post("/groups/from-game", data={"game": sheet})  # no script on the phone: UTC, as /groups/new
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Evenings are this group's days in UTC;" in html


def test_with_a_groups_end_each_sheet_and_table_says_the_amount_the_groups_page_says(client: Any) -> None:
    """RULES.md: "The group's page and the sheets never disagree on an amount", and a game past an
    end counts toward nothing, not its sheet's settle-up either: the group's end too."""
    group = make_group(client, "An\nBinh")
    page = f"/groups/g/{group}"
    assert post(client, page, f"{page}/end", games="2").status_code == 303
    sheet = tienlen_sheet(client, group, ["An", "Binh"])
    stake(client, f"/tienlen/scores/g/{sheet}", "1")
    tienlen_game(client, sheet, out="0", left_1="5")  # An +5
    table = trece_table(client, group, "An", "Binh")
    stake(client, f"/trece/g/{table}", "2.50")
    trece_win(client, table)  # Binh +2.50: the evening's second game, its last
    tienlen_game(client, sheet, out="1", left_0="9")  # past the group's end
    on_sheet = client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    assert transfers(on_sheet) == ["Binh pays An $5.00"]
    assert "1 game was played past the end; it is not in the result." in on_sheet
    assert transfers(client.get(f"/trece/g/{table}").get_data(as_text=True)) == ["An pays Binh $2.50"]
    assert group_transfers(client, group) == ["Binh pays An $2.50"]  # the sum of the two


# --------------------------------------------------------------------------- a group's file: its sheets keep their tables


def _second_hand(client: Any, table: str) -> None:
    """Hand 2 of the table, played and not scored: An (who won hand 1) leads a dragon, then the 2♠."""
    with client.application.app_context():
        version = _stored(client, table).version
    assert client.post(f"/tienlen/g/{table}/next", data={"version": str(version)}).status_code == 303
    for seat, cards in ((0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"), (1, None), (2, None), (3, None), (0, "2s")):
        _play(client, table, seat, cards)


def _as_written_before_the_fix(body: bytes, ids: dict[str, int]) -> bytes:
    """The file a server before the fix wrote: version 1, a sheet's tables named by that server's ids."""
    document = json.loads(body)
    document["version"] = 1
    for game in document["games"]:
        if game["kind"] != "tienlen_scores":
            continue
        if isinstance(game["setup"].get("table"), str):
            game["setup"]["table"] = ids[game["setup"]["table"]]
        for event in game["events"]:
            if isinstance(event["payload"].get("table"), str):
                event["payload"]["table"] = ids[event["payload"]["table"]]
    return json.dumps(document).encode()


@pytest.mark.parametrize("old_file", [False, True], ids=["file", "file before the fix"])
@pytest.mark.parametrize("how", ["score this hand", "a table started from the sheet"])
def test_a_groups_file_imported_elsewhere_keeps_each_sheets_tables(make_app: Any, any_db_app: Any, how: str,
                                                                   old_file: bool) -> None:
    here = make_app().test_client()
    for name in ("Hoa", "Lan", "Mai"):  # the old server's ids are not those the new one gives
        start(here, "/tienlen/scores/new", {"name0": name, "name1": "Tuan"})
    group, sheet = _groups_table_hand_scored(here, how)
    stake(here, f"/tienlen/scores/g/{sheet}", "1")
    with here.application.app_context():
        table = db.session.scalar(db.select(Game).where(Game.kind == "tienlen"))
        assert table is not None
        table_token, old_ids = table.keeper_token, {table.watch_token: table.id}
    _second_hand(here, table_token)
    money = group_transfers(here, group)
    assert money and money == transfers(here.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True))
    body = here.get(f"/groups/g/{group}/export.json").data
    if old_file:
        body = _as_written_before_the_fix(body, old_ids)
    there = any_db_app.test_client()
    r = there.post("/groups/import", data={"file": (BytesIO(body), "g.json")}, content_type="multipart/form-data")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    with any_db_app.app_context():
        table_id = _stored(there, table_token).id
    assert table_id != next(iter(old_ids.values()))
    page = there.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    assert f'href="/tienlen/scores/g/{sheet}/table/{table_id}/1"' in page  # hand 2, waiting to be scored
    assert there.get(f"/tienlen/scores/g/{sheet}/table/{table_id}/0").status_code == 200  # hand 1, scored
    stats = there.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert [_stat(stats, p, "games") for p in ("An", "Binh", "Chi", "Dung")] == [2, 2, 2, 2]  # hand 1 once
    assert [_stat(stats, p, "wins") for p in ("An", "Binh", "Chi", "Dung")] == [2, 0, 0, 0]
    assert group_transfers(there, group) == money
    assert transfers(page) == money
    r = there.post(f"/tienlen/scores/score/{table_token}/1")  # "Score this hand" opens the sheet it had
    assert r.status_code == 303 and f"/tienlen/scores/g/{sheet}/table/{table_id}/1" in r.headers["Location"]
    with any_db_app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == len(json.loads(body)["games"])
    if not old_file:
        assert there.get(f"/groups/g/{group}/export.json").data == body
