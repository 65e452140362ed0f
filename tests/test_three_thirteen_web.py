"""Three Thirteen on the web, through the test client: the score sheet, the round entry,
corrections, undo, CSV, sharing, stale edits, the score-a-hand screen and the JSON API."""

from __future__ import annotations

import csv
import io
import re
import threading

import pytest

from referee.web.extensions import db
from referee.web.models import Event, Game

NAMES = ["Ann", "Bao", "Chi", "Dan"]
VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def value(card: str) -> int:
    rank = card[:-1]
    return VALUE.get(rank) or int(rank)


# --- helpers --------------------------------------------------------------------------------


def new_game(client, names=NAMES, dealer=0, **switches):
    data = {"names": list(names) + [""] * (8 - len(names)), "dealer": str(dealer)}
    for key, val in switches.items():
        data[key] = val
        if isinstance(val, bool):
            data[f"{key}__present"] = "1"
            data[key] = "on" if val else "off"
            if not val:
                del data[key]
    response = client.post("/three-thirteen/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    keeper = response.headers["Location"].rsplit("/", 1)[-1]
    with client.application.app_context():
        game = db.session.scalar(db.select(Game).where(Game.keeper_token == keeper))
        return keeper, game.watch_token


def version(client, token) -> int:
    page = client.get(f"/three-thirteen/g/{token}").get_data(as_text=True)
    return int(re.search(r'data-version="(\d+)"', page).group(1))


def save(client, token, number, hands, out, seen=None):
    """hands: per seat a str of cards or an int of typed points."""
    data = {"version": str(version(client, token) if seen is None else seen), "out": [str(s) for s in out]}
    for seat, hand in enumerate(hands):
        data[f"cards_{seat}"] = hand if isinstance(hand, str) else ""
        data[f"points_{seat}"] = str(hand) if isinstance(hand, int) else ""
    return client.post(f"/three-thirteen/g/{token}/round/{number}", data=data)


def totals(client, token) -> list[int]:
    page = client.get(f"/three-thirteen/g/{token}").get_data(as_text=True)
    return [int(v) for _seat, v in sorted(re.findall(r'data-total="(\d+)">(\d+)<', page))]


# The designed hands.  Round r deals n = r + 2 and n is wild.
def out_hand(n):  # hearts A..n: one run (the wild n♥ stands as itself)
    return [f"{r}♥" for r in RANKS[:n]]


def deadwood_hand(n):  # spades on odd ranks, diamonds on even ones: nothing melds, no wild
    pool = ["A♠", "2♦", "3♠", "4♦", "5♠", "6♦", "7♠", "8♦", "9♠", "10♦", "J♠", "Q♦", "K♠", "A♣"]
    return [c for c in pool if c[:-1] != RANKS[n - 1]][:n]


def set_hand(n):  # three of a kind (not wild) and deadwood in hearts and clubs with gaps
    x = "5" if n == 4 else "4"
    pool = ["K♥", "Q♣", "J♥", "10♣", "9♥", "8♣", "7♥", "6♣", "5♥", "3♣", "2♥", "A♣"]
    rest = [c for c in pool if c[:-1] not in (RANKS[n - 1], x)][: n - 3]
    return [f"{x}♣", f"{x}♦", f"{x}♥", *rest], sum(value(c) for c in rest)


def play_round(r):
    """Roles rotate: seat (r) goes out, (r+1) holds deadwood, (r+2) types points, (r+3) has a set."""
    n = r + 2
    hands: list = [None] * 4
    points = [0] * 4
    hands[r % 4] = " ".join(out_hand(n))
    dead = deadwood_hand(n)
    hands[(r + 1) % 4] = " ".join(dead)
    points[(r + 1) % 4] = sum(value(c) for c in dead)
    hands[(r + 2) % 4] = 3 * r
    points[(r + 2) % 4] = 3 * r
    with_set, cost = set_hand(n)
    hands[(r + 3) % 4] = " ".join(with_set)
    points[(r + 3) % 4] = cost
    return hands, [r % 4], points


# --- a whole game ---------------------------------------------------------------------------


def test_deadwood_values_by_hand():
    # a few rounds worked out on paper, so the designed hands are what the test thinks
    assert deadwood_hand(3) == ["A♠", "2♦", "4♦"] and sum(map(value, deadwood_hand(3))) == 7
    assert sum(map(value, deadwood_hand(13))) == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 1
    assert set_hand(3) == (["4♣", "4♦", "4♥"], 0)
    assert set_hand(6) == (["4♣", "4♦", "4♥", "K♥", "Q♣", "J♥"], 30)


def test_eleven_rounds_for_four_players_add_up(client):
    keeper, watch = new_game(client)
    expected = [0, 0, 0, 0]
    for r in range(1, 12):
        hands, out, points = play_round(r)
        response = save(client, keeper, r, hands, out)
        assert response.status_code == 303, response.get_data(as_text=True)
        expected = [a + b for a, b in zip(expected, points, strict=True)]
        assert totals(client, keeper) == expected, f"after round {r}"
    assert expected == [297, 267, 282, 258]  # summed on paper from the designed hands
    page = client.get(f"/three-thirteen/g/{watch}").get_data(as_text=True)
    assert "Game over" in page and "Dan" in page.split("Game over")[1][:400]
    assert "wins with 258 points" in page
    # the typed points are marked as typed on the sheet
    assert page.count('class="tt-typed"') == 11


def test_round_banner_names_wild_rank_dealer_and_starter(client):
    keeper, _ = new_game(client, dealer=2)
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "Round 1 of 11" in page and "3s are wild" in page and "3 cards each" in page
    assert "Chi deals" in page and "Dan starts" in page
    save(client, keeper, 1, *play_round(1)[:2])
    save(client, keeper, 2, *play_round(2)[:2])
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "5s are wild" in page and "Ann deals" in page and "Bao starts" in page
    assert "Chart of all rounds" in page and "kings" in page


def test_a_saved_round_shows_each_hands_split_with_the_wild_cards_marked(client):
    keeper, _ = new_game(client)
    hands = ["9♠ 9♥ 9♣ 4♥ 5♥ 6♣", "K♦ 4♠ A♣ 2♥ 7♣ 8♦", 12, "J♠ Q♠ K♠ 6♦ 3♣ 3♦"]
    for r in (1, 2, 3):
        assert save(client, keeper, r, *play_round(r)[:2]).status_code == 303
    assert save(client, keeper, 4, hands, [0]).status_code == 303
    page = client.get(f"/three-thirteen/g/{keeper}/round/4").get_data(as_text=True)
    assert "=6♥" in page  # the 6♣ stands for the 6♥
    assert 'data-kind="set"' in page and 'data-kind="run"' in page
    # K♦ 4♠ A♣ 2♥ 7♣ 8♦: 10 + 4 + 1 + 2 + 7 + 8 = 32; J♠ Q♠ K♠ run, 6♦ wild makes 3♣ 3♦ a set: 0
    assert [int(x) for x in re.findall(r'data-points="(\d+)"', page)] == [0, 32, 0]


# --- round entry refusals -------------------------------------------------------------------


def test_a_bad_round_is_refused_whole_with_each_problem_beside_its_player(client):
    keeper, _ = new_game(client)
    seen = version(client, keeper)
    response = save(client, keeper, 1, ["A♥ 2♥ 3♥", "A♠ 2♦", "Zx", "JK 4♣ 4♦"], [0])
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="error-1"[^>]*>Round 1 deals 3 cards; this hand has 2', page)
    assert "&#39;Zx&#39; at position 1 is not a card" in page
    assert "JK is not in this game&#39;s deck: it has no jokers" in page
    assert 'id="error-0"' not in page
    # what was typed stays in the form
    assert 'value="A♠ 2♦"' in page and 'value="JK 4♣ 4♦"' in page
    assert version(client, keeper) == seen
    with client.application.app_context():
        assert db.session.query(Event).count() == 0


def test_cards_the_decks_cannot_hold_across_the_table_are_named_beside_each_holder(client):
    keeper, _ = new_game(client)  # four players: two decks
    response = save(client, keeper, 1, ["A♥ 2♥ 3♥", "K♠ Q♦ 9♣", "K♠ 7♦ 5♣", "K♠ 8♦ 6♣"], [0])
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    for seat in (1, 2, 3):
        assert re.search(rf'id="error-{seat}"[^>]*>K♠ is entered 3 times at this table', page)


def test_a_hand_that_cannot_go_out_is_refused_naming_the_cards(client):
    keeper, _ = new_game(client)
    response = save(client, keeper, 2, ["4♥ 5♠ 6♠ 9♣", 5, 6, 7], [0])
    assert response.status_code == 404  # round 2 is not open before round 1
    response = save(client, keeper, 1, ["5♥ 6♠ 9♣", 5, 6, 7], [0])
    assert response.status_code == 422
    assert re.search(r'id="error-0"[^>]*>5♥ 6♠ 9♣ fit no set or run, so this hand cannot go out', response.get_data(as_text=True))


def test_with_false_out_a_bad_claim_adds_20_to_the_hand(client):
    keeper, _ = new_game(client, false_out=True)
    response = save(client, keeper, 1, ["5♥ 6♠ 9♣", "A♠ A♦ A♣", 6, "K♣ 2♦ 7♥"], [0, 1])
    assert response.status_code == 303
    assert totals(client, keeper) == [20 + 20, 0, 6, 19]  # 5 + 6 + 9 in the hand, plus the false out
    assert "false out" in client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)


