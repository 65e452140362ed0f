"""Issue 27's audit, kept: random followed hands scored every way the app takes them agree with
an independent scorer written from RULES.md (``tests/audit_tienlen_scorer.py``), no score form or
API body is a server error, and payment and refusal sentences say what is true of the hand.

The hands are played by a random player on the engine (``referee.tienlen.Hand``: every switch,
2–4 players, shy seats that stay frozen); each one is then scored

- from the followed hand, with every leftover card or only the caught 2s and bombs (library and
  the evening's "from a table" path),
- retyped by hand, with and without the finishing order (the evening and ``/api/tienlen/score``),
- on the web: played at a table, "Score this hand", the from-table form, then the correction
  form saved unchanged; and typed on the by-hand form, then corrected unchanged.
"""

from __future__ import annotations

import csv
import io
import random
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from referee.cards import parse_cards
from referee.tienlen import Chop, Hand, Setup, TienLenRules
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_scores import (
    CardsLeftError,
    CardTwiceError,
    FinishedGame,
    ScoreRules,
    finished_game_from_hand,
    score,
)
from tests.audit_tienlen_scorer import (
    AMOUNTS,
    Account,
    FollowedHand,
    account,
    bomb_cards,
    caught_cards,
    deal,
    facts_of,
    lays_out_as_bombs,
    most_bombs,
    note,
    play_random_hand,
    power,
    rank_of,
    score_account,
)
from tests.sizes import examples

NAMES = ("An", "Bao", "Chi", "Dung")
TABLE_SWITCHES = ("twos_in_sequences", "quad_beats_pair_of_twos", "quad_beats_three_pairs", "four_pairs_beat_quad",
                  "bomb_after_pass", "play_on", "instant_wins")

table_rules = st.builds(TienLenRules, **{name: st.booleans() for name in TABLE_SWITCHES},
                        first_lead=st.sampled_from(("contains_3s", "three_spades_alone", "any")))
amount = st.sampled_from((0, 1, 2, 3, 5))
amounts = st.fixed_dictionaries({
    "first_stake": amount, "second_stake": amount, "frozen": st.sampled_from((1, 2, 3)),
    "two_left_black": amount, "two_left_red": amount, "bomb_left": amount, "chop_black": amount,
    "chop_red": amount, "chop_bomb": amount, "instant_stake": amount, "by_places": st.booleans()})


def played(seed: int, players: int, rules: TienLenRules) -> tuple[Hand, FollowedHand, Account]:
    rng = random.Random(seed)
    dealt = deal(rng, players, rigged=rng.random() < 0.6)
    low = min((c for h in dealt for c in h), key=power)
    leader = next(s for s in range(players) if low in dealt[s])
    hand = Hand(Setup(NAMES[:players], rules=rules, leader=leader, opening=True, lowest_card=low))
    shy = frozenset(s for s in range(players) if s != leader and rng.random() < 0.25)
    followed = play_random_hand(rng, hand, dealt, shy=shy, instant=rules.instant_wins and rng.random() < 0.7)
    return hand, followed, account(followed)


def sheet_amounts(drawn: dict[str, Any], rules: TienLenRules) -> dict[str, Any]:
    chosen = {k: v for k, v in drawn.items() if k != "by_places"}
    chosen["score_by"] = "places" if rules.play_on and drawn["by_places"] else "cards"
    return chosen


def score_rules(chosen: dict[str, Any], rules: TienLenRules) -> ScoreRules:
    return ScoreRules(**chosen, play_on=rules.play_on, instant_wins=rules.instant_wins)


def leftover_texts(acc: Account, players: int) -> list[str | None]:
    return [None if s == acc.winner else note(acc.held_at_out[s]) for s in range(players)]


