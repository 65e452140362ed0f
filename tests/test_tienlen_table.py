"""Tiến lên: the hand's state machine (turns, passes, clearing, going out) and the game's tally."""

from __future__ import annotations

import json

import pytest

from referee.cards import Card, TooManyCopiesError, parse_cards
from referee.tienlen import (
    ActionError,
    CardAlreadyPlayedError,
    Game,
    Hand,
    HandOverError,
    IllegalPlayError,
    InstantWinAction,
    InstantWinKind,
    NextHandAction,
    NotYourTurnError,
    PassAction,
    PlayAction,
    Setup,
    TienLenRules,
    action_from_dict,
    replay,
    replay_game,
)
from tests.tienlen_hands import two_over_bao_who_passed

PLAYERS = ("Ana", "Bao", "Chi", "Dung")


def new_hand(leader: int = 0, hand_size: int = 13, opening: bool = True, **switches: object) -> Hand:
    return Hand(Setup(PLAYERS, TienLenRules(**switches), leader, opening, hand_size))  # type: ignore[arg-type]


def state(hand: Hand) -> dict:
    return {**hand.to_dict(), "log": list(hand.log), "played": set(hand.played)}


# -- the opening -------------------------------------------------------------------------------


def test_the_holder_of_the_three_of_spades_leads_the_first_hand():
    hand = new_hand(leader=2)
    assert hand.turn == 2
    with pytest.raises(NotYourTurnError) as info:
        hand.play(0, "3s")
    assert str(info.value.reason) == "it is Chi's turn, not Ana's"


def test_the_first_play_must_contain_the_three_of_spades():
    hand = new_hand()
    with pytest.raises(IllegalPlayError) as info:
        hand.play(0, "4s 4h")
    assert not info.value.verdict.legal
    assert str(info.value.reason) == "the first play of the game must contain the 3♠"
    record = hand.play(0, "3s 3h")
    assert record == PlayAction(0, parse_cards("3s 3h"))
    assert hand.turn == 1


def test_first_lead_three_spades_alone_in_the_hand():
    hand = new_hand(first_lead="three_spades_alone")
    assert not hand.can_play(0, "3s 4h 5c")
    assert hand.can_play(0, "3s")


def test_the_opening_rule_only_binds_the_first_play():
    hand = new_hand()
    hand.play(0, "3s")
    assert hand.can_play(1, "4s")
    assert not hand.opening_pending


def test_a_hand_after_the_first_is_led_freely_by_its_leader():
    hand = new_hand(leader=3, opening=False)
    assert hand.turn == 3 and hand.can_play(3, "9h 9s")


# -- turns, passes and the lock ----------------------------------------------------------------


def test_turns_go_round_in_seat_order():
    hand = new_hand()
    hand.play(0, "3s")
    hand.play(1, "4s")
    hand.play(2, "5s")
    hand.play(3, "6s")
    assert hand.turn == 0


def test_a_player_who_passed_is_skipped_until_the_table_clears():
    hand = new_hand()
    hand.play(0, "3s")
    hand.pass_(1)
    hand.play(2, "5s")
    hand.play(3, "6s")
    hand.play(0, "7s")
    assert hand.turn == 2  # Bao is locked out
    with pytest.raises(NotYourTurnError):
        hand.play(1, "8s")


def test_a_player_may_pass_even_when_able_to_play():
    hand = new_hand()
    hand.play(0, "3s")
    assert hand.can_play(1, "2h") and hand.can_pass(1)
    assert hand.pass_(1) == PassAction(1)


def test_the_leader_may_not_pass_on_an_empty_table():
    hand = new_hand()
    with pytest.raises(ActionError) as info:
        hand.pass_(0)
    assert str(info.value.reason) == "the table is empty: Ana must lead"
    assert not hand.can_pass(0)


def test_passing_out_of_turn_is_refused():
    hand = new_hand()
    hand.play(0, "3s")
    with pytest.raises(NotYourTurnError):
        hand.pass_(2)


def test_the_table_clears_when_everyone_else_has_passed_and_the_last_player_leads():
    hand = new_hand()
    hand.play(0, "3s")
    hand.play(1, "9s")
    hand.pass_(2)
    hand.pass_(3)
    assert hand.table is not None
    record = hand.pass_(0)
    assert record.cleared
    assert hand.table is None and hand.turn == 1 and not hand.locked
    assert hand.can_play(1, "4s 4h")  # anything may be led


def test_after_clearing_the_lock_is_lifted():
    hand = new_hand()
    hand.play(0, "3s")
    hand.pass_(1)
    hand.pass_(2)
    hand.pass_(3)
    hand.play(0, "4s")
    assert hand.turn == 1 and hand.can_play(1, "5s")


# -- refusals ----------------------------------------------------------------------------------


def test_a_refused_play_leaves_the_state_untouched():
    hand = new_hand()
    hand.play(0, "3s 3h")
    before = state(hand)
    for seat, cards in ((1, "3c 3d"), (1, "4s"), (2, "9s 9h"), (1, "3h 3c")):
        with pytest.raises(ActionError):
            hand.play(seat, cards)
    assert state(hand) == before