def test_a_saved_false_out_shows_its_split_with_the_penalty_and_why(client):
    keeper, _ = new_game(client, false_out=True)
    assert save(client, keeper, 1, ["5♥ 6♠ 9♣", "A♠ A♦ A♣", 6, "K♣ 2♦ 7♥"], [0, 1]).status_code == 303
    page = client.get(f"/three-thirteen/g/{keeper}/round/1").get_data(as_text=True)
    hand = re.search(r'<li class="tt-hand" data-seat="0">.*?</li>', page, re.S).group(0)
    assert 'data-state="false-out"' in hand and 'data-points="40"' in hand
    assert "<b>40 points</b> · 20 in the hand + 20 for the false out · " in hand
    assert "5♥ 6♠ 9♣ fit no set or run" in hand  # why the claim was false
    went_out = re.search(r'<li class="tt-hand" data-seat="1">.*?</li>', page, re.S).group(0)
    assert "for the false out" not in went_out and "every card fits" in went_out


def test_the_sheet_key_and_csv_mark_going_out_and_a_false_out(client):
    keeper, watch = new_game(client, false_out=True)
    assert save(client, keeper, 1, ["5♥ 6♠ 9♣", "A♠ A♦ A♣", 6, "K♣ 2♦ 7♥"], [0, 1]).status_code == 303
    page = client.get(f"/three-thirteen/g/{watch}").get_data(as_text=True)
    key = re.search(r'<p class="muted tt-key">(.*?)</p>', page, re.S).group(1)
    assert "✓ went out" in key and "✗ false out" in key and "20 points added" in key
    rows = list(csv.reader(io.StringIO(client.get(f"/three-thirteen/g/{watch}/sheet.csv").get_data(as_text=True))))
    assert rows[1][4:] == ["40 (false out)", "0 (went out)", "6 (typed)", "19"]