@settings(max_examples=examples(25, 60))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=table_rules, drawn=amounts)
def test_a_followed_hand_scores_as_the_rules_say_every_way_it_is_entered(
        shared_app, seed: int, players: int, rules: TienLenRules, drawn: dict[str, Any]) -> None:
    hand, _, acc = played(seed, players, rules)
    chosen = sheet_amounts(drawn, rules)
    right = score_account(acc, players, {**AMOUNTS, **chosen}).points
    sr = score_rules(chosen, rules)
    rng = random.Random(seed)
    left = leftover_texts(acc, players)
    caught = [None if s == acc.winner else note(caught_cards(acc.held_at_out[s], rng)) for s in range(players)]
    assert score(finished_game_from_hand(hand, leftover=left), sr).points == right
    assert score(finished_game_from_hand(hand, caught=caught), sr).points == right
    for entered in ({"leftover": {s: t for s, t in enumerate(left) if t}},
                    {"leftover": {}, "caught": {s: t for s, t in enumerate(caught) if t is not None}}):
        evening = Evening(EveningSetup(NAMES[:players], rules=sr))
        evening.follow(7, NAMES[:players])
        assert evening.add_from_table(7, [hand], 0, **entered).points == right
    client = shared_app.test_client()
    for with_order in (True, False):
        if chosen["score_by"] == "places" and not with_order:
            continue
        for cards_entered in ("leftover", "caught"):
            facts = facts_of(acc, players, with_order=with_order, cards_entered=cards_entered, rng=rng)
            assert Evening(EveningSetup(NAMES[:players], rules=sr)).add_by_hand(facts).points == right, facts
            body = {**facts, "rules": {**chosen, "play_on": rules.play_on, "instant_wins": rules.instant_wins}}
            answer = client.post("/api/tienlen/score", json=body)
            assert answer.status_code == 200, (answer.get_json(), body)
            assert tuple(answer.get_json()["points"]) == right, body


# --- the web: forms read back from the page, as a phone sends them ---------------------------

class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._fields: list[tuple[str, str]] | None = None
        self._select: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._fields = []
            self.forms.append((a.get("action", ""), self._fields))
        elif self._fields is None:
            return
        elif tag == "input" and a.get("name") and a.get("type", "text") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self._fields.append((a["name"], a.get("value", "on")))
        elif tag == "select":
            self._select = [a.get("name"), None, None]
        elif tag == "option" and self._select is not None:
            if self._select[2] is None:
                self._select[2] = a.get("value", "")
            if "selected" in a:
                self._select[1] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None and self._fields is not None:
            name, chosen, first = self._select
            self._fields.append((name, chosen if chosen is not None else first or ""))
            self._select = None
        elif tag == "form":
            self._fields = None


def page_form(page: str, action_part: str) -> tuple[str, list[tuple[str, str]]]:
    parser = _Forms()
    parser.feed(page)
    return next(f for f in parser.forms if action_part in f[0])


def sheet_totals(client: Any, sheet: str) -> tuple[int, ...]:
    rows = list(csv.reader(io.StringIO(client.get(sheet + "/scores.csv").get_data(as_text=True))))
    return tuple(int(x) for x in next(r for r in rows if r[0] == "total")[2:-1])


def correct_unchanged(client: Any, sheet: str, number: int) -> None:
    action, fields = page_form(client.get(f"{sheet}/game/{number}").get_data(as_text=True), f"/game/{number}")
    answer = client.post(action, data=MultiDict(fields))
    assert answer.status_code == 303, unescape(answer.get_data(as_text=True))[:2000]


def refusals(response: Any) -> list[str]:
    return re.findall(r'-error"[^>]*>([^<]+)<', unescape(response.get_data(as_text=True)))


