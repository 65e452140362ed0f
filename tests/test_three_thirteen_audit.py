"""An independent audit of the Three Thirteen referee against RULES.md: one test per
rule probed, with hands built to be awkward (a card that fits a set or a run, the
high or the low ace, twins needed in two melds, fifteen cards with eight wilds)."""

from __future__ import annotations

import pytest

from referee.cards import JOKER, Rank, parse_cards
from referee.three_thirteen import (
    FALSE_OUT_PENALTY,
    ImpossibleHandError,
    Schedule,
    ThreeThirteenRules,
    best_split,
    card_points,
    check_out,
    decks_for,
    go_out,
    score_round,
    split_hand,
)
from tests.reference_three_thirteen import reference_points, split_problems

T = ThreeThirteenRules
HIGH = T(aces="high_or_low")
DEFAULT = T()


def solved(text: str, wild: int, rules: ThreeThirteenRules = DEFAULT, decks: int = 2):
    hand = parse_cards(text)
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules) == []
    if len(hand) <= 10:
        assert result.points == reference_points(hand, wild, rules), text
    return result


# --- the schedule -------------------------------------------------------------------------


def test_eleven_rounds_wild_rank_is_the_number_dealt():
    s = Schedule()
    assert [(s.cards_dealt(r), s.wild_rank(r).symbol) for r in (1, 8, 9, 10, 11)] == [
        (3, "3"), (10, "10"), (11, "J"), (12, "Q"), (13, "K"),
    ]


def test_longer_game_round_12_deals_14_aces_wild_round_13_deals_15_twos_wild():
    s = Schedule(T(longer_game=True))
    assert s.rounds == 13
    assert [(s.cards_dealt(r), s.wild_rank(r)) for r in (11, 12, 13)] == [
        (13, Rank.KING), (14, Rank.ACE), (15, Rank.TWO),
    ]


def test_up_and_back_deals_13_twice_in_a_row_then_down_to_3():
    s = Schedule(T(up_and_back=True))
    assert s.rounds == 22
    assert [s.cards_dealt(r) for r in (10, 11, 12, 13, 22)] == [12, 13, 13, 12, 3]
    assert [s.wild_rank(r) for r in (11, 12, 22)] == [Rank.KING, Rank.KING, Rank.THREE]


def test_longer_game_and_up_and_back_climb_to_15_and_come_back():
    s = Schedule(T(longer_game=True, up_and_back=True))
    assert s.rounds == 26
    assert [s.cards_dealt(r) for r in (12, 13, 14, 15, 26)] == [14, 15, 15, 14, 3]
    assert [s.wild_rank(r) for r in (13, 14, 15)] == [Rank.TWO, Rank.TWO, Rank.ACE]


@pytest.mark.parametrize(
    ("switches", "doubled"),
    [
        ({}, [9, 10, 11]),
        ({"longer_game": True}, [9, 10, 11]),  # aces and 2s rounds are not picture rounds
        ({"up_and_back": True}, [9, 10, 11, 12, 13, 14]),  # jack, queen, king on the way up and down
        ({"longer_game": True, "up_and_back": True}, [9, 10, 11, 16, 17, 18]),
    ],
)
def test_doubles_are_the_rounds_where_jacks_queens_or_kings_are_wild(switches, doubled):
    s = Schedule(T(doubles=True, **switches))
    assert [r for r in range(1, s.rounds + 1) if s.is_doubled(r)] == doubled
    assert all(s.wild_rank(r) in (Rank.JACK, Rank.QUEEN, Rank.KING) for r in doubled)


def test_the_deal_passes_left_and_the_dealers_left_hand_neighbour_starts():
    s = Schedule()
    seats = [(s.dealer(r, first_dealer=3, players=5), s.starter(r, first_dealer=3, players=5)) for r in (1, 2, 3)]
    assert seats == [(3, 4), (4, 0), (0, 1)]
    assert s.dealer(11, first_dealer=0, players=2) == 0  # 2 players: the deal alternates


def test_decks_by_players_and_a_fixed_number():
    assert [decks_for(n) for n in range(2, 9)] == [1, 2, 2, 3, 3, 4, 4]
    assert [decks_for(n, T(decks=2)) for n in (2, 5, 8)] == [2, 2, 2]


# --- card points ------------------------------------------------------------------------------


def test_card_points_by_switch():
    cards = parse_cards("As 7d Js Qs Ks")
    assert [card_points(c) for c in cards] == [1, 7, 10, 10, 10]
    assert [card_points(c, T(faces="rank", aces="high_or_low")) for c in cards] == [15, 7, 11, 12, 13]
    assert card_points(JOKER) == card_points(JOKER, T(faces="rank")) == 20


def test_a_wild_king_left_over_counts_its_usual_value():
    # Round 11, kings wild: a lone wild king with nothing to meld counts 10, or 13.
    assert solved("Kh Qd 9c 2s", 13).points == 10 + 10 + 9 + 2
    assert solved("Kh Qd 9c 2s", 13, T(faces="rank")).points == 13 + 12 + 9 + 2


