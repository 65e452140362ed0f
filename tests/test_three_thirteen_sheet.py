"""The Three Thirteen score sheet in the rules library: judging a round, records, replay and undo."""

from __future__ import annotations

import json

import pytest

from referee.cards import Card, Rank, Suit, format_cards
from referee.errors import NothingToUndo, RefusedAction
from referee.text import message
from referee.three_thirteen import FALSE_OUT_PENALTY, RoundNumberError, ThreeThirteenRules
from referee.three_thirteen_sheet import (
    RoundCorrected,
    RoundEntered,
    RoundRefused,
    Sheet,
    SheetSetup,
    judge_round,
    record_from_dict,
    replay,
)

NAMES = ("Ann", "Bao", "Chi")
OUT_3 = "9s 9h 9c"


def sheet(rules: ThreeThirteenRules | None = None, players: tuple[str, ...] = NAMES) -> Sheet:
    return Sheet(SheetSetup(players, rules or ThreeThirteenRules()))


def test_a_round_needs_someone_marked_out():
    verdict = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [])
    assert verdict.problem == message("Mark who went out (at least one player).") and not verdict.ok


def test_a_player_who_went_out_enters_the_hand():
    verdict = judge_round(ThreeThirteenRules(), 3, 1, ["", "Kd 4s Ac", ""], ["0", "", "5"], [0])
    assert str(verdict.errors[0]) == "A player who went out enters the hand, so the referee can check it."


def test_a_seat_enters_its_cards_or_its_points_not_both_and_points_are_whole_numbers():
    verdict = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "Kd 4s Ac", ""], ["", "7", "1000"], [0])
    assert str(verdict.errors[1]) == "Enter the cards or the points, not both."
    assert str(verdict.errors[2]) == "Points are a whole number from 0 to 999."
    empty = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "", "Kd 4s Ac"], ["", "", ""], [0])
    assert str(empty.errors[1]) == "Enter the cards left in the hand, or type the points."


def test_a_hand_holds_the_rounds_number_of_cards_and_only_cards():
    verdict = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "Kd 4s", "Kd 4s Zx"], ["", "", ""], [0])
    assert str(verdict.errors[1]) == "Round 1 deals 3 cards; this hand has 2."
    assert str(verdict.errors[2]) == "'Zx' at position 3 is not a card"


def test_a_joker_is_refused_when_the_table_plays_without_jokers():
    verdict = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "JK 4c 4d", "5"], ["", "", ""], [0])
    assert str(verdict.errors[1]) == "JK is not in this game's deck: it has no jokers"


def test_a_card_entered_more_often_than_the_decks_hold_it_across_the_table_is_named_beside_each_holder():
    # Three players: two decks, so three K♠ at the table is one too many.
    verdict = judge_round(ThreeThirteenRules(), 3, 1, [OUT_3, "Ks 4c 4d", "Ks Ks 5d"], ["", "", ""], [0])
    expected = message("{card} is entered {count} times at this table, but the decks hold only {limit}",
                       card=verdict.seats[1].hand[0], count=3, limit=2)  # type: ignore[index]
    assert verdict.errors == {1: expected, 2: expected}


def test_a_claimed_out_that_does_not_fit_is_refused_with_the_leftover_named():
    verdict = judge_round(ThreeThirteenRules(), 2, 2, ["5h 6s 9c 9d", "4h 4s 4d 4c"], ["", ""], [0])
    assert str(verdict.errors[0]).endswith("so this hand cannot go out")
    assert verdict.seats[0].split is not None  # the split is shown beside the refusal


def test_a_false_out_adds_the_penalty_to_what_the_hand_counts_and_is_not_doubled():
    rules = ThreeThirteenRules(false_out=True, doubles=True)
    verdict = judge_round(rules, 2, 9, ["Kd 4s Ac 2h 7c 8d 9s 9h 9c 3d 5s", "Js Jd Jc 2c 3c 4c 5h 6h 7h 8h 10h"],
                          ["", ""], [0, 1])
    assert verdict.ok and verdict.doubled
    seat = verdict.seats[0]
    assert seat.penalty == FALSE_OUT_PENALTY and seat.score == 2 * (10 + 4 + 1 + 2 + 7 + 8 + 3 + 5) + FALSE_OUT_PENALTY
    assert seat.reason is not None and "false claim adds 20 points" in str(seat.reason)
    assert verdict.record().false_out == (0,)