def test_a_lower_play_is_refused_with_the_verdict():
    hand = new_hand()
    hand.play(0, "3s")
    hand.play(1, "8h")
    with pytest.raises(IllegalPlayError) as info:
        hand.play(2, "8s")
    assert str(info.value.reason) == "8♠ is lower than 8♥"
    assert info.value.verdict.table is not None


def test_a_card_already_played_is_refused_naming_it():
    hand = new_hand()
    hand.play(0, "3s 4s 5s")
    with pytest.raises(CardAlreadyPlayedError) as info:
        hand.play(1, "4s 5h 6h")  # a higher sequence, but 4♠ is gone
    assert info.value.card == Card.parse("4s")
    assert str(info.value.reason) == "4♠ has already been played"


def test_a_play_with_more_cards_than_the_player_holds_is_refused():
    hand = new_hand(hand_size=2)
    with pytest.raises(ActionError) as info:
        hand.play(0, "3s 4s 5s")
    assert str(info.value.reason) == "Ana has only 2 cards left"


def test_a_joker_or_a_repeated_card_is_bad_input_that_can_play_answers_false():
    hand = new_hand()
    with pytest.raises(TooManyCopiesError):
        hand.play(0, "3s 3s")
    with pytest.raises(TooManyCopiesError):
        hand.check_play(0, "3s JK")
    assert not hand.can_play(0, "3s JK") and not hand.can_play(0, "5x")
    assert str(hand.refusal_to_play(0, "3s 3s")) == "3♠ appears 2 times, but one deck holds it only once"


def test_cards_left_count_down_from_thirteen():
    hand = new_hand()
    hand.play(0, "3s 4h 5c")
    hand.play(1, "6s 7h 8c")
    assert hand.cards_left == (10, 10, 13, 13)


# -- bombs in play -----------------------------------------------------------------------------


def test_four_of_a_kind_bombs_a_single_two_in_the_hand():
    hand = new_hand(opening=False)
    hand.play(0, "2s")
    record = hand.play(1, "9s 9c 9d 9h")
    assert record.bomb and hand.table is not None and hand.table_seat == 1
    assert hand.turn == 2


def test_without_bomb_after_pass_a_player_who_passed_cannot_bomb_a_two():
    hand = new_hand(opening=False)
    hand.play(0, "9s")
    hand.pass_(1)
    hand.play(2, "2s")
    assert hand.turn == 3
    hand.pass_(3)
    hand.pass_(0)
    assert hand.table is None and hand.turn == 2  # Bao never got a turn


def test_bomb_after_pass_gives_a_passed_player_a_turn_while_twos_are_on_the_table():
    hand = two_over_bao_who_passed()
    assert hand.turn == 1
    with pytest.raises(IllegalPlayError) as info:
        hand.play(1, "2h")
    assert str(info.value.reason) == "a player who passed may only bomb the 2s until the table is cleared"
    record = hand.play(1, "5s 5c 5d 5h")
    assert record.bomb and hand.table_seat == 1 and hand.turn == 2


def test_bomb_after_pass_a_passed_player_may_pass_again_and_the_table_clears():
    hand = two_over_bao_who_passed()
    assert hand.pass_(1).cleared
    assert hand.turn == 2


def test_bomb_after_pass_does_not_unlock_a_passed_player_for_other_tables():
    hand = new_hand(opening=False, bomb_after_pass=True)
    hand.play(0, "9s")
    hand.pass_(1)
    hand.play(2, "10s")
    assert hand.turn == 3
    hand.pass_(3)
    assert hand.turn == 0  # Bao is skipped: no 2 on the table


# -- going out and the end of the hand ---------------------------------------------------------


def test_the_hand_ends_when_the_first_player_goes_out():
    hand = new_hand(hand_size=2)
    hand.play(0, "3s")
    hand.play(1, "5s")
    record = hand.play(2, "6s")
    assert not record.went_out
    hand.play(3, "7s")
    record = hand.play(0, "8s")
    assert record.went_out and hand.over
    assert hand.winner == 0 and hand.finishing_order == (0,) and hand.turn is None
    with pytest.raises(HandOverError):
        hand.play(1, "9s")


def test_play_on_ranks_everyone_and_the_next_player_leads_after_the_winner_goes_out():
    hand = new_hand(hand_size=2, play_on=True)
    hand.play(0, "3s")
    hand.play(1, "4s")
    hand.play(2, "5s")
    hand.play(3, "6s")
    assert hand.play(0, "7s").went_out  # Ana is out on a table nobody beats
    assert not hand.over and hand.turn == 1
    hand.pass_(1)
    hand.pass_(2)
    hand.pass_(3)
    assert hand.table is None and hand.turn == 1  # the next player still in leads
    hand.play(1, "8s")  # Bao out
    assert hand.turn == 2
    hand.play(2, "9s")  # Chi out
    assert hand.over and hand.finishing_order == (0, 1, 2, 3) and hand.winner == 0


def test_play_on_skips_players_who_went_out_when_the_table_clears():
    hand = new_hand(hand_size=1, play_on=True, opening=False)
    hand.play(0, "4s")  # Ana out
    hand.pass_(1)
    hand.pass_(2)
    hand.pass_(3)
    assert hand.turn == 1 and hand.in_hand == (1, 2, 3)