@settings(max_examples=examples(4, 10))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=table_rules)
def test_a_table_hand_scored_on_the_sheet_and_corrected_unchanged_keeps_the_rules_points(
        shared_app, seed: int, players: int, rules: TienLenRules) -> None:
    hand, followed, acc = played(seed, players, rules)
    if acc.instant is not None:
        return
    client = shared_app.test_client()
    low = min((c for h in followed.deal for c in h), key=power)
    new = dict(page_form(client.get("/tienlen/new").get_data(as_text=True), "/tienlen/new")[1])
    for name in TABLE_SWITCHES:  # the form remembers the last table's switches: set each one
        new.pop(name, None)
        if getattr(rules, name):
            new[name] = "on"
    new.update({f"name{s}": NAMES[s] for s in range(players)})
    new.update(leader=str(hand.setup.leader), lowest=note([low]), first_lead=rules.first_lead)
    table = client.post("/tienlen/new", data=new).headers["Location"]
    for version, (kind, seat, cards) in enumerate(followed.events):
        form = {"version": str(version), "seat": str(seat)}
        if kind == "play":
            form["cards"] = note(cards)
        answer = client.post(f"{table}/{'play' if kind == 'play' else 'pass'}", data=form)
        assert answer.status_code == 303, refusals(answer)
    scoring = client.post(f"/tienlen/scores/score/{table.rsplit('/', 1)[1]}/0").headers["Location"]
    action, fields = page_form(client.get(scoring).get_data(as_text=True), "/table/")
    entry = MultiDict(fields)
    by_leftover = seed % 2 == 0
    for s in range(players):
        if s != acc.winner:
            if by_leftover:
                entry[f"cards_{s}"] = note(acc.held_at_out[s])
            else:
                entry[f"caught_{s}"] = note(caught_cards(acc.held_at_out[s], random.Random(seed)))
    answer = client.post(action, data=entry)
    assert answer.status_code == 303, refusals(answer)
    sheet = action.split("/table/")[0]
    right = score_account(acc, players, AMOUNTS).points
    assert sheet_totals(client, sheet) == right
    correct_unchanged(client, sheet, 1)
    assert sheet_totals(client, sheet) == right


def new_sheet(client: Any, players: int, chosen: dict[str, Any], rules: TienLenRules) -> str:
    fields = dict(page_form(client.get("/tienlen/scores/").get_data(as_text=True), "/tienlen/scores/new")[1])
    for name in ("play_on", "instant_wins"):
        fields.pop(name, None)
        if getattr(rules, name):
            fields[name] = "on"
    fields.update({f"name{s}": NAMES[s] for s in range(players)})
    fields.update({k: str(v) for k, v in chosen.items()})
    answer = client.post("/tienlen/scores/new", data=fields)
    assert answer.status_code == 303
    return str(answer.headers["Location"])


def facts_form(facts: dict[str, Any], fields: list[tuple[str, str]]) -> dict[str, str]:
    form = dict(fields)
    form["out"] = str(facts["winner"])
    for s in range(facts["players"]):
        form[f"left_{s}"] = str(facts["cards_left"][s])
        if facts.get("order"):
            form[f"place_{s}"] = str(facts["order"].index(s) + 1)
        for key, field in (("leftover", "cards"), ("caught", "caught")):
            if facts.get(key) and facts[key][s] is not None:
                form[f"{field}_{s}"] = facts[key][s]
    row = 0
    for chain in facts.get("chops", []):
        for step_number, step in enumerate(chain):
            form.update({f"chop_by_{row}": str(step["by"]), f"chop_on_{row}": str(step["from"]),
                         f"chop_twos_{row}": step.get("twos", "")})
            if step_number == 0 and row:
                form[f"chop_new_{row}"] = "yes"
            if step.get("after_out"):
                form[f"chop_after_{row}"] = "yes"
            row += 1
    return form


@settings(max_examples=examples(6, 15))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=table_rules, drawn=amounts,
       with_order=st.booleans(), cards_entered=st.sampled_from(("leftover", "caught", "none")))
def test_a_hand_typed_on_the_form_and_corrected_unchanged_keeps_the_rules_points(
        shared_app, seed: int, players: int, rules: TienLenRules, drawn: dict[str, Any], with_order: bool,
        cards_entered: str) -> None:
    _, _, acc = played(seed, players, rules)
    if acc.instant is not None:
        return
    chosen = sheet_amounts(drawn, rules)
    with_order = with_order or chosen["score_by"] == "places"
    facts = facts_of(acc, players, with_order=with_order, cards_entered=cards_entered, rng=random.Random(seed))
    nothing_caught = {"two_left_black": 0, "two_left_red": 0, "bomb_left": 0} if cards_entered == "none" else {}
    # counts only ("none"): no leftover card is entered, so item 3 is not scored
    right = score_account(acc, players, {**AMOUNTS, **chosen, **nothing_caught}).points
    client = shared_app.test_client()
    sheet = new_sheet(client, players, chosen, rules)
    fields = page_form(client.get(sheet + "/add").get_data(as_text=True), "/add")[1]
    answer = client.post(sheet + "/add", data=facts_form(facts, fields))
    assert answer.status_code == 303, (refusals(answer), facts)
    assert sheet_totals(client, sheet) == right
    correct_unchanged(client, sheet, 1)
    assert sheet_totals(client, sheet) == right