def test_typed_points_are_doubled_in_a_doubled_round():
    verdict = judge_round(ThreeThirteenRules(doubles=True), 2, 9, ["Js Jd Jc 2c 3c 4c 5h 6h 7h 8h 10h", ""],
                          ["", "12"], [0])
    assert verdict.scores == (0, 24)


def test_entering_rounds_keeps_running_totals_and_the_next_round():
    s = sheet()
    s.enter_round(1, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [0])
    s.enter_round(2, ["", "3s 4s 5s 6s", ""], ["8", "", "2"], [1])
    assert s.totals == (8, 15, 7) and s.next_round == 3 and s.leaders == (2,) and s.winners == ()


def test_entering_a_saved_round_again_is_a_correction_that_replaces_it():
    s = sheet()
    s.enter_round(1, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [0])
    record = s.enter_round(1, [OUT_3, "Kd 4s 2c", ""], ["", "", "5"], [0])
    assert isinstance(record, RoundCorrected) and record.action == "correct"
    assert s.totals == (0, 16, 5) and s.next_round == 2 and s.rounds[0].corrected


def test_a_round_after_the_next_one_cannot_be_entered():
    s = sheet()
    with pytest.raises(RefusedAction, match="round 3 cannot be entered before round 1"):
        s.check_round_open(3)
    with pytest.raises(RoundNumberError):
        s.check_round_open(12)
    assert not s.can_enter_round(3, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [0])


def test_a_refused_entry_carries_every_problem_and_changes_nothing():
    s = sheet()
    with pytest.raises(RoundRefused) as info:
        s.enter_round(1, [OUT_3, "Kd 4s", ""], ["", "", "5"], [0])
    assert set(info.value.verdict.errors) == {1} and str(info.value) == "seat 2: Round 1 deals 3 cards; this hand has 2."
    assert s.log == [] and not s.can_enter_round(1, [OUT_3, "Kd 4s", "x"], ["", "", ""], [0])


def test_the_last_round_saved_finishes_the_game_with_the_lowest_total_winning():
    s = sheet(players=("Ann", "Bao"))
    for n in range(1, 12):
        run = format_cards(Card(Rank(r), Suit.HEARTS) for r in range(1, n + 3))  # A♥ up to the wild rank
        s.enter_round(n, ["", run], [str(n), ""], [1])
    assert s.finished and s.next_round is None and s.winners == (1,) and s.totals == (66, 0)


def test_records_round_trip_through_json_and_replay_trusts_their_points():
    s = sheet()
    s.enter_round(1, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [0])
    s.enter_round(1, [OUT_3, "Kd 4s 2c", ""], ["", "", "6"], [0])
    stored = json.loads(json.dumps([r.to_dict() for r in s.log]))
    assert [record_from_dict(d) for d in stored] == s.log
    again = replay(s.setup, stored)
    assert again.to_dict() == s.to_dict()
    changed = dict(stored[0], points=[0, 99, 5])  # a later solver never changes a saved total
    assert replay(s.setup, [changed]).totals == (0, 99, 5)


def test_undo_is_a_new_sheet_without_the_last_record():
    s = sheet()
    s.enter_round(1, [OUT_3, "Kd 4s Ac", ""], ["", "", "5"], [0])
    before = s.to_dict()
    undone = s.undo()
    assert s.to_dict() == before and undone.log == [] and undone.next_round == 1
    with pytest.raises(NothingToUndo):
        undone.undo()


def test_a_record_whose_scores_do_not_match_the_table_is_refused_on_replay():
    record = RoundEntered(1, (0,), (), (0, 3))
    with pytest.raises(ValueError, match="2 scores, but the table has 3 players"):
        replay(SheetSetup(NAMES), [record])