def test_without_the_false_out_rule_the_key_has_no_false_out(client):
    keeper, watch = new_game(client)
    page = client.get(f"/three-thirteen/g/{watch}").get_data(as_text=True)
    assert "✗" not in page


def test_doubled_rounds_count_twice_and_are_marked(client):
    keeper, _ = new_game(client, ["Ann", "Bao"], doubles=True)
    for r in range(1, 9):
        assert save(client, keeper, r, [" ".join(out_hand(r + 2)), 1], [0]).status_code == 303
    # round 9: jacks wild, eleven cards each
    bao = "A♠ 2♦ 3♠ 4♦ 5♠ 6♦ 7♠ 8♦ 9♠ 10♦ K♠"  # 1+2+...+10 + 10 = 65
    assert save(client, keeper, 9, [" ".join(out_hand(11)), bao], [0]).status_code == 303
    assert totals(client, keeper) == [0, 8 + 130]
    assert save(client, keeper, 10, [" ".join(out_hand(12)), 4], [0]).status_code == 303
    assert totals(client, keeper) == [0, 8 + 130 + 8]
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert page.count('class="doubled"') == 2


def test_the_player_who_went_out_must_enter_the_hand_and_someone_must_be_out(client):
    keeper, _ = new_game(client)
    page = save(client, keeper, 1, [0, 5, 6, 7], [0]).get_data(as_text=True)
    assert "enters the hand" in page
    page = save(client, keeper, 1, ["A♥ 2♥ 3♥", 5, 6, 7], []).get_data(as_text=True)
    assert "Mark who went out" in page
    page = save(client, keeper, 1, ["A♥ 2♥ 3♥", "", 6, 7], [0]).get_data(as_text=True)
    assert "or type the points" in page


