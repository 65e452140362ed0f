"""Trece: the two-player game state (turns, draws, demands, reshuffles, calls, winner, replay)."""

from __future__ import annotations

import json

import pytest

from referee.cards import BLACK_JOKER, RED_JOKER, Card, Suit, parse_cards
from referee.errors import NothingToUndo
from referee.trece import (
    DECK_SIZE,
    Draw,
    DuplicateCardError,
    IllegalActionError,
    IllegalPlayError,
    LastCard,
    Play,
    Setup,
    SetupError,
    State,
    Thirteen,
    TreceRules,
    record_from_dict,
    replay,
)
from tests.trece_games import ben_down_to_one, new_game, total


def snapshot(game: State) -> tuple[dict[str, object], list[object]]:
    return game.to_dict(), list(game.log)


def draw_until_stock(game: State, stock: int) -> None:
    while game.stock > stock:
        game.draw()


# ---------------------------------------------------------------- setup


def test_deal_thirteen_each_one_turned_card_and_a_stock_of_27() -> None:
    game = new_game()
    assert game.counts == (13, 13)
    assert game.stock == 27 == DECK_SIZE - 26 - 1
    assert game.pile == (Card.parse("J♦"),) and game.top == Card.parse("J♦")
    assert total(game) == DECK_SIZE


def test_dealers_opponent_plays_first_by_default() -> None:
    assert new_game().turn_name == "Ben"
    assert new_game(dealer=1).turn_name == "Ana"


def test_who_plays_first_can_be_set() -> None:
    assert new_game(dealer=0, first=0).turn_name == "Ana"


def test_joker_cannot_start_the_pile() -> None:
    with pytest.raises(SetupError, match="BJ cannot start the pile"):
        Setup(("Ana", "Ben"), "BJ")  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Ana"), ("Ana", ""), ("Ana", "Ben", "Cy")])
def test_two_players_with_different_names(players: tuple[str, ...]) -> None:
    with pytest.raises(SetupError):
        Setup(players, Card.parse("5♠"))  # type: ignore[arg-type]


def test_setup_round_trips_through_json() -> None:
    s = Setup(("Ana", "Ben"), Card.parse("10♥"), dealer=1, rules=TreceRules(run_after_joker=True))
    assert Setup.from_dict(json.loads(json.dumps(s.to_dict()))) == s


# ---------------------------------------------------------------- turns and plays


def test_play_lowers_the_count_and_passes_the_turn() -> None:
    game = new_game()
    rec = game.play(None, "Q♥ K♥")
    assert rec == Play(1, (Card.parse("Q♥"), Card.parse("K♥")))
    assert game.counts == (13, 11) and game.turn_name == "Ana" and game.top == Card.parse("K♥")
    assert game.pile == tuple(Card.parse(c) for c in ("J♦", "Q♥", "K♥"))


def test_play_out_of_turn_is_refused() -> None:
    game = new_game()
    with pytest.raises(IllegalActionError, match="it is Ben's turn"):
        game.play("Ana", "Q♥")
    assert not game.can_play("Ana", "Q♥") and game.can_play("Ben", "Q♥") and game.can_play(1, "Q♥")


def test_unknown_player_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="Cy is not playing"):
        new_game().play("Cy", "Q♥")


def test_illegal_play_raises_with_the_verdict() -> None:
    game = new_game()
    with pytest.raises(IllegalPlayError) as info:
        game.play(None, "7♣")
    assert str(info.value.verdict.reason) == "7♣ is not one rank from J♦"
    assert game.verdict("7♣").legal is False and game.verdict("Q♣").legal is True


def test_card_played_twice_is_refused_naming_it() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    with pytest.raises(DuplicateCardError, match="Q♥ is already in the pile") as info:
        game.play(None, "A♣ K♣ Q♥")  # a run the rules allow, but Q♥ lies in the pile
    assert info.value.card == Card.parse("Q♥")
    with pytest.raises(DuplicateCardError, match="2♥ is the top"):
        game.play(None, "A♣ 2♥")


def test_cannot_play_more_cards_than_held() -> None:
    game = ben_down_to_one()
    game.draw()  # Ana
    with pytest.raises(IllegalActionError, match="Ben holds 1 card, too few to play 7♦ 8♦"):
        game.play(None, "7♦ 8♦")


@pytest.mark.parametrize("attempt", ["7♣", "Q♥ Q♥", "K♠ 10♠", "", "JK"])
def test_refused_play_leaves_the_state_untouched(attempt: str) -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♠ K♠")
    before = snapshot(game)
    with pytest.raises(ValueError):
        game.play(None, attempt)
    assert snapshot(game) == before
    assert not game.can_play(None, attempt)


