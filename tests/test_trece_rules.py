"""Trece: the rules of a single play (check_play)."""

from __future__ import annotations

import pytest

from referee.cards import BLACK_JOKER, JOKER, RED_JOKER, Card, Suit, TooManyCopiesError
from referee.switches import SwitchError, rules_from_mapping
from referee.text import Message
from referee.trece import (
    DemandError,
    DuplicateCardError,
    EmptyPlayError,
    IllegalPlayError,
    TreceRules,
    Verdict,
    check_play,
    is_one_rank_apart,
)

ON = TreceRules(run_after_joker=True)


def legal(top: str, play: str, **kw: object) -> bool:
    return check_play(top, play, **kw).legal  # type: ignore[arg-type]


def reason(top: str, play: str, **kw: object) -> str:
    return str(check_play(top, play, **kw).reason)  # type: ignore[arg-type]


# ---------------------------------------------------------------- single cards


@pytest.mark.parametrize("top, play", [("7♠", "8♥"), ("7♠", "6♦"), ("J♦", "Q♣"), ("J♦", "10♠"), ("Q♥", "K♥")])
def test_single_card_one_rank_above_or_below_any_suit(top: str, play: str) -> None:
    assert legal(top, play)


@pytest.mark.parametrize("top, play", [("7♠", "7♥"), ("7♠", "9♠"), ("7♠", "5♠"), ("J♦", "K♦"), ("3♣", "A♣")])
def test_single_card_not_one_rank_apart_is_illegal(top: str, play: str) -> None:
    v = check_play(top, play)
    assert not v.legal
    assert "is not one rank from" in str(v.reason)


def test_ace_goes_on_a_king_wrap_around() -> None:
    assert legal("K♣", "A♥")


def test_ace_goes_on_a_two() -> None:
    assert legal("2♣", "A♠")


def test_king_goes_on_an_ace_wrap_around() -> None:
    assert legal("A♦", "K♠")


def test_two_goes_on_an_ace() -> None:
    assert legal("A♦", "2♥")


def test_king_and_two_are_not_adjacent_only_the_ace_wraps() -> None:
    assert not legal("K♦", "2♦")
    assert not legal("2♦", "K♦")


def test_reason_names_the_card_and_the_top() -> None:
    assert reason("J♦", "7♣") == "7♣ is not one rank from J♦"


def test_legal_single_reason() -> None:
    assert reason("J♦", "Q♣") == "Q♣ is one rank from J♦"


def test_is_one_rank_apart_is_symmetric_and_wraps() -> None:
    from referee.cards import Rank

    for a in Rank:
        for b in Rank:
            assert is_one_rank_apart(a, b) == is_one_rank_apart(b, a)
            assert is_one_rank_apart(a, b) == ((a - b) % 13 in (1, 12))


# ---------------------------------------------------------------- runs


def test_run_of_one_suit_going_up() -> None:
    assert legal("4♥", "5♠ 6♠ 7♠ 8♠")


def test_run_that_turns_direction_at_the_ace() -> None:
    # up Q♥ K♥ A♠, then down A♠ K♠ Q♣ J♣ 10♣: the direction turns at the ace
    assert legal("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")
    assert legal("Q♦", "K♦ A♣ K♣ Q♣")


def test_run_that_turns_direction_at_the_king() -> None:
    # up J♥ Q♥ K♥, then down Q♠ J♠ 10♠
    assert legal("10♥", "J♥ Q♥ K♥ Q♠ J♠ 10♠")
    assert legal("2♠", "3♦ 4♦ 5♦ 6♦")


def test_run_that_turns_direction_twice() -> None:
    # down 3♣ 2♣ A♣ K♣, then up again: A♦ after the king, 2♦ 3♦
    assert legal("4♥", "3♣ 2♣ A♣ K♣ A♦ 2♦ 3♦")


def test_run_going_down() -> None:
    assert legal("9♦", "8♣ 7♣ 6♣")


def test_run_through_the_wrap_both_ways() -> None:
    assert legal("2♣", "A♠ K♠ Q♠")  # down through the wrap
    assert legal("Q♣", "K♣ A♣ 2♣ 3♣")  # up through the wrap


def test_wrap_applies_inside_a_run() -> None:
    assert legal("J♦", "Q♥ K♥ A♠ K♠")  # A♠ K♠: ace to king is one step
    assert legal("3♦", "2♠ A♠ K♠ Q♠")  # A♠ K♠ inside a descending run
    assert legal("J♠", "Q♠ K♠ A♠ 2♠")  # K♠ A♠ 2♠ ascending through the wrap


def test_run_must_keep_the_suit() -> None:
    v = check_play("4♥", "5♠ 6♠ 7♥")
    assert not v.legal
    assert str(v.reason) == "7♥ is not a ♠: each card of a run is the suit of the card before it"