# --- correcting, undoing, history, CSV ------------------------------------------------------


def test_correct_a_past_round_then_undo_and_the_history_keeps_everything(client):
    keeper, _ = new_game(client)
    for r in (1, 2, 3):
        save(client, keeper, r, *play_round(r)[:2])
    before = totals(client, keeper)
    form = client.get(f"/three-thirteen/g/{keeper}/round/2").get_data(as_text=True)
    assert "Correct this round" in form and 'value="6"' in form  # round 2's typed 6 points are prefilled
    hands, out, _points = play_round(2)
    hands[0] = 25  # Ann typed 6 points in round 2; the correction says 25
    assert save(client, keeper, 2, hands, out).status_code == 303
    after = totals(client, keeper)
    assert after == [before[0] + 19, *before[1:]]
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "Round 2 corrected" in page and "✎" in page
    assert client.post(f"/three-thirteen/g/{keeper}/undo", data={"version": version(client, keeper)}).status_code == 303
    assert totals(client, keeper) == before
    client.post(f"/three-thirteen/g/{keeper}/undo", data={"version": version(client, keeper)})
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "Round 3 of 11" in page
    assert "Undo of change #4" in page and "Undo of change #3" in page
    with client.application.app_context():
        assert [e.kind for e in db.session.query(Event).order_by(Event.seq)] == [
            "round", "round", "round", "correct", "undo", "undo"]


