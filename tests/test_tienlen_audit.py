"""Tiến lên audit: boundary probes of the referee against RULES.md, one rule per test.

Each test names the rule it checks; the ones marked "was" pin a bug the audit
found (the wrong answer is quoted in the comment).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from referee.tienlen import (
    Hand,
    IllegalPlayError,
    NotACombinationError,
    Setup,
    TienLenRules,
    check,
    classify,
    replay,
)
from tests.tienlen_hands import two_over_bao_who_passed

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ana", "Bao", "Chi", "Dung")
TWOS_IN_SEQ = TienLenRules(twos_in_sequences=True)
ALL_BOMB_SWITCHES = TienLenRules(quad_beats_pair_of_twos=True, quad_beats_three_pairs=True, four_pairs_beat_quad=True)

QUAD = "9s 9c 9d 9h"
DSEQ3 = "3s 3h 4s 4h 5s 5h"
DSEQ4 = "6s 6h 7s 7h 8s 8h 9s 9h"
DSEQ5 = "6s 6h 7s 7h 8s 8h 9s 9h 10s 10h"


def reason(play: str, table: str = "", rules: TienLenRules | None = None, **kw: bool) -> str:
    return str(check(play, table, rules, **kw).reason)


def why_not(cards: str, rules: TienLenRules | None = None) -> str:
    with pytest.raises(NotACombinationError) as info:
        classify(cards, rules)
    return str(info.value.why)


def hand(players: int = 4, **kw: object) -> Hand:
    size = kw.pop("hand_size", 13)
    leader = kw.pop("leader", 0)
    opening = kw.pop("opening", False)
    return Hand(Setup(PLAYERS[:players], TienLenRules(**kw), leader, opening, size))  # type: ignore[arg-type]


# -- sequences at their boundaries ------------------------------------------------------------


def test_the_longest_sequence_is_three_to_ace():
    assert classify("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As").length == 12
    assert why_not("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s") == "a 2 can never be part of a sequence"


def test_a_sequence_may_end_at_the_ace():
    assert classify("Qs Kh Ad").top.rank.symbol == "A"


def test_twos_in_sequences_a_two_ends_a_sequence_but_never_wraps():
    assert classify("Ks As 2s", TWOS_IN_SEQ).length == 3
    assert why_not("As 2s 3s", TWOS_IN_SEQ) == "a sequence cannot wrap round from 2 to 3"
    assert why_not("As 2s 3s") == "a 2 can never be part of a sequence"


def test_twos_in_sequences_sequences_ending_in_two_compare_by_the_two_suit():
    assert not check("Js Qs Ks As 2s", "Jh Qh Kh Ah 2h", TWOS_IN_SEQ).legal
    assert check("Jh Qh Kh Ah 2h", "Js Qs Ks As 2s", TWOS_IN_SEQ).legal


def test_a_sequence_ending_in_two_is_not_a_two_and_does_not_bomb_or_fear_bombs():
    assert not check("Qs Ks As 2s", "2h", TWOS_IN_SEQ).legal
    assert reason(QUAD, "Qh Kh Ah 2h", TWOS_IN_SEQ) == "a sequence must be beaten by a sequence"


def test_a_sequence_with_a_rank_twice_names_the_repeated_rank():
    # was: "rank 3 is not paired: a double sequence needs two cards of every rank" for 3 4 5 5,
    # which sends a player who meant a sequence after the wrong kind.
    assert why_not("3s 4s 5s 5h") == "rank 5 is there twice: a sequence needs one card of each rank"
    assert why_not("3s 4s 5s 5h 6s") == "rank 5 is there twice: a sequence needs one card of each rank"
    assert why_not("Ks As 2s 2h") == "a 2 can never be part of a sequence"


# -- double sequences -------------------------------------------------------------------------


def test_a_double_sequence_with_an_unpaired_rank_names_it():
    assert why_not("3s 3h 4s 4h 5s") == "rank 5 is not paired: a double sequence needs two cards of every rank"
    assert why_not("3s 3c 4d 4h 5s 6c") == "rank 5 is not paired: a double sequence needs two cards of every rank"


def test_a_two_in_a_would_be_double_sequence_is_named_as_the_fault():
    # was: "rank 2 is not paired ..." for K K A A 2, though pairing the 2 would not help.
    assert why_not("Ks Kh As Ah 2s") == "a 2 can never be part of a double sequence"
    assert why_not("Ks Kh As Ah 2s 2h", TWOS_IN_SEQ) == "a 2 can never be part of a double sequence"


def test_the_longest_double_sequence_is_three_to_ace():
    cards = " ".join(f"{r}s {r}h" for r in "3 4 5 6 7 8 9 10 J Q K A".split())
    assert classify(cards).pairs == 12


# -- the ordinary rule: same kind, same size, higher highest card -----------------------------


def test_a_combination_is_beaten_by_its_highest_card_and_the_sentence_says_so():
    # was: "6♠ is lower than 7♣" for 4-5-6 on 5-6-7, which does not say why the tops are compared.
    assert reason("4s 5s 6s", "5h 6h 7c") == "the highest card decides: 6♠ is lower than 7♣"
    assert reason("♣5♥6♦7", "♦5♦6♣7") == "the highest card decides: 7♦ is higher than 7♣"
    assert reason("10s 10c 10d 10h", QUAD) == "the highest card decides: 10♥ is higher than 9♥"


def test_a_single_is_compared_card_to_card():
    assert reason("8s", "8h") == "8♠ is lower than 8♥"
    assert reason("3s", "2h") == "3♠ is lower than 2♥"


def test_equal_ranks_are_decided_by_the_suit_of_the_highest_card():
    assert check("3s 3h 4s 4h 5s 5h", "3c 3d 4c 4d 5c 5d").legal
    assert not check("3c 3d 4c 4d 5c 5d", "3s 3h 4s 4h 5s 5h").legal


def test_triples_compare_by_rank():
    assert check("6s 6h 6d", "5s 5h 5c").legal and not check("5s 5h 5c", "6s 6h 6d").legal


# -- bombs: every row of the table and its neighbours -----------------------------------------


@pytest.mark.parametrize("play", [QUAD, DSEQ3, DSEQ4, DSEQ5])
def test_a_single_two_is_bombed_by_a_quad_or_a_double_sequence_of_three_or_more_pairs(play):
    verdict = check(play, "2h")
    assert verdict.legal and verdict.bomb


@pytest.mark.parametrize("play", ["As Ah", "Ks Kc Kd", "3s 4s 5s", "Qs Ks As 2s"])
def test_a_single_two_is_not_beaten_by_other_kinds(play):
    rules = TWOS_IN_SEQ if "2" in play else None
    assert not check(play, "2h", rules).legal


def test_a_pair_of_twos_refuses_three_pairs_and_takes_four():
    assert reason(DSEQ3, "2s 2h") == "a pair of 2s is beaten only by a double sequence of 4 or more pairs, not 3"
    assert check(DSEQ4, "2s 2h").bomb and check(DSEQ5, "2s 2h").bomb


def test_a_pair_of_twos_refuses_a_quad_unless_quad_beats_pair_of_twos():
    assert not check(QUAD, "2s 2h").legal
    assert check(QUAD, "2s 2h", TienLenRules(quad_beats_pair_of_twos=True)).bomb


def test_the_pair_of_twos_refusal_names_the_quad_when_quad_beats_pair_of_twos_is_on():
    # was: "... only by a higher pair of 2s or a double sequence of 4 or more pairs" with the switch on,
    # which is false: a four of a kind beats it too.
    rules = TienLenRules(quad_beats_pair_of_twos=True)
    assert reason("As Ah Ad", "2s 2h", rules) == (
        "a pair of 2s is beaten only by a higher pair of 2s, four of a kind "
        "or a double sequence of 4 or more pairs"
    )


@pytest.mark.parametrize("play", [QUAD, DSEQ3, DSEQ4])
def test_three_twos_need_a_double_sequence_of_five_pairs(play):
    for rules in (None, ALL_BOMB_SWITCHES):
        assert not check(play, "2s 2c 2h", rules).legal
    assert check(DSEQ5, "2s 2c 2h").bomb


def test_nothing_beats_four_twos_not_even_with_every_switch():
    for play in (DSEQ5, "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h"):
        assert reason(play, "2s 2c 2d 2h", ALL_BOMB_SWITCHES) == "nothing beats four 2s"


def test_four_twos_beat_a_lower_four_of_a_kind_by_the_ordinary_rule():
    verdict = check("2s 2c 2d 2h", "Ks Kc Kd Kh")
    assert verdict.legal and not verdict.bomb


@pytest.mark.parametrize("table", ["Ah", "As Ah", "Ks Kc Kd", "10c Jc Qc"])
def test_bombs_only_beat_twos_not_other_combinations(table):
    for play in (QUAD, DSEQ3, DSEQ4):
        assert not check(play, table, ALL_BOMB_SWITCHES).legal


def test_a_quad_on_a_quad_needs_a_higher_rank():
    assert check("10s 10c 10d 10h", QUAD).legal and not check("8s 8c 8d 8h", QUAD).legal


def test_a_double_sequence_bomb_is_beaten_only_by_the_same_number_of_pairs():
    assert check("4c 4d 5c 5d 6s 6h", DSEQ3).legal
    assert not check("7s 7h 8s 8h 9s 9h 10s 10h", DSEQ3).legal
    assert not check(DSEQ5, "3c 3d 4c 4d 5c 5d 6c 6d").legal


def test_quad_and_double_sequence_do_not_beat_each_other_by_default():
    assert not check(QUAD, DSEQ3).legal and not check(DSEQ4, "Js Jc Jd Jh").legal


def test_quad_beats_three_pairs_only_three_pairs():
    rules = TienLenRules(quad_beats_three_pairs=True)
    assert check(QUAD, DSEQ3, rules).bomb
    assert not check(QUAD, "3s 3h 4s 4h 5s 5h 6s 6h", rules).legal


def test_four_pairs_beat_quad_four_or_more_pairs_not_three():
    rules = TienLenRules(four_pairs_beat_quad=True)
    assert check(DSEQ4, "Js Jc Jd Jh", rules).bomb and check(DSEQ5, "Js Jc Jd Jh", rules).bomb
    assert not check(DSEQ3, "Js Jc Jd Jh", rules).legal


def test_a_refusal_on_a_quad_names_the_double_sequence_when_four_pairs_beat_quad_is_on():
    # was: "four of a kind must be beaten by a higher four of a kind" with the switch on.
    rules = TienLenRules(four_pairs_beat_quad=True)
    assert reason("As", QUAD, rules) == (
        "four of a kind is beaten only by a higher four of a kind or a double sequence "
        "of 4 or more pairs"
    )
    assert reason("As", QUAD) == "four of a kind must be beaten by a higher four of a kind"


def test_a_refusal_on_three_pairs_names_the_quad_when_quad_beats_three_pairs_is_on():
    # was: "a double sequence must be beaten by a double sequence" with the switch on.
    rules = TienLenRules(quad_beats_three_pairs=True)
    assert reason("As", DSEQ3, rules) == (
        "a double sequence of 3 pairs is beaten only by a higher double sequence of 3 pairs "
        "or four of a kind"
    )
    assert reason("As", DSEQ4, rules) == "a double sequence must be beaten by a double sequence"


# -- the opening rule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first_lead", "play", "legal"),
    [
        ("contains_3s", "3s", True),
        ("contains_3s", "3s 4h 5c", True),
        ("contains_3s", "3s 3h 3c 3d", True),
        ("contains_3s", "3h 4h 5h", False),
        ("three_spades_alone", "3s", True),
        ("three_spades_alone", "3s 3h", False),
        ("any", "Ks Kh", True),
    ],
)
def test_the_opening_rule_has_three_choices(first_lead, play, legal):
    assert check(play, rules=TienLenRules(first_lead=first_lead), first_play=True).legal is legal


def test_the_opening_rule_binds_only_the_first_hand_of_a_game():
    later = hand(opening=False)
    assert later.can_play(0, "Ks Kh")
    first = hand(opening=True, leader=2)
    assert not first.can_play(2, "Ks Kh") and first.can_play(2, "3s 3h")


# -- turns, passes, the lock and the clearing with 2, 3 and 4 players -------------------------


def test_two_players_the_table_clears_when_the_other_passes():
    h = hand(2)
    h.play(0, "5s")
    h.play(1, "6s")
    assert h.pass_(0).cleared and h.turn == 1 and h.table is None


def test_three_players_a_locked_player_is_skipped_and_the_last_player_leads():
    h = hand(3)
    h.play(0, "5s")
    h.pass_(1)
    h.play(2, "6s")
    assert h.turn == 0  # Bao is locked
    assert h.pass_(0).cleared and h.turn == 2


def test_four_players_the_table_clears_only_after_everyone_else_passed_since_the_last_play():
    h = hand(4)
    h.play(0, "5s")
    h.play(1, "6s")
    h.pass_(2)
    h.pass_(3)
    h.play(0, "7s")
    assert h.turn == 1  # Chi and Dung are locked; Bao has not passed
    assert h.pass_(1).cleared and h.turn == 0


def test_a_play_on_locked_players_only_hands_the_lead_back():
    h = hand(3)
    h.play(0, "5s")
    h.pass_(1)
    h.play(2, "6s")
    h.pass_(0)
    assert h.table is None and h.turn == 2


# -- bomb_after_pass --------------------------------------------------------------------------


def _bombed_after_pass() -> Hand:
    h = two_over_bao_who_passed()
    h.play(1, "5s 5c 5d 5h")  # Bao passed, then bombs the 2
    return h


def test_bomb_after_pass_a_player_who_bombs_is_back_in_the_trick():
    # was: Bao stayed locked, so Chi's counter-bomb cleared the table at once and Bao never
    # got to answer it; the table also showed Bao as "passed" while Bao held the table.
    h = _bombed_after_pass()
    assert 1 not in h.locked and h.to_dict()["passed"] == [0, 3]
    h.play(2, "6s 6c 6d 6h")  # Chi, who played the 2, answers with a higher four of a kind
    assert h.table is not None and h.turn == 1
    assert h.pass_(1).cleared and h.turn == 2


def test_bomb_after_pass_locked_players_get_no_turn_once_the_two_is_bombed():
    h = _bombed_after_pass()
    assert h.turn == 2 and h.waiting == {2}


def test_bomb_after_pass_a_passed_player_may_not_beat_a_two_with_a_higher_two():
    h = two_over_bao_who_passed()
    with pytest.raises(IllegalPlayError, match="may only bomb the 2s"):
        h.play(1, "2h")


def test_bomb_after_pass_replays_the_same():
    h = _bombed_after_pass()
    h.play(2, "6s 6c 6d 6h")
    again = replay(h.setup, [a.to_dict() for a in h.log])
    assert again.to_dict() == h.to_dict() and again.locked == h.locked


# -- going out and play_on --------------------------------------------------------------------


def test_play_on_the_next_player_after_the_one_who_went_out_leads_when_their_play_stands():
    h = hand(4, hand_size=2, play_on=True)
    h.play(0, "5s")
    h.pass_(1)
    h.play(2, "6s")
    h.pass_(3)
    assert h.play(0, "7s").went_out  # Ana is out; Bao and Dung are locked
    assert h.turn == 2
    assert h.pass_(2).cleared and h.turn == 1  # the next player still in after Ana


def test_play_on_when_the_last_play_is_beaten_its_player_leads_as_usual():
    h = hand(4, hand_size=3, play_on=True)
    h.play(0, "5s")
    for seat in (1, 2, 3):
        h.pass_(seat)
    assert h.play(0, "6s 6h").went_out
    h.play(1, "7s 7h")  # Bao beats Ana's last play and stays in
    h.pass_(2)
    assert h.pass_(3).cleared and h.turn == 1


def test_play_on_ends_when_one_player_is_left_and_ranks_everyone():
    h = hand(3, hand_size=1, play_on=True)
    h.play(0, "5s")
    h.play(1, "6s")
    assert h.over and h.finishing_order == (0, 1, 2) and h.winner == 0


def test_without_play_on_the_hand_ends_with_the_first_player_out():
    h = hand(3, hand_size=1)
    h.play(0, "5s")
    assert h.over and h.finishing_order == (0,)


# -- refusals of the state machine ------------------------------------------------------------


def test_too_many_cards_says_card_in_the_singular_for_one():
    # was: "Ana has only 1 cards left".
    h = hand(hand_size=1)
    assert str(h.refusal_to_play(0, "3s 4s 5s")) == "Ana has only 1 card left"
    assert str(hand(hand_size=2).refusal_to_play(0, "3s 4s 5s")) == "Ana has only 2 cards left"


# -- instant wins -----------------------------------------------------------------------------


def test_instant_wins_dragon_needs_every_rank_three_to_ace():
    h = hand(instant_wins=True)
    assert not h.can_declare_instant_win(0, "dragon", "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks 2s 2h")
    assert h.can_declare_instant_win(0, "dragon", "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 3h")


def test_instant_wins_six_pairs_needs_six():
    h = hand(instant_wins=True)
    assert not h.can_declare_instant_win(0, "six_pairs", "3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Qh 2h")


# -- every sentence is extracted for translators ----------------------------------------------


def test_every_referee_sentence_is_in_the_translation_catalogue(tmp_path):
    # was: the "not a combination" reasons and the "must be beaten by" sentences were built from
    # plain strings, so pybabel (which extracts message("...") calls) never saw them.
    out = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "message",
         "-o", str(out), *(p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "referee/tienlen").glob("*.py")))],
        cwd=ROOT, check=True, capture_output=True,
    )
    catalogue = out.read_text(encoding="utf-8").replace('"\n"', "")
    probes = [
        ("4s 6h", ""), ("4s 5h", ""), ("3s 4s 5s 5h", ""), ("3s 3h 4s", ""), ("3s 3h 3c 4s", ""),
        ("4s 5s 7s", ""), ("3s 3h 4s 4h", ""), ("As 2s 3s", ""), ("Ks Kh As Ah 2s 2h", ""),
        ("3s 3h", "9h"), ("3s", "9h 9s"), ("As Ac", "9h 9s 9d"), ("4s", QUAD), ("Ks", "3s 4s 5s"),
        ("Ks", DSEQ3), ("8s", "8h"), ("4s 5s 6s", "5h 6h 7c"), (QUAD, "2h"), ("As Ah", "2h"),
        (DSEQ3, "2s 2h"), (QUAD, "2s 2h"), ("As Ad Ac", "2s 2h"), (DSEQ4, "2s 2c 2h"), ("As", "2s 2c 2d 2h"),
    ]
    for play, table in probes:
        template = check(play, table).reason.template
        assert f'msgid "{template}"' in catalogue, template


# -- a refusal names a switch only when turning it on would make the play legal -----------------

SWITCH_IDS = ("quad_beats_pair_of_twos", "quad_beats_three_pairs", "four_pairs_beat_quad", "instant_wins")


@pytest.mark.parametrize(
    ("play", "table"),
    [
        (QUAD, "3s 3h 4s 4h 5s 5h 6s 6h"),  # 9999 on 33 44 55 66: the switch is for 3 pairs only
        (DSEQ3, QUAD),  # 33 44 55 on 9999: the switch is for 4 or more pairs
        (QUAD, "2s 2c 2h"),
        (DSEQ4, "2s 2c 2h"),
        ("As Ah Ad", "2s 2h"),
        ("As", QUAD),
        ("As", DSEQ3),
    ],
)
def test_a_refusal_that_no_switch_can_lift_names_no_switch(play, table):
    for rules in (None, ALL_BOMB_SWITCHES):
        verdict = check(play, table, rules)
        assert not verdict.legal
        text = str(verdict.reason)
        assert "house rule" not in text, text
        assert not any(sid in text for sid in SWITCH_IDS), text


@pytest.mark.parametrize(
    ("play", "table", "switch", "name"),
    [
        (QUAD, "2s 2h", "quad_beats_pair_of_twos", "Four of a kind on a pair of 2s"),
        (QUAD, DSEQ3, "quad_beats_three_pairs", "Four of a kind on three pairs"),
        (DSEQ4, "Js Jc Jd Jh", "four_pairs_beat_quad", "Four pairs on four of a kind"),
    ],
)
def test_a_refusal_that_a_switch_would_lift_names_it_as_on_screen_and_the_switch_does_lift_it(
    play, table, switch, name
):
    refused = check(play, table)
    assert not refused.legal
    assert f"house rule “{name}”" in str(refused.reason)
    assert switch not in str(refused.reason)
    allowed = check(play, table, TienLenRules(**{switch: True}))
    assert allowed.legal and allowed.bomb
    assert f"house rule “{name}”" in str(allowed.reason)


def test_switch_names_in_sentences_are_the_names_on_screen(app):
    from referee.tienlen import SWITCH_NAMES
    from referee.web.games.tienlen.check import switch_specs

    with app.test_request_context():
        labels = {spec.id: spec.label for spec in switch_specs()}
    assert labels == {sid: str(name) for sid, name in SWITCH_NAMES.items()}
    assert set(SWITCH_NAMES) == {f.name for f in dataclasses.fields(TienLenRules)}