def test_run_must_step_one_rank() -> None:
    v = check_play("4♥", "5♠ 7♠")
    assert not v.legal
    assert str(v.reason) == "7♠ is not one rank from 5♠"


def test_run_first_card_follows_the_single_card_rule() -> None:
    v = check_play("4♥", "6♠ 7♠")
    assert not v.legal
    assert str(v.reason) == "6♠ is not one rank from 4♥"


def test_legal_run_reason() -> None:
    assert reason("4♥", "5♠ 6♠") == "5♠ 6♠ is a run on 4♥"


# ---------------------------------------------------------------- the king exception


def test_king_exception_sheet_example_is_one_run() -> None:
    v = check_play("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")
    assert v.legal
    assert not v.joker and v.demands_suit is None


@pytest.mark.parametrize("after", ["Q♠", "Q♣", "Q♦", "A♠", "A♣", "A♦", "A♥"])
def test_after_a_king_any_queen_or_ace_may_follow(after: str) -> None:
    assert legal("J♥", f"Q♥ K♥ {after}")


@pytest.mark.parametrize("after", ["J♠", "2♣", "K♠", "10♦", "J♥", "2♥"])
def test_after_a_king_nothing_but_a_queen_or_ace(after: str) -> None:
    v = check_play("J♣", f"Q♥ K♥ {after}")
    assert not v.legal
    assert str(v.reason) == f"after a king any queen or ace may follow, not {after}"


@pytest.mark.parametrize(
    "play, bad",
    [
        ("Q♥ K♥ A♠ K♣ Q♣", "K♣"),  # the ace is not a king: A♠ then a club king changes suit
        ("Q♥ K♥ A♠ 2♣", "2♣"),  # after an ace the suit is kept
        ("Q♥ K♥ A♠ K♠ Q♣ J♥", "J♥"),  # after a queen the suit is kept
        ("Q♥ A♥", "A♥"),  # a queen is not a king: Q to A is two ranks
    ],
)
def test_king_exception_variations_are_illegal(play: str, bad: str) -> None:
    v = check_play("J♦", play)
    assert not v.legal
    assert bad in str(v.reason)


def test_queen_or_ace_of_another_suit_only_right_after_a_king() -> None:
    assert not legal("J♦", "Q♥ Q♠")
    assert not legal("2♦", "A♥ A♠")


# ---------------------------------------------------------------- jokers


@pytest.mark.parametrize("king", ["K♥", "K♦"])
def test_red_joker_goes_on_a_red_king(king: str) -> None:
    v = check_play(king, "RJ")
    assert v.legal and v.joker
    assert v.demands_suit is Card.parse(king).suit


@pytest.mark.parametrize("king", ["K♠", "K♣"])
def test_black_joker_goes_on_a_black_king(king: str) -> None:
    v = check_play(king, "BJ")
    assert v.legal and v.joker
    assert v.demands_suit is Card.parse(king).suit


@pytest.mark.parametrize("king", ["K♠", "K♣"])
def test_red_joker_not_on_a_black_king(king: str) -> None:
    v = check_play(king, "RJ")
    assert not v.legal
    assert str(v.reason) == f"a red joker goes only on a red king, not on {king}"


@pytest.mark.parametrize("king", ["K♥", "K♦"])
def test_black_joker_not_on_a_red_king(king: str) -> None:
    v = check_play(king, "BJ")
    assert not v.legal
    assert str(v.reason) == f"a black joker goes only on a black king, not on {king}"


@pytest.mark.parametrize("top", ["Q♥", "A♥", "7♦", "2♠"])
def test_joker_only_on_a_king(top: str) -> None:
    joker = "RJ" if Card.parse(top).is_red else "BJ"
    v = check_play(top, joker)
    assert not v.legal
    assert "goes only on a" in str(v.reason)


def test_joker_as_last_card_of_a_run_after_a_king_of_its_colour() -> None:
    v = check_play("J♦", "Q♥ K♥ A♠ K♠ BJ")
    assert v.legal and v.joker
    assert v.demands_suit is Suit.SPADES
    assert str(v.reason) == "BJ on K♠: the other player must play a ♠"


def test_joker_in_a_run_must_follow_a_king() -> None:
    v = check_play("J♦", "Q♥ RJ")
    assert not v.legal and v.joker
    assert str(v.reason) == "a red joker goes only on a red king, not on Q♥"


def test_joker_ends_the_run() -> None:
    v = check_play("Q♥", "K♥ RJ A♥")
    assert not v.legal
    assert str(v.reason) == "a joker ends the run: nothing may follow RJ"
    assert not v.joker  # the play does not end with the joker


def test_two_jokers_in_a_row_are_illegal() -> None:
    assert str(check_play("K♥", "RJ BJ").reason) == "a joker ends the run: nothing may follow RJ"