def test_the_sheet_exports_as_csv(client):
    keeper, watch = new_game(client, ["=Ann", "Bao", "Chi", "Dan"])
    for r in (1, 2):
        save(client, keeper, r, *play_round(r)[:2])
    response = client.get(f"/three-thirteen/g/{watch}/sheet.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["round", "cards", "wild", "doubled", "'=Ann", "Bao", "Chi", "Dan"]
    assert rows[1][:4] == ["1", "3", "3", ""]
    assert rows[1][7] == "3 (typed)"
    assert rows[-1] == ["total", "", "", "", *map(str, totals(client, keeper))]


def test_a_new_game_with_the_same_players_and_rules(client):
    keeper, _ = new_game(client, faces="rank", doubles=True)
    response = client.post(f"/three-thirteen/g/{keeper}/again")
    assert response.status_code == 303
    new_token = response.headers["Location"].rsplit("/", 1)[-1]
    assert new_token != keeper
    with client.application.app_context():
        game = db.session.scalar(db.select(Game).where(Game.keeper_token == new_token))
        assert game.player_names == NAMES and game.rules["faces"] == "rank" and game.rules["doubles"] is True


# --- sharing, polling and stale edits ---------------------------------------------------------


def without_switcher(page: str) -> str:
    """The page without the language switcher (a form of every page, which writes no game)."""
    return re.sub(r'<nav class="langs".*?</nav>', "", page, flags=re.S)


def test_the_watch_link_reads_but_can_never_write(client):
    keeper, watch = new_game(client)
    page = without_switcher(client.get(f"/three-thirteen/g/{watch}").get_data(as_text=True))
    assert 'method="post"' not in page and "Enter round" not in page
    assert keeper not in page and watch in page
    round_page = without_switcher(client.get(f"/three-thirteen/g/{watch}/round/1").get_data(as_text=True))
    assert 'method="post"' not in round_page
    assert save(client, watch, 1, *play_round(1)[:2], seen=0).status_code == 403
    assert client.post(f"/three-thirteen/g/{watch}/undo", data={"version": "0"}).status_code == 403
    assert client.post(f"/three-thirteen/g/{watch}/again").status_code == 403
    keeper_page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert keeper in keeper_page and 'class="qr"' in keeper_page  # QR codes
    assert len(keeper) >= 32 and len(watch) >= 32


def test_a_stale_edit_is_refused_with_the_fresh_sheet_and_keeps_what_was_typed(client):
    keeper, _ = new_game(client)
    assert save(client, keeper, 1, *play_round(1)[:2], seen=0).status_code == 303
    mine = ["A♥ 2♥ 3♥", "K♠ 9♦ 5♣", 17, "Q♣ 8♦ 6♥"]
    response = save(client, keeper, 1, mine, [0], seen=0)  # this phone still saw version 0
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "changed on another phone" in page and "The sheet now" in page
    assert 'value="K♠ 9♦ 5♣"' in page and 'value="17"' in page and 'value="Q♣ 8♦ 6♥"' in page
    assert 'name="version" value="1"' in page
    assert totals(client, keeper) == play_round(1)[2]
    with client.application.app_context():
        assert db.session.query(Event).count() == 1
    assert client.post(f"/three-thirteen/g/{keeper}/undo", data={"version": "0"}).status_code == 409


# --- creating a game ------------------------------------------------------------------------


def test_names_are_escaped_and_bounded(client):
    keeper, _ = new_game(client, ["<script>x</script>", "Bao"])
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "<script>x</script>" not in page and "&lt;script&gt;" in page
    for names, needle in ((["Ann"], "2 to 8 players"), (["Ann", "x" * 41], "longer than 40")):
        response = client.post("/three-thirteen/new", data={"names": names, "dealer": "0"})
        assert response.status_code == 422 and needle in response.get_data(as_text=True)
    too_many = client.post("/three-thirteen/new", data={"names": [f"P{i}" for i in range(12)], "dealer": "0"})
    assert too_many.status_code == 422  # every name sent counts: none is dropped silently
    assert "2 to 8 players, not 12" in too_many.get_data(as_text=True)


def test_the_first_dealer_skips_blank_rows_and_decks_follow_the_table(client):
    response = client.post("/three-thirteen/new", data={"names": ["Ann", "", "Chi", "Dan", "Eve", "Fay"], "dealer": "3"})
    keeper = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "Dan deals" in page and "Eve starts" in page
    round_page = client.get(f"/three-thirteen/g/{keeper}/round/1").get_data(as_text=True)
    assert 'data-twins="3"' in round_page  # five players: three decks
    bad = client.post("/three-thirteen/new", data={"names": ["Ann", "", "Chi"], "dealer": "1"})
    assert bad.status_code == 422 and "first dealer" in bad.get_data(as_text=True)


def test_landing_and_rules_pages(client):
    page = client.get("/three-thirteen/").get_data(as_text=True)
    for text in ("New game", "Score a hand", "Rules", "Picture cards", "False out", "Up and back"):
        assert text in page
    rules = client.get("/three-thirteen/rules").get_data(as_text=True)
    assert "kings" in rules and "round 12, 14 cards, aces wild" in rules


def test_unknown_game_link_is_404(client):
    assert client.get("/three-thirteen/g/" + "x" * 32).status_code == 404


# --- the score-a-hand screen ------------------------------------------------------------------


def test_score_screen_draws_the_best_split(client):
    page = client.get("/three-thirteen/score?round=4&players=4&hand=9s+9h+9c+4h+5h+6c").get_data(as_text=True)
    assert "Out: 0 points" in page and "=6♥" in page
    fragment = client.get("/three-thirteen/score?round=1&hand=Kd+4s+Ac", headers={"HX-Request": "true"})
    body = fragment.get_data(as_text=True)
    assert "<html" not in body and "15 points" in body
    wild = client.get("/three-thirteen/score?wild=Q&hand=Qs+3h+4h").get_data(as_text=True)
    assert "queens are wild" in wild and "Out: 0 points" in wild
    short = client.get("/three-thirteen/score?round=4&hand=Kd+4s").get_data(as_text=True)
    assert "Round 4 deals 6 cards; this hand has 2" in short


def test_score_screen_shows_the_hand_size_mistake_as_the_library_says_it(client):
    from referee.three_thirteen import MAX_HAND, HandSizeError

    hand = "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h"
    page = client.get("/three-thirteen/score", query_string={"wild": "Q", "hand": hand}).get_data(as_text=True)
    sentence = str(HandSizeError(hand.split(), None).reason)
    assert sentence == f"A hand holds at most {MAX_HAND} cards; this one has 16." and sentence in page


# --- JSON API -------------------------------------------------------------------------------


def test_api_scores_the_issue_example(client):
    response = client.post(
        "/api/three-thirteen/score",
        json={"hand": "9♠ 9♥ 9♣ 4♥ 5♥ 6♣", "round": 4, "players": 4, "rules": {"faces": "ten"}},
    )
    assert response.status_code == 200
    assert response.get_json() == {
        "cards_dealt": 6, "wild_rank": "6", "deadwood": 0, "score": 0,
        "melds": [{"kind": "set", "cards": ["9♠", "9♥", "9♣"]},
                  {"kind": "run", "cards": ["4♥", "5♥", "6♣"], "wild": {"6♣": "6♥"}}],
        "leftover": [],
    }


def test_api_counts_deadwood_and_doubles(client):
    body = client.post("/api/three-thirteen/score", json={
        "hand": "Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 3c", "round": 9, "rules": {"doubles": True}}).get_json()
    assert body["deadwood"] == 38 and body["score"] == 76 and body["wild_rank"] == "J"
    assert body["leftover"] == ["K♦", "4♠", "A♣", "2♥", "7♣", "8♦", "3♦", "3♣"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"hand": "9s 9h 9c 4h 5h", "round": 4}, "Round 4 deals 6 cards; this hand has 5."),
        ({"hand": "9s 9s 9s", "round": 1}, "9♠ appears 3 times"),
        ({"hand": "9s 9s 9h", "round": 1, "players": 2}, "one deck holds it only once"),
        ({"hand": "JK 9s 9h", "round": 1}, "JK is not in this game's deck"),
        ({"hand": "9s 9x 9h", "round": 1}, "'9x' at position 2 is not a card"),
        ({"hand": "9s 9c 9h", "round": 1, "rules": {"fases": "rank"}}, "unknown house rule 'fases'"),
        ({"hand": "9s 9c 9h", "round": 12}, "there is no round 12"),
        ({"hand": "9s 9c 9h", "round": 0}, "there is no round 0"),
        ({"hand": "9s 9c 9h", "round": "1"}, "'round' must be a whole number"),
        ({"hand": "9s 9c 9h", "round": True}, "'round' must be a whole number"),
        ({"hand": 9, "round": 1}, "'hand' must be a string"),
        ({"hand": "9s 9c 9h", "round": 1, "players": "4"}, "'players' must be a whole number"),
        ({"hand": "9s 9c 9h", "round": 1, "players": 9}, "'players' must be a whole number"),
        ({"hand": "9s 9c 9h", "round": 1, "rules": ["faces"]}, "'rules' must be an object"),
        ({"hand": "9s 9c 9h", "round": 1, "rules": {"decks": "two"}}, "'decks' takes a whole number"),
        ({"round": 1}, "'hand' is missing"),
        ({"hand": "9s 9c 9h", "round": 1, "extra": 1}, "unknown field 'extra'"),
    ],
)
def test_api_names_each_problem(api_error, body, needle):
    assert needle in api_error("/api/three-thirteen/score", json=body)