def test_a_wild_ace_left_over_costs_15_with_aces_high_or_low():
    # Longer game round 12: aces wild; nothing melds, the ace costs 15.
    assert solved("Ah 9c 5d", 1, HIGH).points == 15 + 9 + 5


# --- runs and sets ------------------------------------------------------------------------------


def test_aces_low_q_k_a_only_with_high_or_low_and_never_a_wrap():
    assert solved("Ah 2h 3h", 9).is_out
    assert solved("Qh Kh Ah", 9).points == 21
    assert solved("Qh Kh Ah", 9, HIGH).is_out
    assert solved("Kh Ah 2h", 9, HIGH).points == 10 + 15 + 2
    assert solved("Kh Ah 2h", 9).points == 13


def test_high_ace_or_low_ace_whichever_leaves_fewer_points():
    # Q K A leaves 2 3 (5 points); A 2 3 would leave Q K (20).
    result = solved("Ah 2h 3h Qh Kh", 9, HIGH)
    assert result.points == 5 and [str(m) for m in result.melds] == ["Q♥ K♥ A♥"]
    # Two aces of hearts: one low, one high.
    assert solved("Ah Ah 2h 3h Qh Kh", 9, HIGH).is_out


def test_a_wild_ace_stand_in_at_the_top_only_with_high_or_low():
    assert solved("Qs Ks JK 2s 3s 9d", 6, T(jokers=True, aces="high_or_low")).points == 14  # Q K JK(A)
    assert solved("Qs Ks JK 2s 3s 9d", 6, T(jokers=True)).points == 14  # JK(J) Q K


def test_a_set_may_hold_twins_and_twins_may_sit_in_two_runs():
    assert solved("9h 9h 9s", 3).is_out
    assert solved("9h 9h 8h 10h 8h 10h", 3).is_out  # two runs 8 9 10 of hearts
    result = solved("9h 9h 9s 8h 10h 7h 6h", 3)
    assert result.points == 10  # 6 7 8 and 9 9 9: the 10 is left (a run cannot hold two 9s)


def test_a_run_never_holds_a_rank_twice():
    assert solved("4h 5h 5h", 9).points == 14


def test_a_wild_card_fills_a_run_of_another_suit():
    result = solved("4h 6h 5c", 5, decks=1)
    assert result.is_out and result.melds[0].kind == "run"


def test_all_wild_melds():
    assert solved("7s 7h 7d", 7).is_out
    assert solved("JK JK 3d", 9, T(jokers=True), decks=1).is_out


def test_a_meld_needs_three_cards():
    assert solved("8d 9d", 3).points == 17
    assert solved("3s 9d", 3).points == 12  # a wild card and one card are no meld


def test_one_card_one_job_the_six_goes_where_it_saves_most():
    assert solved("4s 5s 6s 6h 6d 7s", 13).points == 12
    assert solved("4s 5s 6s 6h 6d 7s 6c", 13).is_out


def test_a_wild_card_fills_the_set_while_the_run_keeps_its_natural():
    result = solved("8h 9h 10h 9s 9d 3c", 3)
    assert result.is_out and sorted(m.kind for m in result.melds) == ["run", "set"]


def test_jokers_are_wild_in_every_round():
    for wild in (3, 7, 13):
        assert solved("4d JK 6d", wild, T(jokers=True), decks=1).is_out


# --- big hands: exact answers worked out by an independent exhaustive count --------------------


@pytest.mark.parametrize(
    ("text", "wild", "rules", "points"),
    [
        # 15 cards, 2s wild, eight wild cards and seven lone naturals: four sets of a natural
        # and two wilds; three cards (4 5 7) stay out.
        ("2h 2d 2c 2s 2h 2d JK JK Kc 9d 5h Qs 7c Jh 4d", 2, T(jokers=True), 16),
        ("2h 2d 2c 2s 2h 2d 2c 2s Kc 9d 5h Qs 7c Jh 4d", 2, T(faces="rank"), 16),
        ("Ah Ad Ac As Ah Ad Ac As Kc Qd 5h 9s 7c Jh 4d", 1, HIGH, 16),
        ("Ah Ad Ac As Ah Ad Ac Kc Qd 5h 9s 7c Jh 4d", 1, T(aces="high_or_low", faces="rank"), 25),
        ("Kh Kd Ks Kc Kh Kd Ks Kc Qh Jh 9h 8h 7h 6h 2c", 13, T(faces="rank"), 0),
        ("Jc Qc Kc Ac 2c 3c 10d 10h 10s 5h 5h 5d 6d 7d", 1, T(aces="high_or_low", longer_game=True), 5),
    ],
)
def test_fifteen_card_hands_full_of_wild_cards_leave_the_fewest_points(text, wild, rules, points):
    result = solved(text, wild, rules)
    assert result.points == points


# --- going out ------------------------------------------------------------------------------------


def test_four_cards_in_two_pairs_cannot_go_out():
    with pytest.raises(ImpossibleHandError):
        check_out("7s 7h 8s 8h", 2)


