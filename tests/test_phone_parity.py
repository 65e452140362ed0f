"""The phone and the server give the same answers: the referee in Pyodide against CPython.

The phone's engine is built as the app serves it (``referee.web.engine``: Pyodide's runtime
from the pinned npm package, the trimmed standard library, ``thirteen.zip``) and run under
Node.js by ``tests/phone/run_engine.cjs``.  Three checks:

* thousands of random inputs over the three games, their house-rule switches and the four
  languages, answered by the server (the Flask views, through the test client: the fragment,
  the status, the rules cookie) and by the phone (``referee.web.phone.render`` in Pyodide):
  the same HTML, character for character, the same status, the same rules kept;
* a round's live split (which needs a sheet on the server) for random rules, players and
  rounds: the phone against ``referee.web.phone.render`` on CPython, and for first rounds of
  real sheets against the server's route too;
* the rules library's doctests pass on Pyodide as on CPython (the same number of examples).

The counts are printed (``-s``).
"""

from __future__ import annotations

import doctest
import importlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Rank, Suit
from referee.web import engine, phone
from tests.sizes import examples

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "phone" / "run_engine.cjs"
LANGUAGES = ("en", "es", "pt", "vi")
PER_KIND = examples(200, 600)  # four kinds: 800 random inputs, 200 in each language (the long run: 2,400)
LIBRARY = tuple(".".join(p.relative_to(ROOT).with_suffix("").parts) for p in engine.library_files())
DOCTESTED = (*(name.removesuffix(".__init__") for name in LIBRARY),  # the library's packages too
             "referee.web.numbers", "referee.web.house_rules")
RANKS = [r.symbol for r in Rank]
SUITS = [s.letter for s in Suit]
DECK = [r + s for r in RANKS for s in SUITS]


# --------------------------------------------------------------------------- random inputs


def _cards(rng: random.Random, n: int, taken: set[str] | None = None) -> list[str]:
    pool = [c for c in DECK if not taken or c not in taken]
    return rng.sample(pool, min(n, len(pool)))


def _tienlen_cards(rng: random.Random, taken: set[str]) -> str:
    shape = rng.random()
    if shape < 0.5:  # a real combination more often than chance would give
        rank = rng.randrange(len(RANKS))
        kind = rng.choice(("single", "pair", "triple", "quad", "sequence", "pairs"))
        cards: list[str] = []
        if kind in ("single", "pair", "triple", "quad"):
            n = {"single": 1, "pair": 2, "triple": 3, "quad": 4}[kind]
            cards = [RANKS[rank] + s for s in rng.sample(SUITS, n)]
        else:
            length = rng.randint(3, 6)
            order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
            start = rng.randrange(len(order) - length + 1)
            for r in order[start:start + length]:
                cards += [r + s for s in rng.sample(SUITS, 2 if kind == "pairs" else 1)]
        return " ".join(cards)
    if shape < 0.95:
        return " ".join(_cards(rng, rng.randint(1, 7), taken))
    return rng.choice(("1x", "Zs 3c", "10h 10h", "JK", "3s,4s"))


def tienlen_form(rng: random.Random) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    table = "" if rng.random() < 0.3 else _tienlen_cards(rng, set())
    play = "" if rng.random() < 0.05 else _tienlen_cards(rng, set(table.split()))
    form = [("table", table), ("play", play)]
    if rng.random() < 0.2:
        form.append(("first_play", "on"))
    if rng.random() < 0.3:  # the lowest card dealt (2 or 3 players), now and then not one of the list
        from referee.web.games.tienlen.answers import LOWEST_CHOICES

        form.append(("lowest", rng.choice([*LOWEST_CHOICES, "", "2h" if rng.random() < 0.2 else "3s"])))
    remembered: dict[str, Any] = {}
    if rng.random() < 0.7:
        for key in ("twos_in_sequences", "quad_beats_pair_of_twos", "quad_beats_three_pairs",
                    "four_pairs_beat_quad", "bomb_after_pass", "play_on", "instant_wins"):
            form.append((f"{key}__present", "1"))
            if rng.random() < 0.4:
                form.append((key, "on"))
        form.append(("first_lead", rng.choice(("contains_3s", "three_spades_alone", "any", "any", "bogus"
                                                if rng.random() < 0.1 else "any"))))
    elif rng.random() < 0.6:
        remembered = {"twos_in_sequences": rng.random() < 0.5, "first_lead": rng.choice(("contains_3s", "any")),
                      "four_pairs_beat_quad": rng.random() < 0.5}
        if rng.random() < 0.1:
            remembered["first_lead"] = "stale-choice"
    return form, remembered