def test_refused_action_out_of_turn_leaves_the_state_untouched() -> None:
    game = new_game()
    before = snapshot(game)
    for attempt in (lambda: game.draw("Ana"), lambda: game.call_last_card("Ben"), lambda: game.call_thirteen(0)):
        with pytest.raises(IllegalActionError):
            attempt()
        assert snapshot(game) == before


# ---------------------------------------------------------------- drawing


def test_draw_picks_up_one_card_and_ends_the_turn() -> None:
    game = new_game()
    rec = game.draw()
    assert rec == Draw(1, 1, False, ())
    assert game.counts == (13, 14) and game.stock == 26 and game.turn_name == "Ana"
    assert game.top == Card.parse("J♦")


def test_draw_out_of_turn_is_refused() -> None:
    game = new_game()
    assert not game.can_draw("Ana") and game.can_draw("Ben")


# ---------------------------------------------------------------- jokers and the demand


def joker_on_hearts() -> State:
    """Ben plays Q♥ K♥ RJ on J♦: Ana must play a heart."""
    game = new_game()
    game.play(None, "Q♥ K♥ RJ")
    return game


def test_joker_demands_the_kings_suit_of_the_other_player() -> None:
    game = joker_on_hearts()
    assert game.log[-1] == Play(1, game.log[-1].cards, Suit.HEARTS, False)  # type: ignore[union-attr]
    assert game.demand is Suit.HEARTS and game.turn_name == "Ana" and game.top.is_joker


def test_demand_must_be_followed() -> None:
    game = joker_on_hearts()
    with pytest.raises(IllegalPlayError, match="you must play a ♥, not 7♣"):
        game.play(None, "7♣")
    assert game.can_play(None, "7♥") and not game.can_play(None, "BJ")


def test_demanded_card_is_played_alone_by_default() -> None:
    game = joker_on_hearts()
    with pytest.raises(IllegalPlayError, match="played alone"):
        game.play(None, "7♥ 8♥")


def test_run_after_joker_on_lets_the_demanded_card_begin_a_run() -> None:
    game = new_game(rules=TreceRules(run_after_joker=True))
    game.play(None, "Q♥ K♥ RJ")
    game.play(None, "7♥ 8♥ 9♥")
    assert game.demand is None and game.top == Card.parse("9♥") and game.counts == (10, 10)


def test_demand_met_then_the_normal_rule_applies_on_the_demanded_card() -> None:
    game = joker_on_hearts()
    game.play(None, "7♥")
    assert game.demand is None and game.top == Card.parse("7♥") and game.turn_name == "Ben"
    assert game.can_play(None, "8♣") and game.can_play(None, "6♠ 5♠") and not game.can_play(None, "2♥")


def test_failing_the_demand_costs_thirteen_cards() -> None:
    game = joker_on_hearts()
    assert game.next_draw == 13
    rec = game.draw()
    assert rec == Draw(0, 13, True, ())
    assert game.counts == (26, 10) and game.stock == 14
    assert game.turn_name == "Ben" and game.demand is Suit.HEARTS


def test_after_the_penalty_players_alternate_one_card_until_one_follows() -> None:
    game = joker_on_hearts()
    game.draw()  # Ana: 13
    assert game.next_draw == 1
    assert game.draw() == Draw(1, 1, False, ())  # Ben, the joker's player, cannot follow either
    assert game.draw() == Draw(0, 1, False, ())  # Ana again
    assert game.demand is Suit.HEARTS and game.turn_name == "Ben"
    with pytest.raises(IllegalPlayError, match="you must play a ♥"):
        game.play(None, "8♠")
    game.play(None, "2♥")  # the joker's player follows
    assert game.demand is None and game.turn_name == "Ana" and game.counts == (27, 10)
    assert game.next_draw == 1


def test_joker_may_also_be_played_alone_on_the_top_king() -> None:
    game = new_game("Q♠")
    game.play(None, "K♣")
    game.play(None, "BJ")
    assert game.demand is Suit.CLUBS and game.turn_name == "Ben"


def test_joker_only_on_a_king_of_its_colour_in_the_state() -> None:
    game = new_game("Q♠")
    game.play(None, "K♣")
    with pytest.raises(IllegalPlayError, match="a red joker goes only on a red king, not on K♣"):
        game.play(None, "RJ")


# ---------------------------------------------------------------- the reshuffle


def test_taking_the_last_stock_card_shuffles_the_pile_but_its_top_into_a_new_stock() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")  # Ben
    game.play(None, "A♥ 2♥")  # Ana
    draw_until_stock(game, 1)
    assert game.stock == 1 and game.pile[-1] == Card.parse("2♥")
    rec = game.draw()
    assert rec.count == 1
    assert rec.returned == tuple(Card.parse(c) for c in ("J♦", "Q♥", "K♥", "A♥"))
    assert game.stock == 4 and game.pile == (Card.parse("2♥"),)
    assert total(game) == DECK_SIZE