# --- no server error, whatever is sent --------------------------------------------------------

ODD = (None, True, False, -1, 0, 1, 3, 4, 13, 14, 2**64, -2**70, 1.5, 1e308, "0", "", "x", "2s", "2s 2s", [],
       [None], {}, {"a": 1}, [0, 1], "٣", "3s" * 40, "10h 10h", "JK", "RJ")
ODD_CARDS = ("2s 2s", "2s 2S", "3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9c 9d", "3s 3c 3d 3h 4s 4c 5s 5c",
             "3c 3d 4c 4d 5c 5d 5h", "2s 2c 2d 2h", "zz", "", " ", "2s,2s", "BJ", "2h" * 14)
odd = st.one_of(st.sampled_from(ODD), st.sampled_from(ODD_CARDS))
step = st.fixed_dictionaries({"by": st.sampled_from((0, 1, 2, 3, -1, 9, None, "1")),
                              "from": st.sampled_from((0, 1, 2, 3, None))},
                             optional={"twos": st.sampled_from(("2h", "2h 2d", "2s 2c 2d") + ODD_CARDS),
                                       "after_out": st.sampled_from((True, False, "yes", None))})
changes = st.dictionaries(
    st.sampled_from(("players", "winner", "cards_left", "order", "leftover", "caught", "chops", "frozen",
                     "instant_win", "rules", "extra")),
    st.one_of(odd, st.lists(st.one_of(odd, st.integers(-2, 15)), max_size=5),
              st.lists(st.lists(step, min_size=1, max_size=4), max_size=3),
              st.sampled_from(({"score_by": "places"}, {"frozen": 0}, {"chop_red": 10**9}, {"play_on": "on"},
                               {"x": 1}, {"instant_wins": True}))),
    max_size=3)


@settings(max_examples=100)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=table_rules, change=changes,
       cards_entered=st.sampled_from(("leftover", "caught", "none")))
def test_no_score_body_is_a_server_error(shared_app, seed: int, players: int, rules: TienLenRules,
                                         change: dict[str, Any], cards_entered: str) -> None:
    rng = random.Random(seed)
    _, _, acc = played(seed, players, rules) if seed % 4 == 0 else (None, None, _quick_account(rng, players))
    body: dict[str, Any] = {**facts_of(acc, players, with_order=seed % 3 == 0, cards_entered=cards_entered, rng=rng),
                            "rules": {"play_on": rules.play_on}, **change}
    answer = shared_app.test_client().post("/api/tienlen/score", json=body)
    assert answer.status_code in (200, 400, 422), body  # 422: a body the document allows whose facts cannot be
    if answer.status_code != 200:
        assert answer.get_json()["error"]


def _quick_account(rng: random.Random, players: int) -> Account:
    """A plausible first out without playing a hand (for the fuzz test's speed)."""
    dealt = deal(rng, players)
    winner = rng.randrange(players)
    held = [() if s == winner else tuple(dealt[s][:rng.randint(1, 13)]) for s in range(players)]
    return Account(winner, held, [len(h) == 13 for h in held], [winner] + [s for s in range(players) if s != winner],
                   [])


FORM_VALUES = ("", "0", "1", "2", "3", "4", "-1", "13", "14", "99999999999999999999", "x", "٣", "yes", "on",
               "\u00a0", "3s" * 300) + ODD_CARDS


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       edits=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(FORM_VALUES)), min_size=1, max_size=5))
def test_no_score_form_is_a_server_error(shared_app, seed: int, players: int, edits: list[tuple[int, str]]) -> None:
    rng = random.Random(seed)
    acc = _quick_account(rng, players)
    client = shared_app.test_client()
    sheet = new_sheet(client, players, {}, TienLenRules(play_on=seed % 2 == 0))
    fields = page_form(client.get(sheet + "/add").get_data(as_text=True), "/add")[1]
    form = facts_form(facts_of(acc, players, with_order=seed % 3 == 0, cards_entered="caught", rng=rng), fields)
    names = sorted(set(form) - {"version"}) + [f"chop_by_{k}" for k in range(4, 9)] + ["chop_twos_5", "out"]
    for at, value in edits:
        form[names[at % len(names)]] = value
    answer = client.post(sheet + "/add", data=form)
    assert answer.status_code in (303, 422, 400), form
    if answer.status_code == 303:  # and its correction form, edited the same way
        action, fields = page_form(client.get(sheet + "/game/1").get_data(as_text=True), "/game/1")
        correction = MultiDict(fields)
        for at, value in edits:
            keys = sorted(set(correction) - {"version"})
            correction[keys[at % len(keys)]] = value
        assert client.post(action, data=correction).status_code in (303, 422, 400), correction