def trece_form(rng: random.Random) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    form: list[tuple[str, str]] = []
    top_joker = rng.random() < 0.2
    if rng.random() < 0.1:
        form.append(("top", rng.choice(("Kh", "RJ", "BJ", "x9", "JK"))))
    elif top_joker:
        form.append(("top_rank", rng.choice(("RJ", "BJ"))))
    elif rng.random() < 0.95:
        form.append(("top_rank", rng.choice(RANKS)))
        if rng.random() < 0.9:
            form.append(("top_suit", rng.choice(SUITS)))
    if top_joker or rng.random() < 0.1:
        form.append(("must_follow", rng.choice(SUITS + ["♥", "", "q"])))
    n = rng.choice((0, 1, 1, 1, 2, 3, 4))
    if rng.random() < 0.5 and n:  # a run of one suit, often legal
        suit = rng.choice(SUITS)
        start = rng.randrange(13)
        play = [RANKS[(start + i) % 13] + suit for i in range(n)]
    else:
        play = _cards(rng, n)
    if rng.random() < 0.1:
        play.append(rng.choice(("RJ", "BJ", "1z")))
    form.append(("play", " ".join(play)))
    form.append(("run_after_joker__present", "1"))
    if rng.random() < 0.5:
        form.append(("run_after_joker", "on"))
    return form, {}


def score_form(rng: random.Random) -> list[tuple[str, str]]:
    form = [("round", str(rng.randint(1, 13))), ("players", str(rng.randint(2, 8)))]
    if rng.random() < 0.3:
        form.append(("wild", rng.choice(RANKS)))
    jokers = rng.random() < 0.3
    for key in ("jokers", "longer_game"):
        form.append((f"{key}__present", "1"))
        if (key == "jokers" and jokers) or (key == "longer_game" and rng.random() < 0.3):
            form.append((key, "on"))
    form.append(("faces", rng.choice(("ten", "rank"))))
    form.append(("aces", rng.choice(("low", "high_or_low", "low", "sideways" if rng.random() < 0.05 else "low"))))
    n = rng.randint(0, 15)
    hand = [rng.choice(DECK) for _ in range(n)] if rng.random() < 0.3 else _cards(rng, n)
    if jokers and rng.random() < 0.5:
        hand.append("JK")
    form.append(("hand", " ".join(hand)))
    return form


def preview_setup(rng: random.Random) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    from referee.three_thirteen import Schedule, ThreeThirteenRules
    from referee.web.games.three_thirteen.answers import rules_of, stored_rules

    rules = rules_of({
        "faces": rng.choice(("ten", "rank")), "aces": rng.choice(("low", "high_or_low")),
        "jokers": rng.random() < 0.3, "longer_game": rng.random() < 0.3, "up_and_back": rng.random() < 0.2,
        "doubles": rng.random() < 0.3, "false_out": rng.random() < 0.3,
        **({"decks": rng.randint(1, 3)} if rng.random() < 0.3 else {}),
    })
    assert isinstance(rules, ThreeThirteenRules)
    players = rng.randint(2, 8)
    number = rng.randint(1, Schedule(rules).rounds)
    seat = rng.randrange(players)
    dealt = Schedule(rules).cards_dealt(number)
    n = max(0, dealt + rng.choice((0, 0, 0, 1, -1, -2)))
    hand = _cards(rng, n)
    if rules.jokers and rng.random() < 0.3:
        hand[-1:] = ["JK"]
    form = [(f"cards_{seat}", " ".join(hand))]
    if rng.random() < 0.3:
        form.append(("out", str(seat)))
    return {"rules": stored_rules(rules), "players": players, "number": number, "seat": seat}, form


# --------------------------------------------------------------------------- a followed table

DOCK = re.compile(r'<div class="[\w -]+" data-after-action>(.*?)<[^>]*\bdata-dock-keep\b', re.S)  # the buttons stay
LINE = re.compile(r"<p class=[^>]*>.*?</p>|<div class=[^>]*>[^<]*</div>", re.S)


def dock_lines(answer: dict[str, Any]) -> dict[str, Any]:
    """The lines beside the Play button (the result or refusal, whose turn), from a whole table
    (the server's answer) or from the phone's answer (those lines alone); and the status."""
    html = answer.get("html", "")
    found = DOCK.search(html)
    return {"lines": LINE.findall(found.group(1) if found else html), "status": answer.get("status"),
            "error": answer.get("error")}