def test_five_cards_as_a_set_and_a_pair_cannot_go_out():
    with pytest.raises(ImpossibleHandError):
        check_out("7s 7h 7d 8s 8h", 3)
    assert len(check_out("7s 7h 7d 7c 5h", 3).melds) == 1  # the wild 5 joins the set


def test_the_player_who_went_out_scores_zero_and_the_others_their_leftover():
    score = score_round(["7s 7h 7d 7c 5h", "Kd Qd 2c 9h 4s"], 3, out=0)
    assert score.points == (0, 10 + 10 + 2 + 9 + 4)


def test_doubles_double_every_hand_in_the_queen_round():
    hands = ["Qs Qh Qd 2c 3c 4c 5h 6h 7h 8h 9h 10h", "Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 3c 5s"]
    score = score_round(hands, 10, T(doubles=True), out=0)
    assert score.doubled and score.points == (0, 2 * (10 + 4 + 1 + 2 + 7 + 8 + 3 + 3 + 5))


def test_false_out_charges_the_penalty_and_keeps_the_split():
    claim = go_out("4h 5s 6s 9c", 2, T(false_out=True))
    assert (claim.out, claim.penalty, claim.split.points) == (False, FALSE_OUT_PENALTY, 9)


# --- the sentences --------------------------------------------------------------------------------


def test_a_refused_out_does_not_claim_a_card_fits_no_run_when_it_does():
    # 7s wild: the 6s make a set with the wild 7, so 5♠ is left over, though 5♠ 6♠ 7♠ is a run.
    with pytest.raises(ImpossibleHandError) as info:
        check_out("5s 6s 7s 6h 6d Kc 2h", 5)
    text = str(info.value)
    assert "fit no set or run" not in text and "fits no set or run" not in text
    assert text == "no split puts every card in a set or run (the best leaves 2♥ 5♠ K♣ over), so this hand cannot go out"
    claim = go_out("5s 6s 7s 6h 6d Kc 2h", 5, T(false_out=True))
    assert str(claim.reason).startswith("no split puts every card in a set or run")


def test_a_refused_out_says_fits_for_one_card_and_fit_for_several():
    with pytest.raises(ImpossibleHandError, match=r"^9♣ fits no set or run, so this hand cannot go out$"):
        check_out("4h 5s 6s 9c", 2)
    with pytest.raises(ImpossibleHandError, match=r"^4♥ 5♥ 7♣ fit no set or run, so this hand cannot go out$"):
        check_out("9s 9h 9c 4h 5h 7c", 4)
    with pytest.raises(ImpossibleHandError, match=r"^7♠ 7♥ 8♠ 8♥ fit no set or run"):
        check_out("7s 7h 8s 8h", 2)


def test_the_split_explains_leftover_cards_truthfully_and_in_good_english():
    assert str(solved("As", 3).explain()) == "A♠ is left over and counts 1 point"
    assert str(solved("Ks 9d", 3).explain()) == "9♦ K♠ are left over and count 19 points"
    # One card, one job: 5♠ and 7♠ fit a run, but the best split leaves them over.
    assert str(solved("5s 6s 7s 6h 6d", 13).explain()) == "5♠ 7♠ are left over and count 12 points"
    assert str(solved("9s 9h 9c", 3).explain()) == "every card is in a set or run: 0 points"


def test_split_hand_checks_the_round_size_under_the_longer_game():
    assert split_hand("Jc Qc Kc Ac 2c 3c 10d 10h 10s 5h 5h 5d 6d 7d", 12, T(longer_game=True, aces="high_or_low"),
                      players=3).points == 5


# --- the sheet (referee.three_thirteen_sheet) ------------------------------------------------------


def judge(rules, players, round_number, cards, out, points=None):
    from referee.three_thirteen_sheet import judge_round

    return judge_round(rules, players, round_number, cards, points or [""] * players, set(out))


def test_sheet_scores_the_player_out_zero_and_doubles_the_others():
    verdict = judge(T(doubles=True), 2, 9,
                    ["Js Jd Jc 2c 3c 4c 5h 6h 7h 8h 10h", "Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 5s"], [0])
    assert verdict.errors == {} and verdict.ok
    assert verdict.record().points == (0, 2 * (10 + 4 + 1 + 2 + 7 + 8 + 3 + 5))


def test_sheet_a_false_out_adds_20_to_what_the_hand_counts():
    # 13 cards that meld nothing, worth 83: a false claim must not be cheaper than staying in.
    verdict = judge(T(false_out=True), 2, 11,
                    ["Qd Jd 9c 9s 8h 7h 5d 5c 4s 3h 2c Ac Qs", "Kh Ks Kc Jh Jc Js 10d 10s 10c 10h 6c 7c 8c"], [0, 1])
    assert verdict.errors == {}
    record = verdict.record()
    assert record.false_out == (0,)
    assert record.points == (83 + FALSE_OUT_PENALTY, 0)


def test_sheet_preview_names_the_leftover_truthfully():
    from referee.three_thirteen_sheet import preview_hand

    result = preview_hand(T(), 2, 5, "5s 6s 7s 6h 6d Kc 2h", out=True)
    assert result.problem is not None and str(result.problem).startswith("no split puts every card in a set or run")