def test_cards_shuffled_back_can_be_played_again() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    draw_until_stock(game, 0)
    assert game.returned == frozenset(Card.parse(c) for c in ("J♦", "Q♥", "K♥", "A♥"))
    who = game.turn
    game.play(None, "A♥")  # back from the stock into a hand, now played again
    assert game.pile == (Card.parse("2♥"), Card.parse("A♥")) and game.turn != who
    assert Card.parse("A♥") not in game.returned
    assert game.played.count(Card.parse("A♥")) == 2


def test_top_card_stays_in_the_pile_after_the_reshuffle() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    draw_until_stock(game, 0)
    with pytest.raises(DuplicateCardError, match="2♥ is the top"):
        game.play(None, "A♠ 2♥")


def test_penalty_larger_than_the_stock_reshuffles_in_the_middle() -> None:
    game = new_game()
    for _ in range(24):
        game.draw()
    assert game.stock == 3 and game.counts == (25, 25) and game.turn_name == "Ben"
    game.play(None, "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")  # Ben 18
    game.play(None, "9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♣")  # Ana 16
    game.play(None, "K♦")  # Ben 17
    game.play(None, "RJ")  # Ana 15: Ben must play a diamond
    rec = game.draw()
    assert rec.penalty and rec.count == 13
    assert len(rec.returned) == 18 and Card.parse("J♦") in rec.returned
    assert game.stock == 3 + 18 - 13 and game.pile == (RED_JOKER,)
    assert game.counts == (15, 30) and total(game) == DECK_SIZE


def test_penalty_takes_only_what_stock_and_pile_can_give() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")  # Ben 11
    game.play(None, "A♠ K♠")  # Ana 11
    for _ in range(24):
        game.draw()
    assert game.stock == 3 and game.turn_name == "Ben"
    game.play(None, "BJ")  # Ben: Ana must play a spade
    rec = game.draw()
    assert rec == Draw(0, 3 + 5, True, tuple(Card.parse(c) for c in ("J♦", "Q♥", "K♥", "A♠", "K♠")))
    assert game.stock == 0 and game.pile == (BLACK_JOKER,)
    assert game.counts == (31, 22) and total(game) == DECK_SIZE
    # nothing left to pick up: the draw takes no card and the turn still passes
    assert game.draw() == Draw(1, 0, False, ())
    assert game.turn_name == "Ana" and game.demand is Suit.SPADES


# ---------------------------------------------------------------- "last card" and "thirteen"


def test_one_card_player_may_call_last_card() -> None:
    game = ben_down_to_one()
    assert game.last_card_called == (False, False)
    assert game.can_call_last_card("Ben") and not game.can_call_last_card("Ana")
    assert game.call_last_card("Ben") == LastCard(1)
    assert game.last_card_called == (False, True)
    assert game.turn_name == "Ana"  # calling does not use a turn


def test_last_card_cannot_be_called_twice_or_with_more_cards() -> None:
    game = ben_down_to_one()
    with pytest.raises(IllegalActionError, match="Ana holds 4 cards, not one"):
        game.call_last_card("Ana")
    game.call_last_card("Ben")
    with pytest.raises(IllegalActionError, match="Ben said last card already"):
        game.call_last_card("Ben")


def test_thirteen_catches_a_player_who_did_not_call_last_card() -> None:
    game = ben_down_to_one()
    stock = game.stock
    assert game.can_call_thirteen("Ana") and not game.can_call_thirteen("Ben")
    rec = game.call_thirteen("Ana")
    assert rec == Thirteen(0, 1, 13, ())
    assert game.counts == (4, 14) and game.stock == stock - 13
    assert game.turn_name == "Ana"  # the challenge does not change whose turn it is
    assert not game.can_call_thirteen("Ana")


def test_thirteen_too_late_after_last_card() -> None:
    game = ben_down_to_one()
    game.call_last_card("Ben")
    with pytest.raises(IllegalActionError, match="Ben said last card in time"):
        game.call_thirteen("Ana")


def test_thirteen_only_against_a_player_with_one_card() -> None:
    game = ben_down_to_one()
    with pytest.raises(IllegalActionError, match="Ana holds 4 cards, not one"):
        game.call_thirteen("Ben")


def test_last_card_must_be_called_again_after_coming_back_to_one_card() -> None:
    game = ben_down_to_one()
    game.call_last_card("Ben")
    game.draw()  # Ana
    game.draw()  # Ben: two cards
    assert game.last_card_called == (False, False)
    assert not game.can_call_thirteen("Ana")
    game.draw()  # Ana
    game.play(None, "7♦")  # Ben back to one card (on 6♦)
    assert game.counts[1] == 1 and game.can_call_thirteen("Ana")


