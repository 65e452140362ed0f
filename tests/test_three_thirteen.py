"""Three Thirteen rules: one test per rule of RULES.md and the seed's worked examples."""

from __future__ import annotations

import pytest

from referee.cards import JOKER, Card, Rank, TooManyCopiesError, parse_cards
from referee.switches import SwitchError, rules_from_mapping
from referee.three_thirteen import (
    HandSizeError,
    ImpossibleHandError,
    RoundNumberError,
    Schedule,
    ThreeThirteenRules,
    best_split,
    can_go_out,
    card_points,
    check_out,
    decks_for,
    go_out,
    score_round,
    split_hand,
)
from tests.reference_three_thirteen import split_problems

DEFAULT = ThreeThirteenRules()
HIGH = ThreeThirteenRules(aces="high_or_low")
JOKERS = ThreeThirteenRules(jokers=True)


def split(text: str, wild: int, rules: ThreeThirteenRules = DEFAULT, decks: int = 1):
    hand = parse_cards(text)
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules) == []
    return result


def melds(result) -> list[str]:
    return [str(m) for m in result.melds]


# --- house rules -------------------------------------------------------------


def test_rules_default_to_the_sheet():
    r = ThreeThirteenRules()
    assert (r.faces, r.decks, r.aces, r.jokers) == ("ten", None, "low", False)
    assert not (r.longer_game or r.up_and_back or r.doubles or r.false_out)


def test_rules_are_built_from_switch_ids():
    r = rules_from_mapping(ThreeThirteenRules, {"faces": "rank", "aces": "high_or_low", "doubles": "on"})
    assert (r.faces, r.aces, r.doubles) == ("rank", "high_or_low", True)


@pytest.mark.parametrize(
    "mapping", [{"faces": "court"}, {"aces": "high"}, {"decks": 0}, {"decks": "nine"}, {"jokers": "maybe"}]
)
def test_bad_switch_values_are_refused(mapping):
    with pytest.raises(SwitchError):
        rules_from_mapping(ThreeThirteenRules, mapping)


# --- schedule ------------------------------------------------------------------


def test_eleven_rounds_deal_three_to_thirteen_and_the_number_dealt_is_wild():
    s = Schedule()
    assert s.rounds == 11
    assert [s.cards_dealt(r) for r in range(1, 12)] == list(range(3, 14))
    assert [s.wild_rank(r) for r in range(1, 12)] == [Rank(n) for n in range(3, 14)]
    assert s.wild_rank(9) == Rank.JACK and s.wild_rank(10) == Rank.QUEEN and s.wild_rank(11) == Rank.KING


def test_longer_game_adds_fourteen_with_aces_wild_and_fifteen_with_twos_wild():
    s = Schedule(ThreeThirteenRules(longer_game=True))
    assert s.rounds == 13
    assert (s.cards_dealt(12), s.wild_rank(12)) == (14, Rank.ACE)
    assert (s.cards_dealt(13), s.wild_rank(13)) == (15, Rank.TWO)


def test_up_and_back_deals_thirteen_twice_in_a_row():
    s = Schedule(ThreeThirteenRules(up_and_back=True))
    assert s.rounds == 22
    assert s.deals == tuple(range(3, 14)) + tuple(range(13, 2, -1))
    assert s.cards_dealt(11) == s.cards_dealt(12) == 13


def test_longer_game_up_and_back_goes_up_to_fifteen_and_back():
    s = Schedule(ThreeThirteenRules(up_and_back=True, longer_game=True))
    assert s.rounds == 26 and max(s.deals) == 15


def test_doubles_count_in_the_jack_queen_and_king_rounds():
    assert [r for r in range(1, 12) if Schedule(ThreeThirteenRules(doubles=True)).is_doubled(r)] == [9, 10, 11]
    s = Schedule(ThreeThirteenRules(doubles=True, up_and_back=True))
    assert [r for r in range(1, 23) if s.is_doubled(r)] == [9, 10, 11, 12, 13, 14]
    assert not any(Schedule().is_doubled(r) for r in range(1, 12))


def test_there_is_no_round_zero_or_twelve():
    with pytest.raises(RoundNumberError):
        Schedule().cards_dealt(0)
    with pytest.raises(RoundNumberError):
        Schedule().wild_rank(12)