def table_move(client, kind: str, path: str, language: str, form: list[tuple[str, str]],  # type: ignore[no-untyped-def]
               game_setup: dict[str, Any], accepted: list[dict[str, Any]], action: str,
               asked: tuple[list, list, list]) -> tuple[int, str]:
    """One move of a followed table posted by a phone in ``language`` (htmx): the server's lines
    beside Play go to ``expected`` and the same move, as the phone's engine is asked it (the
    table's setup and the moves ``accepted`` before), to ``requests``; ``asked``: (requests,
    expected, kinds).  The server's status and page."""
    requests, expected, kinds = asked
    client._cookies.clear()
    client.set_cookie("lang", language)
    response = client.post(path, data=dict(form), headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    expected.append(dock_lines({"html": html, "status": response.status_code}))
    requests.append({"kind": kind, "language": language, "form": form, "remembered": {},
                     "setup": {"game": {"setup": game_setup, "records": []}, "pending": list(accepted),
                               "action": action}})
    kinds.append(kind)
    return response.status_code, html


def table_moves(app, client, rng: random.Random, requests: list, expected: list, kinds: list,  # type: ignore[no-untyped-def]
                games: int = 12, moves: int = 25) -> None:
    from referee.tienlen import Setup, TienLenRules
    from referee.web.store import create_game

    for g in range(games):
        players = rng.randint(2, 4)
        rules = TienLenRules(first_lead=rng.choice(("contains_3s", "three_spades_alone", "any")),
                             twos_in_sequences=rng.random() < 0.3, play_on=rng.random() < 0.5)
        names = tuple(f"P{g}-{i}" for i in range(players))
        setup = Setup(names, rules, leader=rng.randrange(players), opening=True, hand_size=52 // players if
                      players == 4 else 13)
        with app.app_context():
            game = create_game("tienlen", list(names), rules=rules.to_dict(), setup=setup.to_dict())
            token, game_setup = game.keeper_token, setup.to_dict()
        version, turn, played = 0, setup.leader, set()
        accepted: list[dict[str, Any]] = []
        for m in range(moves):
            language = LANGUAGES[(g + m) % 4]
            action = "pass" if rng.random() < 0.2 else "play"
            cards = _tienlen_cards(rng, played) if action == "play" else ""
            if rng.random() < 0.1:
                cards = "3s" if "3♠" not in played else cards
            form = [("version", str(version)), ("seat", str(turn)), ("cards", cards)]
            status, html = table_move(client, "tienlen-table", f"/tienlen/g/{token}/{action}", language, form,
                                      game_setup, accepted, action, (requests, expected, kinds))
            if status == 200:
                accepted.append({"action": action, "form": form})
                version += 1
                played.update(c for c in re.findall(r"\S+", cards))
                seat = re.search(r'name="seat" value="(\d+)"', html)
                if seat is None:  # the hand is over: this table is done
                    break
                turn = int(seat.group(1))


def trece_moves(app, client, rng: random.Random, requests: list, expected: list, kinds: list,  # type: ignore[no-untyped-def]
                games: int = 10, moves: int = 25) -> None:
    from referee.cards import Card
    from referee.trece import Setup, TreceRules
    from referee.web.store import create_game

    for g in range(games):
        rules = TreceRules(run_after_joker=rng.random() < 0.5)
        names = (f"T{g}-a", f"T{g}-b")
        setup = Setup(names, Card.parse(rng.choice(DECK)), dealer=rng.randrange(2), rules=rules)
        with app.app_context():
            game = create_game("trece", list(names), rules=rules.to_dict(), setup=setup.to_dict())
            token, game_setup = game.keeper_token, setup.to_dict()
        version = 0
        accepted: list[dict[str, Any]] = []
        for m in range(moves):
            language = LANGUAGES[(g + m + 1) % 4]
            roll = rng.random()
            if roll < 0.6:
                n = rng.choice((1, 1, 2, 3))
                suit, start = rng.choice(SUITS), rng.randrange(13)
                cards = [RANKS[(start + i) % 13] + suit for i in range(n)] if rng.random() < 0.6 else _cards(rng, n)
                if rng.random() < 0.15:
                    cards.append(rng.choice(("RJ", "BJ", "zz")))
                form = [("version", str(version)), ("action", "play"), ("cards", " ".join(cards))]
            elif roll < 0.85:
                form = [("version", str(version)), ("action", "draw")]
            else:
                form = [("version", str(version)), ("action", rng.choice(("last_card", "thirteen"))),
                        ("player", str(rng.randrange(2)))]
            status, html = table_move(client, "trece-table", f"/trece/g/{token}/act", language, form,
                                      game_setup, accepted, "act", (requests, expected, kinds))
            if status == 200:
                accepted.append({"action": "act", "form": form})
                version += 1
                if "data-after-action" not in html:  # the game is over
                    break


# --------------------------------------------------------------------------- the server's answers


def server_answer(client, kind: str, language: str, form: list[tuple[str, str]],  # type: ignore[no-untyped-def]
                  remembered: dict[str, Any], path: str | None = None) -> dict[str, Any]:
    from werkzeug.datastructures import MultiDict
    from werkzeug.http import parse_cookie

    client._cookies.clear()
    client.set_cookie("lang", language)
    game = {"tienlen-check": "tienlen", "trece-check": "trece"}.get(kind)
    if remembered and game:
        client.set_cookie(f"rules_{game}", json.dumps(remembered, separators=(",", ":")))
    headers = {"HX-Request": "true"}
    if kind == "tienlen-check":
        response = client.post("/tienlen/check", data=MultiDict(form), headers=headers)
    elif kind == "trece-check":
        response = client.post("/trece/check", data=MultiDict(form), headers=headers)
    elif kind == "three-thirteen-score":
        response = client.get("/three-thirteen/score", query_string=MultiDict(form), headers=headers)
    else:
        assert path is not None
        response = client.get(path, query_string=MultiDict(form), headers=headers)
    kept = None
    for header in response.headers.getlist("Set-Cookie"):
        if game and header.startswith(f"rules_{game}="):
            kept = json.loads(parse_cookie(header.split(";", 1)[0])[f"rules_{game}"])
    return {"html": response.get_data(as_text=True), "status": response.status_code, "remember": kept}


@pytest.fixture(scope="module")
def engine_app(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PHONE_ENGINE=True)
    if app.extensions.get("thirteen_engine") is None or shutil.which("node") is None:
        pytest.fail("the phone's engine needs node_modules/pyodide and Node.js: run ./scripts/test")
    return app


def run_on_pyodide(built: engine.Engine, requests: list[dict[str, Any]], tmp_path: Path) -> dict[str, Any]:
    job = tmp_path / "requests.json"
    job.write_text(json.dumps({"requests": requests, "doctest_modules": list(DOCTESTED)}), encoding="utf-8")
    result = subprocess.run(
        ["node", str(RUNNER), str(built.folder), built.runtime, built.app, str(job),
         str(engine.PYODIDE / "python_stdlib.zip")],
        capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_the_phone_and_the_server_give_the_same_verdicts_splits_and_doctests(engine_app, tmp_path):
    from referee.web.store import create_game

    rng = random.Random(20)
    client = engine_app.test_client()
    requests: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []
    kinds: list[str] = []
    for i in range(PER_KIND):
        for kind in ("tienlen-check", "trece-check", "three-thirteen-score", "three-thirteen-preview"):
            language = LANGUAGES[(i + len(kinds)) % len(LANGUAGES)]
            remembered: dict[str, Any] = {}
            setup = None
            if kind == "tienlen-check":
                form, remembered = tienlen_form(rng)
            elif kind == "trece-check":
                form, remembered = trece_form(rng)
            elif kind == "three-thirteen-score":
                form = score_form(rng)
            else:
                setup, form = preview_setup(rng)
            request = {"kind": kind, "language": language, "form": form, "remembered": remembered, "setup": setup}
            if setup is None:
                expected.append(server_answer(client, kind, language, form, remembered))
            else:  # the same function the server's route calls, on CPython, outside Flask
                expected.append(phone.render(kind, language, form, remembered, setup))
            requests.append(request)
            kinds.append(kind)

    # First rounds of real sheets: the server's route itself.
    from referee.three_thirteen import Schedule
    from referee.web.games.three_thirteen.answers import rules_of

    with engine_app.app_context():
        from referee.web.games.three_thirteen.answers import stored_rules
        from referee.web.games.three_thirteen.sheet import KIND

        sheets = []
        for players, raw in ((2, {}), (4, {"jokers": True}), (8, {"faces": "rank", "decks": 3}),
                             (3, {"doubles": True, "false_out": True})):
            rules = rules_of(raw)
            game = create_game(KIND, [f"P{i}" for i in range(players)], rules=stored_rules(rules),
                               setup={"first_dealer": 0})
            sheets.append((game.keeper_token, players, stored_rules(rules)))
    for i in range(100):
        token, players, rules = sheets[i % len(sheets)]
        seat = rng.randrange(players)
        hand = _cards(rng, rng.choice((2, 3, 3, 3, 4)))
        if rules.get("jokers") and rng.random() < 0.4:
            hand[-1:] = ["JK"]
        form = [(f"cards_{seat}", " ".join(hand))] + ([("out", str(seat))] if rng.random() < 0.3 else [])
        language = LANGUAGES[i % 4]
        setup = {"rules": rules, "players": players, "number": 1, "seat": seat}
        path = f"/three-thirteen/g/{token}/round/1/preview/{seat}"
        expected.append(server_answer(client, "three-thirteen-preview", language, form, {}, path))
        requests.append({"kind": "three-thirteen-preview", "language": language, "form": form,
                         "remembered": {}, "setup": setup})
        kinds.append("three-thirteen-preview (server route)")

    # Whole rounds saved offline (judged on the phone while they wait to be sent): the phone
    # against the same function on CPython, outside Flask.
    for i in range(examples(80, 200)):
        setup, _ = preview_setup(rng)
        players = int(setup["players"])
        dealt = Schedule(rules_of(setup["rules"])).cards_dealt(int(setup["number"]))
        form = []
        for seat in range(players):
            if rng.random() < 0.15:
                form.append((f"points_{seat}", str(rng.randint(0, 120))))
            else:
                form.append((f"cards_{seat}", " ".join(_cards(rng, max(0, dealt + rng.choice((0, 0, 0, 1, -1)))))))
        if rng.random() < 0.8:
            form.append(("out", str(rng.randrange(players))))
        setup = {**setup, "names": [f"P{n}" for n in range(players)]}
        language = LANGUAGES[i % 4]
        expected.append(phone.render("three-thirteen-round", language, form, {}, setup))
        requests.append({"kind": "three-thirteen-round", "language": language, "form": form, "remembered": {},
                         "setup": setup})
        kinds.append("three-thirteen-round")

    # Moves at followed Tiến lên tables: each sent to the server in turn (stored when accepted);
    # the phone judges the same move from the start of the game with the accepted ones waiting.
    table_moves(engine_app, client, rng, requests, expected, kinds)
    trece_moves(engine_app, client, rng, requests, expected, kinds)

    result = run_on_pyodide(engine_app.extensions["thirteen_engine"], requests, tmp_path)
    answers = [dock_lines(a) if k.endswith("-table") else a for k, a in zip(kinds, result["answers"], strict=True)]
    assert len(answers) == len(requests)
    differ = [(k, r, e, a) for k, r, e, a in zip(kinds, requests, expected, answers, strict=True) if e != a]

    # CPython's doctests of the same modules, for the same count of examples.
    cpython: dict[str, list[int]] = {}
    for name in DOCTESTED:
        outcome = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
        cpython[name] = [outcome.failed, outcome.attempted]

    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    by_language = {lang: sum(1 for r in requests if r["language"] == lang) for lang in LANGUAGES}
    states = {}
    for e in expected:
        for state in ("legal", "illegal", "nocombo", "error", "empty"):
            if f'data-state="{state}"' in e.get("html", ""):
                states[state] = states.get(state, 0) + 1
    print(f"\nPyodide {result['python']} under Node: engine started in {result['ms']['start']} ms, "
          f"{len(requests)} answers in {result['ms']['answers']} ms")
    print(f"inputs by kind: {counts}; by language: {by_language}; verdict boxes: {states}")
    moves = [e["status"] for k, e in zip(kinds, expected, strict=True) if k.endswith("-table")]
    print(f"table moves: {moves.count(200)} accepted, {moves.count(422)} refused by the rules, "
          f"{len(moves) - moves.count(200) - moves.count(422)} other")
    print(f"identical answers: {len(requests) - len(differ)} of {len(requests)}")
    print(f"doctests (failed, attempted) on Pyodide: {result['doctests']}")
    print(f"doctests (failed, attempted) on CPython: {cpython}")
    assert differ == [], f"{len(differ)} answers differ; the first: {differ[0]}"
    assert result["doctests"] == cpython
    assert all(failed == 0 for failed, _ in cpython.values())
    assert sum(attempted for _, attempted in cpython.values()) > 200