def test_thirteen_penalty_reshuffles_when_the_stock_is_short() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")  # Ben 6
    game.play(None, "9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♣")  # Ana 4
    for _ in range(24):
        game.draw()
    assert game.stock == 3 and game.counts == (16, 18) and game.turn_name == "Ben"
    game.play(None, "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦")  # Ben 9
    game.draw()  # Ana 17
    game.play(None, "9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥")  # Ben 1
    assert game.stock == 2 and len(game.pile) == 34 and game.counts == (17, 1)
    rec = game.call_thirteen("Ana")
    assert rec.count == 13 and len(rec.returned) == 33
    assert game.stock == 2 + 33 - 13 and game.pile == (Card.parse("2♥"),)
    assert game.counts == (17, 14) and total(game) == DECK_SIZE


# ---------------------------------------------------------------- the winner


def test_first_player_with_no_cards_wins() -> None:
    game = ben_down_to_one()
    game.draw()  # Ana
    rec = game.play(None, "7♦")  # Ben's last card
    assert rec.won and game.winner == 1 and game.is_over
    assert game.counts == (5, 0) and game.turn is None and game.turn_name is None


def test_no_action_after_the_game_is_won() -> None:
    game = ben_down_to_one()
    game.draw()
    game.play(None, "7♦")
    for attempt in (game.draw, lambda: game.play(None, "8♦"), lambda: game.call_last_card("Ana")):
        with pytest.raises(IllegalActionError, match="the game is over: Ben has no cards left"):
            attempt()


def test_winning_with_a_joker_ends_the_game_at_once() -> None:
    game = new_game("Q♦")
    game.play(None, "K♦ A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦")  # Ben 2
    game.play(None, "J♣ Q♣")  # Ana 11
    rec = game.play(None, "K♥ RJ")  # Ben's last two cards
    assert rec.won and rec.demands_suit is Suit.HEARTS
    assert game.winner == 1 and game.turn is None


# ---------------------------------------------------------------- replay, undo, records


def played_game() -> State:
    game = new_game(rules=TreceRules(run_after_joker=True))
    game.play(None, "Q♥ K♥ RJ")
    game.draw()
    game.draw()
    game.play(None, "2♥ 3♥")
    game.play(None, "4♥")
    for _ in range(30):
        game.draw()
    return game


def test_replay_of_the_log_rebuilds_the_state() -> None:
    game = played_game()
    again = replay(game.setup, game.log)
    assert again.to_dict() == game.to_dict() and again.log == game.log
    assert total(game) == DECK_SIZE and game.returned


def test_replay_from_json_dicts() -> None:
    game = played_game()
    data = json.loads(json.dumps({"setup": game.setup.to_dict(), "log": [r.to_dict() for r in game.log]}))
    again = replay(data["setup"], data["log"])
    assert again.to_dict() == game.to_dict() and again.log == game.log


@pytest.mark.parametrize(
    "record",
    [
        Play(1, (Card.parse("K♥"),), None, False),
        Play(0, parse_cards("K♥ RJ"), Suit.HEARTS, True),
        Draw(0, 13, True, (Card.parse("J♦"), Card.parse("Q♥"))),
        LastCard(1),
        Thirteen(0, 1, 9, (Card.parse("2♣"),)),
    ],
)
def test_records_round_trip_through_json(record: object) -> None:
    data = json.loads(json.dumps(record.to_dict()))  # type: ignore[attr-defined]
    assert record_from_dict(data) == record


def test_unknown_action_in_a_dict_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Trece action"):
        record_from_dict({"action": "pass", "player": 0})


def test_undo_is_a_new_state_replayed_from_all_but_the_last_action() -> None:
    game = joker_on_hearts()
    before = game.to_dict()
    game.draw()  # Ana's 13
    after = game.to_dict()
    undone = game.undo()
    assert game.to_dict() == after and game.log[-1] == Draw(0, 13, True, ())  # the state itself is unchanged
    assert undone.to_dict() == before and undone.demand is Suit.HEARTS and undone.next_draw == 13
    first = undone.undo()
    assert first.to_dict() == new_game().to_dict() and first.log == []
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        first.undo()


def test_undo_of_a_reshuffle_puts_the_cards_back_in_the_pile() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    draw_until_stock(game, 1)
    pile = game.pile
    game.draw()
    assert game.pile == (Card.parse("2♥"),)
    game = game.undo()
    assert game.pile == pile and game.stock == 1 and game.returned == frozenset()
