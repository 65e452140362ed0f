"""A game is one package: the registry is the only list of games, and the toy game defined only
in the tests (tests/toy) gets everything a game gets from it, with no other change."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from flask import url_for

from referee.cards import notation_for_javascript
from referee.web import phone_pages, registry
from referee.web.registry import GameEntry
from tests.games import ENTRIES, PACKAGES, ROWS, TOY, WORKED, row
from tests.worked import Example

ROOT = Path(__file__).resolve().parent.parent

# The one list of the game packages, and the tests' (the app's plus the toy game).
ALLOWED = {ROOT / "referee" / "web" / "registry.py", ROOT / "tests" / "games.py"}


def names_of(entry: GameEntry) -> set[str]:
    """The words that would name the game: its slug, name, store kinds, blueprints, prefixes."""
    words = {entry.slug, entry.name, *entry.kinds, *(bp.name for bp in entry.blueprints)}
    words |= {(bp.url_prefix or "").strip("/").split("/")[0] for bp in entry.blueprints}
    words |= {screen.endpoint.split(".")[0] for screen in WORKED[entry.slug].screens}
    return {w for w in words if w and w != "api"}


def _a_games_own(path: Path) -> bool:
    """A script or stylesheet named after a game (``static/css/trece.css``) is that game's."""
    return any(path.stem == word or path.stem.startswith(f"{word}_") for entry in ENTRIES for word in names_of(entry))


# What the games share: no file here may name a particular game.
SHARED = [
    *sorted((ROOT / "referee" / "web").glob("*.py")),
    # every script and stylesheet but a game's own (named after it)
    *(p for p in sorted((ROOT / "static").rglob("*")) if p.suffix in (".js", ".css") and not _a_games_own(p)),
    *sorted((ROOT / "templates").glob("*.html")),
    *sorted((ROOT / "templates" / "partials").glob("*.html")),
    *sorted((ROOT / "templates" / "errors").glob("*.html")),
    ROOT / "templates" / "sw.js",
    ROOT / "tests" / "games.py",
    ROOT / "tests" / "conftest.py",
]

@pytest.mark.parametrize("path", [p for p in SHARED if p not in ALLOWED], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_file_names_a_particular_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [(entry.slug, word) for entry in ENTRIES for word in sorted(names_of(entry))
             if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w])", text)]
    assert found == [], f"{path.name} names {found}"


def _ids(paths: list[Path]) -> set[str]:
    """The ids (``#x``) the templates at ``paths`` give their elements."""
    return {f"#{i}" for path in paths for i in re.findall(r'\bid="([\w-]+)"', path.read_text(encoding="utf-8"))}


def _classes(paths: list[Path]) -> set[str]:
    """The classes (``.x``) the stylesheets at ``paths`` style."""
    return {c for path in paths for c in re.findall(r"(?<![\w-])\.[A-Za-z][\w-]*",
                                                    _without_comments(path.read_text(encoding="utf-8")))}


def _without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


SHARED_TEMPLATES = [p for p in SHARED if p.suffix == ".html"]
GAME_TEMPLATES = [p for p in (ROOT / "templates").rglob("*.html") if p.parent.name not in ("templates", "partials", "errors")]
SHARED_STYLES = [p for p in SHARED if p.suffix == ".css"]
GAME_STYLES = [p for p in sorted((ROOT / "static").rglob("*.css")) if _a_games_own(p)]
GAMES_OWN_MARKS = (_ids(GAME_TEMPLATES) - _ids(SHARED_TEMPLATES)) | (_classes(GAME_STYLES) - _classes(SHARED_STYLES))
"""The ids only a game's templates give and the classes only a game's stylesheet styles: a shared
script or stylesheet that reads one knows that game (a script finds a table through the page's
``data-live`` / ``data-local-game`` instead)."""