def test_the_deal_passes_left_and_the_player_left_of_the_dealer_starts():
    s = Schedule()
    assert [s.dealer(r, first_dealer=1, players=4) for r in range(1, 6)] == [1, 2, 3, 0, 1]
    assert [s.starter(r, first_dealer=1, players=4) for r in range(1, 6)] == [2, 3, 0, 1, 2]


def test_decks_follow_the_number_of_players():
    assert [decks_for(n) for n in (2, 3, 4, 5, 6, 7, 8, 9)] == [1, 2, 2, 3, 3, 4, 4, 5]
    assert decks_for(2, ThreeThirteenRules(decks=2)) == 2
    with pytest.raises(ValueError):
        decks_for(1)


# --- points ---------------------------------------------------------------------


def test_card_points_ace_one_numbers_face_pictures_ten():
    assert [card_points(c) for c in parse_cards("As 2s 9d 10c Jh Qh Kh")] == [1, 2, 9, 10, 10, 10, 10]


def test_faces_rank_counts_jack_queen_king_eleven_twelve_thirteen():
    rules = ThreeThirteenRules(faces="rank")
    assert [card_points(c, rules) for c in parse_cards("Jh Qh Kh")] == [11, 12, 13]


def test_seed_example_king_four_ace_left_over():
    assert split("Kd 4s Ac", 3).points == 15
    assert split("Kd 4s Ac", 3, ThreeThirteenRules(faces="rank")).points == 18


def test_ace_left_over_costs_fifteen_with_aces_high_or_low():
    assert split("As 7d 10c", 3, HIGH).points == 32


def test_joker_left_over_costs_twenty():
    assert card_points(JOKER) == 20


def test_wild_card_left_over_counts_its_usual_value():
    # 3s wild, no meld possible: the 3 counts 3.
    assert split("3s 9d", 3).points == 12  # two cards: no meld (not a real round)
    assert split("Ks 3h 9d", 3).points == 22


# --- melds ----------------------------------------------------------------------


def test_seed_example_round_four_set_and_run_with_a_wild_six():
    result = split("9s 9h 9c 4h 5h 6c", 6)
    assert result.is_out
    assert melds(result) == ["4♥ 5♥ 6♣(6♥)", "9♠ 9♣ 9♥"]
    run = result.melds[0]
    assert run.stand_ins == ((Card.parse("6c"), Card.parse("6h")),)


def test_set_of_three_or_more_of_a_rank():
    assert split("7s 7h 7d", 3).is_out
    assert split("7s 7h 7d 7c 2h", 3).points == 2


def test_run_of_three_or_more_in_one_suit():
    assert split("4h 5h 6h", 9).is_out
    assert split("8s 9s 10s Js Qs", 3).is_out


def test_mixed_suits_are_no_run():
    assert split("4h 5s 6h", 9).points == 15


def test_cards_of_one_suit_out_of_order_are_no_run():
    assert split("2c 6c 9c", 3).points == 17


def test_aces_are_low_a_2_3_is_a_run_q_k_a_is_not():
    assert split("Ah 2h 3h", 9).is_out
    assert split("Qh Kh Ah", 9).points == 21


def test_nothing_wraps():
    assert split("Kh Ah 2h", 9).points == 13
    assert split("Kh Ah 2h", 9, HIGH).points == 27


def test_aces_high_or_low_makes_q_k_a_a_run():
    assert split("Qh Kh Ah", 9, HIGH).is_out
    assert split("Ah 2h 3h", 9, HIGH).is_out


def test_twin_cards_make_a_set_with_two_decks():
    assert split("9h 9h 9s", 3, decks=2).is_out


def test_a_run_needs_each_rank_once():
    result = split("4h 5h 5h 6h", 9, decks=2)
    assert result.points == 5 and melds(result) == ["4♥ 5♥ 6♥"]


def test_twin_runs_with_two_decks():
    assert split("4h 5h 6h 4h 5h 6h", 9, decks=2).is_out


def test_wild_card_fills_a_gap_in_any_suit():
    result = split("4h 6h 5c", 5)
    assert result.is_out and melds(result) == ["4♥ 5♣(5♥) 6♥"]


def test_wild_card_extends_a_run():
    result = split("8d 9d 3s", 3)
    assert result.is_out and len(result.melds[0]) == 3


def test_several_wild_cards_in_one_meld():
    assert split("9d 7s 7h", 7).is_out
    result = split("2c 7h 7s 7d 5c", 7)
    assert result.is_out and len(result.melds) == 1