# --- sentences true to the hand ----------------------------------------------------------------

PLACE = {"second": 2, "third": 3}


def sentence_is_true(said: str, acc: Account, players: int) -> bool:
    """Whether an English payment sentence says what the audit saw of the hand."""
    seat = {name: s for s, name in enumerate(NAMES[:players])}
    why = said.rsplit(": ", 1)[0]
    chains = [st for chain in acc.chains for st in chain]
    if m := re.fullmatch(r"(\w+) had (\d+) cards? left", why):
        return len(acc.held_at_out[seat[m[1]]]) == int(m[2]) and not acc.frozen[seat[m[1]]]
    if m := re.fullmatch(r"(\w+) had played no card when (\w+) went out", why):
        return acc.frozen[seat[m[1]]] and acc.winner == seat[m[2]]
    if m := re.fullmatch(r"(\w+) came second and (\w+) third", why):
        return acc.order.index(seat[m[1]]) == 1 and acc.order.index(seat[m[2]]) == 2
    if m := re.fullmatch(r"(\w+) went out first and (\w+) came (second|third), the last of the players not frozen", why):
        rest = [s for s in acc.order if not acc.frozen[s]]
        return acc.winner == seat[m[1]] and acc.order.index(seat[m[2]]) + 1 == PLACE[m[3]] == len(rest) \
            and rest[-1] == seat[m[2]]
    if m := re.fullmatch(r"(\w+) went out first and (\w+) came last", why):
        return acc.winner == seat[m[1]] and acc.order[-1] == seat[m[2]]
    if m := re.fullmatch(r"(\w+) was caught holding a bomb: (.+)", why):
        bomb = tuple(parse_cards(m[2]))
        return set(bomb) <= set(acc.held_at_out[seat[m[1]]]) and most_bombs(bomb) == 1
    if m := re.fullmatch(r"(\w+) was caught holding (.+)", why):
        twos = set(parse_cards(m[2]))
        return twos <= set(acc.held_at_out[seat[m[1]]]) and all(rank_of(c) == 12 for c in twos)
    if m := re.fullmatch(r"(\w+) chopped (\w+)'s (.+)", why):
        return any(st["by"] == seat[m[1]] and st["from"] == seat[m[2]] and set(st["twos"]) == set(parse_cards(m[3]))
                   for st in chains)
    if m := re.fullmatch(r"(\w+) bombed (\w+)'s bomb", why):
        return any(st["by"] == seat[m[1]] and st["from"] == seat[m[2]] and not st["twos"] for st in chains)
    return bool(re.fullmatch(r"(\w+) won at once", why)) and acc.instant == seat[why.split()[0]]


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=table_rules, drawn=amounts)
def test_every_payment_sentence_says_what_happened_in_the_hand(
        seed: int, players: int, rules: TienLenRules, drawn: dict[str, Any]) -> None:
    hand, _, acc = played(seed, players, rules)
    chosen = sheet_amounts(drawn, rules)
    if acc.instant is not None:
        facts = FinishedGame(players=players, winner=acc.instant, instant_win=acc.instant, names=NAMES[:players],
                             cards_left=tuple(0 if s == acc.instant else 13 for s in range(players)))
    else:
        game = finished_game_from_hand(hand, leftover=leftover_texts(acc, players))
        facts = FinishedGame(players=players, winner=game.winner, cards_left=game.cards_left, order=game.order,
                             leftover=game.leftover, chops=game.chops, after_out=game.after_out,
                             names=NAMES[:players])
    for payment in score(facts, score_rules(chosen, rules)).payments:
        said = str(payment.sentence(NAMES[:players]))
        assert sentence_is_true(said, acc, players), said