def _selectors_in(path: Path) -> set[str]:
    """The ids and classes a script names in its strings (selectors), or a stylesheet styles."""
    text = _without_comments(path.read_text(encoding="utf-8"))
    if path.suffix == ".js":
        text = " ".join(re.findall(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', text))
    return set(re.findall(r"(?<![\w-])[#.][A-Za-z][\w-]*", text))


@pytest.mark.parametrize("path", [p for p in SHARED if p.suffix in (".js", ".css")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_script_or_stylesheet_reads_an_id_or_class_only_a_game_gives(path: Path) -> None:
    assert sorted(_selectors_in(path) & GAMES_OWN_MARKS) == [], f"{path.name} reads a game's own ids or classes"


def test_the_id_and_class_check_knows_a_games_own_table() -> None:
    assert "#tl-followed" in GAMES_OWN_MARKS and ".poll" not in GAMES_OWN_MARKS


def test_every_followed_game_has_a_worked_example_and_every_example_a_followed_game() -> None:
    for entry in ENTRIES:
        examples = WORKED[entry.slug].examples
        assert set(examples) == set(entry.kinds), entry.slug
        assert all(isinstance(e, Example) for e in examples.values())
    assert {r.kind for r in ROWS} == {k for e in ENTRIES for k in e.kinds}


def test_a_games_phone_pages_draw_only_its_own_kinds_and_start_only_its_own_games(app) -> None:  # type: ignore[no-untyped-def]
    """The modules a game's entry names (``GameEntry.pages``) register classes for its own store
    kinds and readers for its own new-game endpoints only (the phone imports them by name)."""
    phone_pages.modules()
    endpoints = {rule.endpoint: rule.endpoint.split(".")[0] for rule in app.url_map.iter_rules()}
    for entry in ENTRIES:
        draws = () if entry.pages is None else entry.pages.draws
        kinds = {kind for kind, cls in phone_pages.GAMES.items() if cls.__module__ in draws}
        assert kinds <= set(entry.kinds), entry.slug
        starts = {e for e, read in phone_pages.STARTS.items() if read.__module__ in draws}
        assert {endpoints[e] for e in starts} <= {bp.name for bp in entry.blueprints}, entry.slug
    assert phone_pages.GAMES and phone_pages.STARTS


def test_two_games_may_not_claim_one_slug_or_kind() -> None:
    with pytest.raises(ValueError, match="two games claim"):
        registry.load((*PACKAGES, PACKAGES[0]))


def test_a_package_without_an_entry_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="tests.games has no ENTRY"):
        registry.load(("tests.games",))


def test_the_app_without_the_toy_game_knows_nothing_of_it(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(GAME_PACKAGES=registry.GAME_PACKAGES)
    client = app.test_client()
    assert "/toy/" not in client.get("/").get_data(as_text=True)
    assert client.get("/toy/").status_code == 404
    assert "/api/toy/check" not in client.get("/api/openapi.json").get_json()["paths"]
    assert [e.slug for e in registry.entries(app)] == [e.slug for e in ENTRIES if e.slug != "toy"]


# --- the toy game, registered with no other change ------------------------------------------------

TOY_ROW = next(r for r in ROWS if r.entry.slug == "toy")


def test_the_toy_game_is_registered_only_by_its_package_name() -> None:
    assert PACKAGES[-1] == TOY and TOY not in registry.GAME_PACKAGES


def test_the_toy_game_gets_its_home_tile_with_its_words_and_links(client) -> None:  # type: ignore[no-untyped-def]
    home = html.unescape(client.get("/").get_data(as_text=True))
    tiles = re.findall(r'<a class="game-tile" href="([^"]+)"><span class="game-name">([^<]+)</span>', home)
    assert tiles == [(client.application.url_map.bind("localhost").build(e.home), e.name) for e in ENTRIES]
    assert ("/toy/", "Higher") in tiles


def test_the_toy_game_gets_share_links_and_qr_codes(client) -> None:  # type: ignore[no-untyped-def]
    keeper, watch = TOY_ROW.start(client)
    page = client.get(TOY_ROW.page(keeper)).get_data(as_text=True)
    assert page.count('class="qr"') == 2 and f"/toy/g/{watch}" in page and 'id="keeper-link"' in page
    assert 'data-live="table"' in page


def test_the_toy_game_gets_a_409_keeping_what_was_typed_and_undo(client) -> None:  # type: ignore[no-untyped-def]
    keeper, _ = TOY_ROW.start(client)
    assert TOY_ROW.write(client, keeper, 0).status_code == 303
    stale = TOY_ROW.post(client, keeper, ("/play", {"cards": "K♠"}), 0, headers={"HX-Request": "true"})
    assert stale.status_code == 409 and 'value="K♠"' in stale.get_data(as_text=True)
    undone = TOY_ROW.undo(client, keeper, 1)
    assert undone.status_code == 303
    assert TOY_ROW.write(client, keeper, 2).status_code == 303  # 9♠ again on 5♥: the undo took it back


def test_the_toy_game_gets_its_openapi_entry_and_rules_schema(client) -> None:  # type: ignore[no-untyped-def]
    doc = client.get("/api/openapi.json").get_json()
    assert "/api/toy/check" in doc["paths"]
    assert doc["components"]["schemas"]["HigherRules"]["properties"] == {"aces_high": {"type": "boolean", "default": False}}
    assert "Higher" in doc["info"]["description"]
    answer = client.post("/api/toy/check", json={"top": "5h", "card": "2h"}).get_json()
    assert answer == {"legal": False, "reason": "2♥ is not higher than 5♥"}


def test_the_card_picker_reads_each_games_rank_order_from_the_page(client) -> None:  # type: ignore[no-untyped-def]
    first = ENTRIES[0].card_order
    home = client.get("/").get_data(as_text=True)
    assert f'data-order="{first.name}" data-ranks="{" ".join(first.ranks)}" data-suits="{first.suits}"' in home


def test_a_games_own_tests_may_ask_for_its_row() -> None:
    assert row(ROWS[0].kind) is ROWS[0]


RULES = [cls for entry in ENTRIES for cls in entry.rules]


@pytest.mark.parametrize("cls", RULES, ids=[cls.__name__ for cls in RULES])
def test_remembered_rules_keep_each_switch_that_still_reads_and_drop_the_others(app, cls) -> None:  # type: ignore[no-untyped-def]
    """One behaviour for every game's cookie of remembered rules (tables.remembered)."""
    import dataclasses
    import json

    from werkzeug.http import dump_cookie

    from referee.web.tables import remembered

    flip = next(f.name for f in dataclasses.fields(cls) if isinstance(f.default, bool))
    kept = {flip: not getattr(cls(), flip), "no_such_switch": True, **{
        f.name: "sideways" for f in dataclasses.fields(cls) if f.name != flip}}
    cookie = dump_cookie("rules_k", json.dumps(kept, separators=(",", ":"))).split(";")[0]  # as the app sets it
    with app.test_request_context(headers={"Cookie": cookie}):
        rules = remembered(cls, "k")
    assert getattr(rules, flip) is (not getattr(cls(), flip))
    assert all(getattr(rules, f.name) == f.default for f in dataclasses.fields(cls) if f.name != flip)
    with app.test_request_context():
        assert remembered(cls, "k") == cls()


def test_the_card_notation_is_written_once_and_the_picker_is_given_it_when_built(client) -> None:
    for path in SHARED:
        if path.suffix == ".js":
            assert "2-9AJQKT" not in path.read_text(encoding="utf-8"), f"{path.name} repeats the card notation"
    with client.application.test_request_context():
        address = url_for("static", filename="js/picker.js")
    response = client.get(address)
    served = response.get_data(as_text=True)
    response.close()
    given = re.search(r"GRAMMAR\s*=\s*(\{.*?\});", served)
    assert given is not None, "picker.js is served without the card notation"
    assert json.loads(given.group(1)) == notation_for_javascript()


def test_the_toy_writes_no_mechanical_route_of_its_own(app):
    """The table page, each action and undo come from FollowedGame.routes: a game's package
    writes its decide functions, not the routes around them."""
    for endpoint in ("toy.table", "toy.play", "toy.undo"):
        assert app.view_functions[endpoint].__module__ == "referee.web.tables", endpoint


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.slug)
def test_no_game_writes_its_own_page_undo_or_redo_route(app, entry: GameEntry) -> None:
    """Every followed game's page, undo and redo are FollowedGame.routes' (one guard, one
    answer for a write sent twice or stale), never a copy in the game's package."""
    rules = {rule.rule: rule.endpoint for rule in app.url_map.iter_rules()}
    for game in entry.followed:
        prefix = game.blueprint.url_prefix or ""
        for path in ("/g/<token>", "/g/<token>/undo", "/g/<token>/redo"):
            view = app.view_functions[rules[prefix + path]]
            assert getattr(view, "followed_game", None) is game, f"{entry.slug}: {prefix + path} is written by the game"