# -- instant wins ------------------------------------------------------------------------------


def test_instant_wins_are_off_by_default():
    hand = new_hand()
    with pytest.raises(ActionError, match="house rule “Instant wins”"):
        hand.declare_instant_win(2, "four_twos")


def test_an_instant_win_is_declared_before_the_first_play_and_ends_the_hand():
    hand = new_hand(instant_wins=True)
    record = hand.declare_instant_win(2, InstantWinKind.DRAGON)
    assert record == InstantWinAction(2, InstantWinKind.DRAGON)
    assert hand.over and hand.winner == 2


def test_an_instant_win_after_the_first_play_is_refused():
    hand = new_hand(instant_wins=True)
    hand.play(0, "3s")
    assert not hand.can_declare_instant_win(1, "six_pairs")


def test_entered_cards_are_checked_against_the_instant_win_claimed():
    hand = new_hand(instant_wins=True)
    dragon = "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2h"
    assert hand.can_declare_instant_win(1, "dragon", dragon)
    assert not hand.can_declare_instant_win(1, "four_twos", dragon)
    assert hand.can_declare_instant_win(1, "four_twos", "2s 2c 2d 2h 3s 4s 5s 6s 7s 8s 9s 10s Js")
    assert hand.can_declare_instant_win(1, "six_pairs", "3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 2h")
    with pytest.raises(ActionError, match="13 cards, not 3"):
        hand.declare_instant_win(1, "dragon", "3s 4s 5s")


# -- replay, undo and records ------------------------------------------------------------------


def play_a_trick(hand: Hand) -> None:
    hand.play(0, "3s 4s 5s")
    hand.pass_(1)
    hand.play(2, "6h 7h 8h")
    hand.pass_(3)
    hand.pass_(0)


def test_replay_rebuilds_the_state_from_the_log():
    hand = new_hand()
    play_a_trick(hand)
    again = replay(hand.setup, hand.log)
    assert state(again) == state(hand)


def test_undo_is_replay_of_all_but_the_last_action():
    hand = new_hand()
    play_a_trick(hand)
    undone = hand.undo()
    assert undone.table is not None and str(undone.table) == "6♥ 7♥ 8♥" and undone.turn == 0
    assert undone.log == hand.log[:-1]


def test_records_round_trip_through_json():
    hand = new_hand(instant_wins=False)
    play_a_trick(hand)
    stored = json.loads(json.dumps([a.to_dict() for a in hand.log]))
    assert [action_from_dict(d) for d in stored] == hand.log
    assert state(replay(hand.setup, stored)) == state(hand)
    setup = Setup.from_dict(json.loads(json.dumps(hand.setup.to_dict())))
    assert setup == hand.setup
    win = InstantWinAction(1, InstantWinKind.SIX_PAIRS, ())
    assert action_from_dict(win.to_dict()) == win
    assert action_from_dict(NextHandAction(2).to_dict()) == NextHandAction(2)
    with pytest.raises(ValueError):
        action_from_dict({"action": "shuffle"})


def test_records_are_frozen():
    with pytest.raises(AttributeError):
        PassAction(1).seat = 2  # type: ignore[misc]


def test_setup_takes_two_to_four_players():
    Setup(("A", "B"))
    with pytest.raises(ValueError):
        Setup(("A",))
    with pytest.raises(ValueError):
        Setup(("A", "B", "C", "D", "E"))
    with pytest.raises(ValueError):
        Setup(("A", "B"), leader=2)


def test_two_players_take_turns():
    hand = Hand(Setup(("A", "B")))
    hand.play(0, "3s")
    hand.pass_(1)
    assert hand.table is None and hand.turn == 0


# -- a game of several hands -------------------------------------------------------------------


def test_the_winner_leads_the_next_hand_freely_and_the_tally_counts_wins():
    game = Game(Setup(PLAYERS, leader=1, hand_size=1))
    with pytest.raises(HandOverError):
        game.next_hand()
    game.play(1, "3s")
    assert game.hand.over and game.tally == (0, 1, 0, 0)
    assert game.next_hand() == NextHandAction(1)
    assert game.hand.turn == 1 and not game.hand.opening_pending
    game.play(1, "9h")
    assert game.tally == (0, 2, 0, 0) and len(game.hands) == 2
    with pytest.raises(HandOverError):
        game.pass_(2)


def test_game_replay_and_undo():
    game = Game(Setup(PLAYERS, leader=0, hand_size=2))
    game.play(0, "3s")
    game.play(1, "4s")
    game.pass_(2)
    game.pass_(3)
    game.pass_(0)
    game.play(1, "5s")  # Bao wins
    game.next_hand()
    game.play(1, "9h")
    stored = json.loads(json.dumps([a.to_dict() for a in game.log]))
    again = replay_game(game.setup, stored)
    assert again.tally == game.tally == (0, 1, 0, 0)
    assert state(again.hand) == state(game.hand)
    undone = game.undo()
    assert len(undone.hands) == 2 and undone.hand.table is None and undone.hand.turn == 1