def test_api_longer_game_and_fixed_decks(client):
    ok = client.post("/api/three-thirteen/score", json={
        "hand": "As " * 2 + "2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", "round": 12,
        "players": 2, "rules": {"longer_game": True, "decks": 2}}).get_json()
    assert ok["cards_dealt"] == 14 and ok["wild_rank"] == "A" and ok["score"] == 0


def test_api_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    op = doc["paths"]["/api/three-thirteen/score"]["post"]
    assert "400" in op["responses"] and "round" in op["requestBody"]["content"]["application/json"]["schema"]["properties"]


# --- two keepers at once, on SQLite and PostgreSQL ----------------------------------------------


def test_two_keepers_saving_the_same_round_at_once_cannot_both_win(any_db_app):
    client = any_db_app.test_client()
    keeper, _ = new_game(client)
    hands, out, _ = play_round(1)
    results: list[int] = []
    barrier = threading.Barrier(4)

    def keeper_phone(n: int) -> None:
        phone = any_db_app.test_client()
        mine = list(hands)
        mine[2] = n + 1
        data = {"version": "0", "out": [str(s) for s in out]}
        for seat, hand in enumerate(mine):
            data[f"cards_{seat}"] = hand if isinstance(hand, str) else ""
            data[f"points_{seat}"] = str(hand) if isinstance(hand, int) else ""
        barrier.wait()
        results.append(phone.post(f"/three-thirteen/g/{keeper}/round/1", data=data).status_code)

    threads = [threading.Thread(target=keeper_phone, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [303, 409, 409, 409]
    with any_db_app.app_context():
        assert db.session.query(Event).count() == 1
        game = db.session.scalar(db.select(Game).where(Game.keeper_token == keeper))
        assert game.version == 1


def test_equal_lowest_totals_share_the_win_and_the_chart_draws_every_player(client):
    keeper, _ = new_game(client, ["Ann", "Bao", "Chi"])
    for r in range(1, 11):  # Ann goes out every round; Bao counts 1 in odd rounds, 0 in even ones
        hands = [" ".join(out_hand(r + 2)), r % 2, 7]
        assert save(client, keeper, r, hands, [0]).status_code == 303
    page = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "share the win" not in page and "wins with" not in page  # one round to go
    # The last round: Bao goes out and Ann counts 5, so both end on 5.
    assert save(client, keeper, 11, [5, " ".join(out_hand(13)), 7], [1]).status_code == 303
    assert totals(client, keeper) == [5, 5, 77]
    sheet = client.get(f"/three-thirteen/g/{keeper}").get_data(as_text=True)
    assert "share the win with 5 points" in sheet
    assert "Ann &amp; Bao" in sheet
    chart = sheet[sheet.index('aria-label="Running totals by round"'):]
    chart = chart[: chart.index("</svg>")]
    assert chart.count("<polyline") == 3
    for name, total in (("Ann", 5), ("Bao", 5), ("Chi", 77)):
        assert f"<title>{name}: {total}</title>" in chart


def test_a_false_out_is_marked_false_on_the_saved_hands_not_went_out(client):
    keeper, _ = new_game(client, false_out=True)
    assert save(client, keeper, 1, ["5♥ 6♠ 9♣", "A♠ A♦ A♣", 6, "K♣ 2♦ 7♥"], [0, 1]).status_code == 303
    page = client.get(f"/three-thirteen/g/{keeper}/round/1").get_data(as_text=True)
    hands = re.findall(r'<li class="tt-hand" data-seat="(\d)">\s*<h3>(.*?)</h3>', page, re.S)
    marks = {int(seat): re.findall(r'data-state="([a-z-]+)"', h3) for seat, h3 in hands}
    assert marks[0] == ["false-out"] and marks[1] == ["went-out"] and marks[2] == [] and marks[3] == []