def test_joker_ends_a_run_that_started_on_a_king() -> None:
    # top K♣, play A♠ K♠ BJ: the joker lies on K♠ and demands spades
    v = check_play("K♣", "A♠ K♠ BJ")
    assert v.legal and v.demands_suit is Suit.SPADES


# ---------------------------------------------------------------- the demand


def test_demand_is_met_by_any_card_of_the_suit() -> None:
    for card in ("2♥", "7♥", "K♥", "A♥"):
        v = check_play("RJ", card, must_follow=Suit.HEARTS)
        assert v.legal
        assert str(v.reason) == f"{card} is a ♥, as the joker demands"


def test_demand_refuses_another_suit() -> None:
    v = check_play("RJ", "7♣", must_follow=Suit.HEARTS)
    assert not v.legal
    assert str(v.reason) == "you must play a ♥, not 7♣"


def test_demand_refuses_the_other_joker() -> None:
    v = check_play("BJ", "RJ", must_follow=Suit.CLUBS)
    assert not v.legal
    assert str(v.reason) == "you must play a ♣, not RJ"


def test_run_after_joker_off_demanded_card_is_played_alone() -> None:
    v = check_play("RJ", "9♦ 10♦", must_follow=Suit.DIAMONDS)
    assert not v.legal
    assert str(v.reason) == "the ♦ that meets a joker's demand is played alone"


def test_run_after_joker_on_demanded_card_may_begin_a_run() -> None:
    assert check_play("RJ", "9♦ 10♦ J♦", must_follow=Suit.DIAMONDS, rules=ON).legal
    assert check_play("RJ", "Q♦ K♦ A♠ K♠ BJ", must_follow=Suit.DIAMONDS, rules=ON).demands_suit is Suit.SPADES


def test_run_after_joker_on_the_run_still_follows_run_rules() -> None:
    v = check_play("RJ", "9♦ J♦", must_follow=Suit.DIAMONDS, rules=ON)
    assert not v.legal and str(v.reason) == "J♦ is not one rank from 9♦"
    assert not check_play("RJ", "9♣ 10♣", must_follow=Suit.DIAMONDS, rules=ON).legal


def test_run_after_joker_switch_from_mapping() -> None:
    assert rules_from_mapping(TreceRules, {"run_after_joker": "on"}) == ON
    assert rules_from_mapping(TreceRules, {}) == TreceRules()
    with pytest.raises(SwitchError):
        rules_from_mapping(TreceRules, {"run_after_jokers": True})
    with pytest.raises(SwitchError):
        rules_from_mapping(TreceRules, {"run_after_joker": "maybe"})


def test_joker_on_top_needs_its_demand() -> None:
    with pytest.raises(DemandError):
        check_play("RJ", "7♥")
    with pytest.raises(DemandError):
        check_play("RJ", "7♠", must_follow=Suit.SPADES)  # a red joker's king is red
    with pytest.raises(DemandError):
        check_play("K♥", "7♥", must_follow=Suit.HEARTS)  # only a joker demands


# ---------------------------------------------------------------- bad input


def test_duplicate_card_in_the_play_is_bad_input_naming_it() -> None:
    with pytest.raises(DuplicateCardError, match="6♥ appears twice in the play") as info:
        check_play("5♠", "6♥ 5♥ 6♥")
    assert info.value.card == Card.parse("6♥")
    assert isinstance(info.value, TooManyCopiesError) and isinstance(info.value, ValueError)


def test_card_equal_to_the_top_is_bad_input_naming_it() -> None:
    with pytest.raises(DuplicateCardError, match="10♣ is the top of the pile"):
        check_play("10♣", "9♣ 10♣")
    with pytest.raises(DuplicateCardError, match="RJ is the top"):
        check_play("RJ", "RJ", must_follow=Suit.HEARTS)


def test_empty_play_is_bad_input() -> None:
    with pytest.raises(EmptyPlayError):
        check_play("5♠", "")


def test_colourless_joker_is_not_in_the_trece_deck() -> None:
    with pytest.raises(TooManyCopiesError, match="JK"):
        check_play("K♥", [JOKER])


def test_check_play_takes_card_objects_too() -> None:
    assert check_play(Card.parse("K♥"), [RED_JOKER]).legal
    assert check_play(Card.parse("K♠"), (BLACK_JOKER,)).legal


def test_verdict_is_truthy_when_legal_and_reason_is_a_message() -> None:
    v = check_play("5♠", "6♠")
    assert isinstance(v, Verdict) and bool(v)
    assert isinstance(v.reason, Message)
    assert not check_play("5♠", "9♠")


def test_illegal_play_error_carries_the_verdict() -> None:
    v = check_play("5♠", "9♠")
    err = IllegalPlayError(v, (Card.parse("9♠"),))
    assert isinstance(err, ValueError) and err.verdict is v and str(err) == str(v.reason)