def test_a_seat_frozen_at_the_first_out_who_played_on_is_said_so_in_every_language(shared_app) -> None:
    # play_on: Bao passes until An is out, then plays: frozen when An went out, not "played no card"
    client = shared_app.test_client()
    sheet = new_sheet(client, 2, {}, TienLenRules(play_on=True))
    fields = page_form(client.get(sheet + "/add").get_data(as_text=True), "/add")[1]
    form = facts_form({"players": 2, "winner": 0, "cards_left": [0, 13], "order": [0, 1]}, fields)
    assert client.post(sheet + "/add", data=form).status_code == 303
    said = {"en": "Bao had played no card when An went out",
            "es": "Bao no había jugado ninguna carta cuando An salió",
            "pt": "Bao não tinha jogado nenhuma carta quando An saiu",
            "vi": "Bao bị cóng: chưa đánh lá nào khi An về nhất"}
    for language, sentence in said.items():
        page = unescape(client.get(sheet, headers={"Accept-Language": language}).get_data(as_text=True))
        assert sentence in page, language


# --- caught cards: accepted when they are bombs, refused with a true sentence otherwise --------

def test_caught_cards_sharing_a_rank_between_two_bombs_are_not_said_to_be_in_none() -> None:
    # 3♠3♣3♦3♥ is a bomb and 3 3 4 4 5 5 is one, but not both at once: every card is in a bomb
    with pytest.raises(CardsLeftError) as refused:
        FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, "3s 3c 3d 3h 4s 4c 5s 5c"))
    assert str(refused.value.reason) == ("3♠ 3♣ 3♦ 3♥ 4♠ 4♣ 5♠ 5♣ do not lay out as bombs: each caught card but "
                                         "the 2s must be in one bomb, and no card in two")


def test_a_caught_card_the_others_are_bombs_without_is_one_card_too_many() -> None:
    with pytest.raises(CardsLeftError) as refused:
        FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, "3s 3c 3d 4s 4c 5s 5c"))
    assert str(refused.value.reason).startswith("3♦ is one card too many: the other caught cards are bombs without it")


some_cards = st.lists(st.sampled_from(tuple(parse_cards(" ".join(r + s for r in "3 4 5 6 7 8".split() for s in "scdh")))),
                      min_size=1, max_size=13, unique=True)


@settings(max_examples=300)
@given(cards=some_cards)
def test_caught_cards_are_taken_exactly_when_they_lay_out_as_bombs_and_refused_truly_otherwise(cards: list[Any]) -> None:
    text = note(cards)
    try:
        game = FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, text))
    except CardsLeftError as refused:
        assert not lays_out_as_bombs(cards)
        said = str(refused.reason)
        if m := re.match(r"(\S+) is neither a 2 nor part of a bomb", said):
            (card,) = parse_cards(m[1])
            assert card not in bomb_cards(cards), said
        elif m := re.match(r"(\S+) is one card too many", said):
            (card,) = parse_cards(m[1])
            assert lays_out_as_bombs([c for c in cards if c != card]), said
        else:
            assert "do not lay out as bombs" in said, said
            assert set(bomb_cards(cards)) == set(cards), said  # every card is in some bomb
        return
    assert lays_out_as_bombs(cards)
    assert score(game).points == (26 + 4 * most_bombs(cards), -26 - 4 * most_bombs(cards))


def test_a_two_chopped_before_the_first_out_is_not_caught_in_its_players_hand_said_with_the_moment() -> None:
    # play_on: a 2 chopped *after* the first out is caught too (it was in the hand then), so the
    # refusal says when this one was chopped, as the leftover cards' sentence does
    with pytest.raises(CardTwiceError) as refused:
        FinishedGame(players=3, winner=0, cards_left=(0, 3, 12), caught=(None, None, "2s 2h"),
                     chops=((Chop(1, 2, tuple(parse_cards("2s"))),),), names=("An", "Bao", "Chi"))
    assert str(refused.value.reason) == "2♠ was chopped before An went out, so it is not among Chi's caught cards"