def test_an_all_wild_meld():
    result = split("7s 7h 7d", 7)
    assert result.is_out and result.melds[0].kind == "set"
    assert split("JK JK JK", 3, JOKERS, decks=2).is_out


def test_one_card_one_job():
    # 5 6 7 of spades with two more 6s: a run or a set, not both.
    result = split("5s 6s 7s 6h 6d", 13)
    assert result.points == 12 and len(result.melds) == 1


def test_spare_wild_cards_join_a_meld_instead_of_counting():
    result = split("9s 9h 9c 4s 4h", 4)
    assert result.is_out


def test_jokers_are_wild_every_round():
    assert split("4h JK 6h", 9, JOKERS, decks=1).is_out
    assert split("Kh JK", 9, JOKERS).points == 30  # two cards: nothing to meld


def test_a_lone_wild_card_with_no_meld_counts():
    assert split("Ks Qd 9h 3c", 3).points == 32


# --- validation -------------------------------------------------------------------


def test_hand_size_must_match_the_round():
    with pytest.raises(HandSizeError, match="Round 4 deals 6 cards; this hand has 5."):
        split_hand("9s 9h 9c 4h 5h", 4, players=2)


def test_a_second_copy_needs_a_second_deck():
    with pytest.raises(TooManyCopiesError):
        split_hand("9s 9s 4d", 1, players=2)
    assert split_hand("9s 9s 4d", 1, players=3).points == 22


def test_jokers_are_refused_when_off():
    with pytest.raises(TooManyCopiesError):
        split_hand("JK 4d 5d", 1, players=2)
    assert split_hand("JK 4d 5d", 1, JOKERS, players=2).is_out


def test_too_many_jokers_are_refused():
    with pytest.raises(TooManyCopiesError):
        best_split(parse_cards("JK JK JK"), 3, JOKERS, decks=1)


# --- going out and scoring ----------------------------------------------------------


def test_going_out_needs_every_card_in_melds():
    assert check_out("9s 9h 9c 4h 5h 6c", 4).is_out
    assert can_go_out("7h 8h 9h", 1)
    assert not can_go_out("7h 8h 10s", 1)


def test_three_to_five_cards_go_out_as_one_meld():
    result = check_out("3s 4s 5s 6s 7s", 3)
    assert len(result.melds) == 1


def test_failed_claim_names_the_cards_that_do_not_fit():
    with pytest.raises(ImpossibleHandError) as info:
        check_out("9s 9h 9c 4h 5h 7c", 4)
    assert info.value.leftover == parse_cards("4h 5h 7c")
    assert info.value.hand == parse_cards("9s 9h 9c 4h 5h 7c")
    with pytest.raises(ImpossibleHandError):
        go_out("9s 9h 9c 4h 5h 7c", 4)


def test_false_out_costs_twenty_instead_of_being_refused():
    claim = go_out("9s 9h 9c 4h 5h 7c", 4, ThreeThirteenRules(false_out=True))
    assert (claim.out, claim.penalty) == (False, 20)
    claim = go_out("9s 9h 9c 4h 5h 6c", 4, ThreeThirteenRules(false_out=True))
    assert (claim.out, claim.penalty) == (True, 0)


def test_round_score_player_out_scores_zero_others_their_leftover():
    score = score_round(["9s 9h 9c 4h 5h 6c", "Kd 4s Ac 2h 7c 8d"], 4, out=0)
    assert score.points == (0, 32)


def test_player_who_goes_out_must_hold_an_out_hand():
    with pytest.raises(ImpossibleHandError):
        score_round(["Kd 4s Ac 2h 7c 8d", "9s 9h 9c 4h 5h 6c"], 4, out=0)


def test_doubles_double_the_jack_round():
    hands = ["Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 3c", "Js Jd Jc 2c 3c 4c 5h 6h 7h 8h 10h"]
    plain = score_round(hands, 9)
    doubled = score_round(hands, 9, ThreeThirteenRules(doubles=True))
    assert doubled.points == tuple(2 * p for p in plain.points) and doubled.doubled


def test_results_serialise():
    result = split("9s 9h 9c 4h 5h 6c", 6)
    assert result.to_dict()["melds"][0]["text"] == "4♥ 5♥ 6♣(6♥)"
