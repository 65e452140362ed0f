"""Groups on the web: a table of friends with its evenings, stats, and the file that moves it."""

from __future__ import annotations

import json
import re
from io import BytesIO
from typing import Any

import pytest

from referee.errors import RefereeError
from referee.web.extensions import db
from referee.web.groups import transfer
from referee.web.models import Game

PEOPLE = "An\nBinh\nChi\nDung"


def _token(location: str) -> str:
    return location.rstrip("/").rsplit("/", 1)[-1]


def _version(html: str) -> str:
    found = re.search(r'data-version="(\d+)"', html)
    assert found
    return found.group(1)


def make_group(client: Any, people: str = PEOPLE) -> str:
    r = client.post("/groups/new", data={"name": "Fridays", "people": people})
    assert r.status_code == 303
    return _token(r.headers["Location"])


def start_sheet(client: Any, group: str, names: list[str]) -> str:
    form = {f"name{i}": n for i, n in enumerate(names)} | {"group": group}
    r = client.post("/tienlen/scores/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return _token(r.headers["Location"])


def add_game(client: Any, sheet: str, form: dict[str, str]) -> None:
    page = client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    r = client.post(f"/tienlen/scores/g/{sheet}/add", data={**form, "version": _version(page)})
    assert r.status_code == 303, r.get_data(as_text=True)[:800]


def stat(html: str, person: str, name: str) -> str:
    rows = re.findall(rf'<tr data-person="{re.escape(person)}">(.*?)</tr>', html, re.S)
    assert rows, person
    cells = [c for row in rows for c in re.findall(rf'data-stat="{name}">([^<]*)<', row)]
    assert len(cells) == 1, name
    return str(cells[0])


def test_a_sheet_started_from_a_group_belongs_to_it_and_shows_as_tonights_evening(client: Any) -> None:
    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh", "Chi", "Dung"])
    add_game(client, sheet, {"out": "0", "left_1": "5", "left_2": "13", "left_3": "2"})
    with client.application.app_context():
        stored = db.session.scalar(db.select(Game).where(Game.keeper_token == sheet))
        owner = db.session.scalar(db.select(Game).where(Game.keeper_token == group))
        assert stored is not None and owner is not None and stored.group_id == owner.id
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    assert "🏆 An" in page and "Tiến lên" in page
    assert page.count('class="evening"') == 1


def test_the_group_token_in_a_watch_link_starts_nothing_in_the_group(client: Any) -> None:
    group = make_group(client)
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    watch = re.search(r'id="watch-link" type="text" readonly value="[^"]*/groups/g/([^"]+)"', page)
    assert watch
    sheet = start_sheet(client, watch.group(1), ["An", "Binh"])
    with client.application.app_context():
        stored = db.session.scalar(db.select(Game).where(Game.keeper_token == sheet))
        assert stored is not None and stored.group_id is None


def test_stats_count_wins_frozen_and_points_and_an_undo_changes_them_at_once(client: Any) -> None:
    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh", "Chi"])
    add_game(client, sheet, {"out": "0", "left_1": "5", "left_2": "13"})
    add_game(client, sheet, {"out": "1", "left_0": "2", "left_2": "4"})
    html = client.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert stat(html, "An", "games") == "2" and stat(html, "An", "wins") == "1"
    assert stat(html, "An", "points_won") == "31" and stat(html, "An", "points_lost") == "2"
    assert stat(html, "Chi", "frozen") == "1"
    assert stat(html, "Dung", "games") == "0"  # in the group, not played
    page = client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    assert client.post(f"/tienlen/scores/g/{sheet}/undo", data={"version": _version(page)}).status_code == 303
    html = client.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert stat(html, "An", "games") == "1" and stat(html, "An", "wins") == "1"


def test_a_renamed_person_keeps_the_games_played_under_the_old_name(client: Any) -> None:
    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh"])
    add_game(client, sheet, {"out": "1", "left_0": "3"})
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    r = client.post(f"/groups/g/{group}/rename", data={"person": "1", "name": "Bình", "version": _version(page)})
    assert r.status_code == 303
    html = client.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert stat(html, "Bình", "wins") == "1"
    assert 'data-person="Binh"' not in html


def test_a_name_the_group_has_is_refused_with_its_sentence_and_kept_typed(client: Any) -> None:
    group = make_group(client)
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    r = client.post(f"/groups/g/{group}/add", data={"name": "binh", "version": _version(page)})
    assert r.status_code == 422
    text = r.get_data(as_text=True)
    assert "the group already has someone called" in text.lower() and 'value="binh"' in text


def test_a_stale_group_write_is_409_and_a_watch_link_may_not_write(client: Any) -> None:
    group = make_group(client)
    assert client.post(f"/groups/g/{group}/add", data={"name": "Eve", "version": "0"}).status_code == 303
    assert client.post(f"/groups/g/{group}/add", data={"name": "Fay", "version": "0"}).status_code == 409
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    watch = re.search(r'/groups/g/([^"]+)"', page.split('id="watch-link"')[1])
    assert watch
    assert client.post(f"/groups/g/{watch.group(1)}/add", data={"name": "Gus", "version": "1"}).status_code == 403
    assert client.get(f"/groups/g/{group}").headers["Cache-Control"] == "no-store"


def test_a_game_moved_to_another_evening_counts_there(client: Any) -> None:
    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh"])
    with client.application.app_context():
        watch = db.session.scalar(db.select(Game.watch_token).where(Game.keeper_token == sheet))
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    r = client.post(f"/groups/g/{group}/move", data={"game": watch, "day": "2026-01-02", "version": _version(page)})
    assert r.status_code == 303
    assert 'data-evening="2026-01-02"' in client.get(f"/groups/g/{group}").get_data(as_text=True)
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    bad = client.post(f"/groups/g/{group}/move", data={"game": watch, "day": "2026-02-31", "version": _version(page)})
    assert bad.status_code == 422


def test_make_a_group_of_a_sheets_players_puts_the_sheet_in_it(client: Any) -> None:
    r = client.post("/tienlen/scores/new", data={"name0": "Hoa", "name1": "Lan", "name2": "Minh"})
    sheet = _token(r.headers["Location"])
    assert "Make a group of these players" in client.get(f"/tienlen/scores/g/{sheet}").get_data(as_text=True)
    r = client.post("/groups/from-game", data={"game": sheet})
    assert r.status_code == 303
    group = _token(r.headers["Location"])
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    assert all(f'data-person="{n}"' in page for n in ("Hoa", "Lan", "Minh"))
    assert 'class="evening"' in page


def test_making_a_group_through_a_watch_link_is_refused(client: Any) -> None:
    r = client.post("/tienlen/scores/new", data={"name0": "Hoa", "name1": "Lan"})
    sheet = _token(r.headers["Location"])
    with client.application.app_context():
        watch = db.session.scalar(db.select(Game.watch_token).where(Game.keeper_token == sheet))
    assert client.post("/groups/from-game", data={"game": watch}).status_code == 403
    assert client.post("/groups/from-game", data={"game": "nope"}).status_code == 404


def _history(client: Any) -> tuple[str, str]:
    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh", "Chi"])
    add_game(client, sheet, {"out": "0", "left_1": "5", "left_2": "13"})
    add_game(client, sheet, {"out": "2", "left_0": "7", "left_1": "1"})
    r = client.post("/three-thirteen/new", data={"names": ["Chi", "Dung"], "dealer": "0", "group": group})
    assert r.status_code == 303
    return group, sheet


def test_export_then_import_elsewhere_gives_the_same_pages_and_the_same_file(make_app: Any) -> None:
    here = make_app().test_client()
    group, _ = _history(here)
    exported = here.get(f"/groups/g/{group}/export.json")
    assert exported.status_code == 200 and exported.headers["Cache-Control"] == "no-store"
    body = exported.data
    assert json.loads(body)["format"] == transfer.FORMAT
    there = make_app().test_client()
    r = there.post("/groups/import", data={"file": (BytesIO(body), "group.json")}, content_type="multipart/form-data")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/groups/g/{group}")
    assert there.get(f"/groups/g/{group}/export.json").data == body
    strip = re.compile(r'name="write" value="[0-9a-f]+"|data-rendered="[^"]+"')
    assert strip.sub("", there.get(f"/groups/g/{group}/stats").get_data(as_text=True)) == \
        strip.sub("", here.get(f"/groups/g/{group}/stats").get_data(as_text=True))


def test_importing_the_same_file_twice_makes_nothing_twice(make_app: Any) -> None:
    here = make_app().test_client()
    group, _ = _history(here)
    body = here.get(f"/groups/g/{group}/export.json").data
    there = make_app()
    client = there.test_client()
    for time in range(2):
        r = client.post("/groups/import", data={"file": (BytesIO(body), "g.json")}, content_type="multipart/form-data")
        if time == 0:
            assert r.status_code == 303
        else:  # the second time the page says that nothing changed, and opens the group with a tap
            assert r.status_code == 200
            assert "Everything in this file is already here: nothing changed." in r.get_data(as_text=True)
            assert f'href="/groups/g/{group}"' in r.get_data(as_text=True)
    with there.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == len(json.loads(body)["games"])


def test_one_sheet_exports_alone_and_only_through_its_keeper_link(client: Any) -> None:
    r = client.post("/tienlen/scores/new", data={"name0": "Hoa", "name1": "Lan"})
    sheet = _token(r.headers["Location"])
    body = client.get(f"/groups/game/{sheet}/export.json").get_json()
    assert [g["kind"] for g in body["games"]] == ["tienlen_scores"] and body["games"][0]["group"] is None
    with client.application.app_context():
        watch = db.session.scalar(db.select(Game.watch_token).where(Game.keeper_token == sheet))
    assert client.get(f"/groups/game/{watch}/export.json").status_code == 403


@pytest.mark.parametrize(("document", "words"), [
    (b"not json at all", "not a Thirteen export"),
    (json.dumps({"format": "someone-else", "version": 1}).encode(), "not a Thirteen export"),
    (json.dumps({"format": transfer.FORMAT, "version": 99, "games": []}).encode(), "newer version of Thirteen"),
])
def test_a_file_not_ours_or_from_a_newer_version_is_refused_with_a_sentence(client: Any, document: bytes,
                                                                            words: str) -> None:
    r = client.post("/groups/import", data={"file": (BytesIO(document), "x.json")}, content_type="multipart/form-data")
    assert r.status_code == 422
    assert words in r.get_data(as_text=True)


def test_an_import_refusal_is_of_the_refusal_family_and_said_in_the_readers_language(client: Any) -> None:
    with pytest.raises(transfer.ImportRefused) as refused:
        transfer.read_file(b"not json at all")
    assert isinstance(refused.value, RefereeError) and refused.value.status == 422 and refused.value.field == "file"
    document = json.dumps({"format": transfer.FORMAT, "version": 99, "games": []}).encode()
    r = client.post("/groups/import", data={"file": (BytesIO(document), "x.json")},
                    content_type="multipart/form-data", headers={"Accept-Language": "es"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "versión más nueva de Thirteen (formato 99;" in page and "{theirs}" not in page


def test_a_file_whose_records_do_not_replay_is_refused_and_stores_nothing(make_app: Any) -> None:
    here = make_app().test_client()
    group, _ = _history(here)
    document = json.loads(here.get(f"/groups/g/{group}/export.json").data)
    document["games"][1]["events"][0]["payload"] = {"nonsense": 1}  # a record of the sheet's, written wrong
    there = make_app()
    client = there.test_client()
    r = client.post("/groups/import", data={"file": (BytesIO(json.dumps(document).encode()), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422 and "cannot be replayed" in r.get_data(as_text=True)
    with there.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 0


def test_a_file_larger_than_a_form_still_imports(make_app: Any) -> None:
    here = make_app().test_client()
    group = make_group(here)
    sheet = start_sheet(here, group, ["An", "Binh", "Chi", "Dung"])
    for _ in range(60):
        add_game(here, sheet, {"out": "0", "left_1": "5", "left_2": "13", "left_3": "2"})
    body = here.get(f"/groups/g/{group}/export.json").data
    assert len(body) > 64 * 1024
    r = make_app().test_client().post("/groups/import", data={"file": (BytesIO(body), "g.json")},
                                      content_type="multipart/form-data")
    assert r.status_code == 303


def test_a_groups_file_imported_again_on_either_database_finds_its_games(any_db_app: Any) -> None:
    client = any_db_app.test_client()
    group, sheet = _history(client)
    body = client.get(f"/groups/g/{group}/export.json").data
    r = client.post("/groups/import", data={"file": (BytesIO(body), "g.json")}, content_type="multipart/form-data")
    assert r.status_code == 200 and "nothing changed" in r.get_data(as_text=True)
    assert f'href="/groups/g/{group}"' in r.get_data(as_text=True)
    assert client.get(f"/groups/g/{group}/export.json").data == body
    html = client.get(f"/groups/g/{group}/stats").get_data(as_text=True)
    assert stat(html, "Chi", "games") == "2"


def test_an_evenings_balances_add_each_sheets_totals_times_its_own_stake(client: Any) -> None:
    from referee.web.groups import build_group
    from referee.web.groups.evenings import evening_money, evenings_of

    group = make_group(client)
    sheet = start_sheet(client, group, ["An", "Binh", "Chi"])
    add_game(client, sheet, {"out": "0", "left_1": "5", "left_2": "13"})  # An +31, Binh −5, Chi −26
    r = client.post("/tienlen/scores/new", data={"name0": "Dung", "name1": "An", "group": group})
    other = _token(r.headers["Location"])
    add_game(client, other, {"out": "0", "left_1": "2"})  # Dung +2, An −2, staked in another currency
    for token, stake, currency in ((sheet, "1000", "VND"), (other, "0.50", "USD")):
        page = client.get(f"/tienlen/scores/g/{token}").get_data(as_text=True)
        r = client.post(f"/tienlen/scores/g/{token}/money",
                        data={"stake": stake, "currency": currency, "version": _version(page)})
        assert r.status_code == 303
    with client.application.test_request_context():
        owner = db.session.scalar(db.select(Game).where(Game.keeper_token == group))
        assert owner is not None
        people = build_group(owner)
        (evening,) = evenings_of(owner, people)
        balances = evening_money(evening, people)
    assert balances == {"VND": {"An": 31000, "Binh": -5000, "Chi": -26000}, "USD": {"Dung": 100, "An": -100}}


def test_a_group_page_polled_at_its_version_is_an_empty_204(client: Any) -> None:
    group = make_group(client)
    version = _version(client.get(f"/groups/g/{group}").get_data(as_text=True))
    r = client.get(f"/groups/g/{group}?since={version}")
    assert r.status_code == 204 and r.headers["Cache-Control"] == "no-store"


def test_a_person_form_that_cannot_be_read_is_400_and_one_not_in_the_group_422(client: Any) -> None:
    group = make_group(client)
    version = _version(client.get(f"/groups/g/{group}").get_data(as_text=True))
    assert client.post(f"/groups/g/{group}/remove", data={"person": "x", "version": version}).status_code == 400
    r = client.post(f"/groups/g/{group}/remove", data={"person": "99", "version": version})
    assert r.status_code == 422 and "no person number 99" in r.get_data(as_text=True)


def test_an_import_without_a_file_or_of_an_unknown_kind_says_what_is_wrong(client: Any) -> None:
    r = client.post("/groups/import", data={}, content_type="multipart/form-data")
    assert r.status_code == 400 and "Choose the file to import" in r.get_data(as_text=True)
    document = {"format": transfer.FORMAT, "version": 1, "games": [{
        "kind": "poker", "keeper_token": "a" * 32, "watch_token": "b" * 32, "group": None,
        "created_at": "2026-01-01T00:00:00+00:00", "updated_at": "2026-01-01T00:00:00+00:00",
        "players": ["An"], "rules": {}, "setup": {}, "events": []}]}
    r = client.post("/groups/import", data={"file": (BytesIO(json.dumps(document).encode()), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422 and "does not know (poker)" in r.get_data(as_text=True)


def test_every_game_a_group_starts_is_put_in_the_group_by_its_own_new_game_form(client: Any) -> None:
    from flask import url_for

    from referee.web import registry
    from tests.worked import worked

    group = make_group(client)
    with client.application.test_request_context():
        starts = [(url_for(s.endpoint), worked(e).examples[s.kind].new, s)
                  for e in registry.entries() for s in e.starts]
    assert {s.kind for _, _, s in starts} >= {"tienlen_scores", "three_thirteen", "trece"}
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    for path, example, start in starts:
        assert f'action="{path}"' in page
        r = client.post(path, data={**example, **start.hidden, "group": group})
        assert r.status_code == 303, (start.kind, r.get_data(as_text=True)[:300])
        with client.application.app_context():
            made = db.session.scalar(db.select(Game).where(Game.keeper_token == _token(r.headers["Location"])))
            owner = db.session.scalar(db.select(Game).where(Game.keeper_token == group))
            assert made is not None and owner is not None and made.group_id == owner.id, start.kind
    assert client.get(f"/groups/g/{group}/stats").status_code == 200


def test_make_a_group_sent_twice_makes_one_group_and_answers_its_keeper_page_both_times(client: Any) -> None:
    r = client.post("/tienlen/scores/new", data={"name0": "Hoa", "name1": "Lan"})
    sheet = _token(r.headers["Location"])
    form = {"game": sheet, "write": "a" * 32}
    first, again = client.post("/groups/from-game", data=form), client.post("/groups/from-game", data=form)
    assert first.headers["Location"] == again.headers["Location"]
    other = client.post("/groups/from-game", data={"game": sheet, "write": "b" * 32})
    assert other.headers["Location"] != first.headers["Location"]  # another form: the watch page
    with client.application.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game).where(Game.kind == "group")) == 1


def test_the_groups_page_shows_the_newest_twenty_evenings_and_every_one_on_request(client: Any) -> None:
    group = make_group(client)
    with client.application.app_context():
        owner = db.session.scalar(db.select(Game).where(Game.keeper_token == group))
        assert owner is not None
    for day in range(1, 23):
        sheet = start_sheet(client, group, ["An", "Binh"])
        with client.application.app_context():
            watch = db.session.scalar(db.select(Game.watch_token).where(Game.keeper_token == sheet))
        page = client.get(f"/groups/g/{group}").get_data(as_text=True)
        r = client.post(f"/groups/g/{group}/move", data={"game": watch, "day": f"2026-01-{day:02d}",
                                                         "version": _version(page)})
        assert r.status_code == 303
    page = client.get(f"/groups/g/{group}").get_data(as_text=True)
    assert page.count('class="evening"') == 20 and 'data-evening="2026-01-22"' in page
    assert 'data-evening="2026-01-02"' not in page and "Every evening (22)" in page
    assert client.get(f"/groups/g/{group}?every=1").get_data(as_text=True).count('class="evening"') == 22


def test_a_sheet_imported_alone_then_with_its_group_joins_the_group(make_app: Any) -> None:
    here = make_app().test_client()
    group, sheet = _history(here)
    alone = here.get(f"/groups/game/{sheet}/export.json").data
    whole = here.get(f"/groups/g/{group}/export.json").data
    there = make_app().test_client()
    for body in (alone, whole):
        r = there.post("/groups/import", data={"file": (BytesIO(body), "x.json")}, content_type="multipart/form-data")
        assert r.status_code == 303
    assert there.get(f"/groups/g/{group}/export.json").data == whole


def test_a_group_made_by_the_phones_start_script_opens_at_the_link_the_phone_made(client: Any) -> None:
    # static/js/offline-start.js sends the group's form with links of its own and, answered with a
    # redirect, opens the group at its own keeper link: the server must make the group there.
    keeper, watch = "Kq8" + "x7Lm2Np4Rs6Tv8Wz0Ab3Cd5Ef7Gh9", "Wt1" + "y3Hj5Kl7Mn9Pq2Rs4Tu6Vw8Xy0Zab"
    answer = client.post("/groups/new", data={"name": "Fridays", "people": "An\nBao",
                                              "keeper_token": keeper, "watch_token": watch})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/groups/g/{keeper}")
    assert client.get(f"/groups/g/{keeper}").status_code == 200
    assert client.get(f"/groups/g/{watch}").status_code == 200
    weak = client.post("/groups/new", data={"name": "Fridays", "people": "An", "keeper_token": "a" * 32})
    assert weak.status_code == 400 and "keeper_token" in weak.get_data(as_text=True)
