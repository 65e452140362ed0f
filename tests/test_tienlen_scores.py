"""Tiến lên scores (RULES.md, "Tiến lên scores"): every item, every switch, the worked example."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from referee.cards import Card, format_cards, parse_cards
from referee.switches import SwitchError, rules_from_mapping
from referee.tienlen import RANK_ORDER, Chop, Hand, Setup, TienLenRules, sort_cards
from referee.tienlen_scores import (
    CardsLeftError,
    CardTwiceError,
    ChopChainError,
    FinishedGame,
    InstantWinError,
    NoSuchSeatError,
    OrderError,
    Payment,
    PlayedCardError,
    ScoreInputError,
    ScoreRules,
    ScoreSwitchError,
    bombs_in,
    count_bombs,
    finished_game_from_hand,
    score,
)

NAMES = ("An", "Binh", "Chi", "Dung")
PLACES = ScoreRules(score_by="places", play_on=True)


def twos(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))  # type: ignore[arg-type]


def paid(result, item=None):  # type: ignore[no-untyped-def]
    return [(p.payer, p.payee, p.points) for p in result.payments if item is None or p.item == item]


def example() -> FinishedGame:
    return FinishedGame(
        players=4, winner=0, cards_left=(0, 5, 13, 2),
        leftover=(None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None),
        chops=((Chop(3, 1, twos("2h")), Chop(0, 3)),), names=NAMES,
    )


# --- the worked example ----------------------------------------------------------------------


def test_worked_example_of_rules_md_totals_40_minus_9_minus_27_minus_4() -> None:
    result = score(example())
    assert result.points == (40, -9, -27, -4)
    assert paid(result) == [(1, 0, 5), (2, 0, 26), (3, 0, 2), (1, 0, 2), (2, 0, 1), (1, 3, 2), (3, 0, 4)]
    assert [p.item for p in result.payments] == ["cards", "frozen", "cards", "caught", "caught", "chop", "chop"]


def test_worked_example_in_plain_words() -> None:
    game = example()
    lines = [str(p.sentence(game.names)) for p in score(game).payments]
    assert "Dung chopped Binh's 2♥: Binh pays Dung 2" in lines
    assert "An bombed Dung's bomb: Dung pays An 2 + 2 = 4" in lines
    assert "Chi had played no card when An went out: Chi pays An 2 × 13 = 26" in lines
    assert "Binh was caught holding 2♦: Binh pays An 2" in lines


# --- 1. the result ----------------------------------------------------------------------------


def test_score_by_cards_every_loser_pays_the_winner_a_point_per_card() -> None:
    result = score(FinishedGame(players=3, winner=2, cards_left=(7, 1, 0)))
    assert paid(result) == [(0, 2, 7), (1, 2, 1)]
    assert result.points == (-7, -1, 8)


def test_cards_are_counted_when_the_first_player_went_out_also_with_play_on() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 4, 6), order=(0, 2, 1))
    assert score(game, ScoreRules(play_on=True)).points == (10, -4, -6)


def test_score_by_places_four_players_first_from_last_and_second_from_third() -> None:
    game = FinishedGame(players=4, winner=1, cards_left=(5, 0, 2, 9), order=(1, 3, 0, 2))
    result = score(game, PLACES)
    assert paid(result, "places") == [(2, 1, 2), (0, 3, 1)]
    assert result.points == (-1, 2, -2, 1)


def test_score_by_places_three_players_only_first_from_last() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 2, 9), order=(0, 2, 1))
    assert paid(score(game, PLACES)) == [(1, 0, 2)]


def test_score_by_places_stakes_are_switches() -> None:
    game = FinishedGame(players=4, winner=0, cards_left=(0, 1, 2, 3), order=(0, 1, 2, 3))
    rules = ScoreRules(score_by="places", play_on=True, first_stake=5, second_stake=3)
    assert score(game, rules).points == (5, 3, -3, -5)


def test_score_by_places_needs_the_finishing_order() -> None:
    with pytest.raises(OrderError, match="finishing order"):
        score(FinishedGame(players=2, winner=0, cards_left=(0, 3)), PLACES)


def test_score_by_places_needs_play_on() -> None:
    with pytest.raises(ScoreSwitchError, match="play_on"):
        ScoreRules(score_by="places")


# --- 2. frozen ----------------------------------------------------------------------------------


def test_frozen_player_pays_twice_their_13_cards() -> None:
    result = score(FinishedGame(players=2, winner=0, cards_left=(0, 13)))
    assert paid(result, "frozen") == [(1, 0, 26)]


def test_frozen_multiplier_is_a_switch_and_1_means_no_extra() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 13))
    assert score(game, ScoreRules(frozen=3)).points == (39, -39)
    assert score(game, ScoreRules(frozen=1)).points == (13, -13)


def test_frozen_is_exactly_13_cards_left_a_loser_with_13_cards_cannot_be_not_frozen() -> None:
    assert FinishedGame(players=3, winner=0, cards_left=(0, 13, 4)).frozen_seats == (1,)
    with pytest.raises(CardsLeftError, match="^An has 13 cards left, so played no card and was frozen$") as info:
        FinishedGame(players=3, winner=1, cards_left=(13, 0, 4), frozen=(False, False, False), names=("An", "Binh", "Chi"))
    assert info.value.seat == 0


def test_frozen_with_places_pays_the_first_and_the_others_share_the_places() -> None:
    game = FinishedGame(players=4, winner=0, cards_left=(0, 13, 3, 1), order=(0, 3, 1, 2))
    result = score(game, PLACES)
    # Binh (frozen) pays An 2 × 2; among An, Dung, Chi the first wins 2 from the last (Chi).
    assert paid(result) == [(1, 0, 4), (2, 0, 2)]
    assert result.points == (6, -4, -2, 0)


def test_frozen_with_places_and_three_frozen_no_place_is_paid() -> None:
    game = FinishedGame(players=4, winner=2, cards_left=(13, 13, 0, 13), order=(2, 0, 1, 3))
    assert paid(score(game, PLACES)) == [(0, 2, 4), (1, 2, 4), (3, 2, 4)]


def test_frozen_needs_all_13_cards_left() -> None:
    with pytest.raises(CardsLeftError, match="was not frozen"):
        FinishedGame(players=2, winner=0, cards_left=(0, 12), frozen=(False, True))
    with pytest.raises(CardsLeftError, match="winner"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), frozen=(True, True))


# --- 3. caught holding --------------------------------------------------------------------------


def test_caught_holding_black_and_red_twos() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 4), leftover=(None, "2s 2c 2d 9h"))
    result = score(game)
    assert paid(result, "caught") == [(1, 0, 1 + 1 + 2)]
    rules = ScoreRules(two_left_black=3, two_left_red=5)
    assert paid(score(game, rules), "caught") == [(1, 0, 3 + 3 + 5)]


def test_caught_holding_a_bomb() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 5), leftover=(None, "9s 9c 9d 9h 4s"))
    assert paid(score(game), "caught") == [(1, 0, 4)]
    assert paid(score(game, ScoreRules(bomb_left=7)), "caught") == [(1, 0, 7)]


def test_four_twos_count_as_four_twos_and_one_bomb() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 4), leftover=(None, "2s 2c 2d 2h"))
    assert paid(score(game), "caught") == [(1, 0, 6), (1, 0, 4)]


def test_caught_only_when_leftover_cards_are_entered() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 4))
    assert paid(score(game), "caught") == []


def test_frozen_players_pay_caught_holding_too() -> None:
    game = FinishedGame(players=2, winner=1, cards_left=(13, 0),
                        leftover=("2h 2d 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", None))
    assert paid(score(game)) == [(0, 1, 26), (0, 1, 4)]


def test_bombs_left_are_the_most_disjoint_bombs() -> None:
    assert count_bombs("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c") == 2  # six pairs: two of three
    assert count_bombs("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c") == 1  # five pairs: one
    assert count_bombs("5s 5c 5d 5h 6s 6c 7s 7c") == 1  # a four or three pairs, not both
    # Four 5s broken into pairs would give two double sequences: 44 55 66 and 55 66 77... no,
    # 4 4 5 5 6 6 + 5 5 6 6 7 7 needs four 5s and four 6s.
    assert count_bombs("4s 4c 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c") == 2
    assert count_bombs("3s 3c 3d 3h 4s") == 1
    assert count_bombs("As Ac Ad Ah 2s 2c 2d 2h") == 2
    assert count_bombs("Qs Qc Ks Kc As Ac 2s 2c") == 1  # no 2 in a double sequence
    assert count_bombs("Ks Kc As Ac 2s 2c") == 0


def _brute_bombs(cards: tuple[Card, ...]) -> int:
    counts = Counter(c.rank for c in cards)
    ranks = RANK_ORDER[:-1]
    candidates: list[Counter] = []  # type: ignore[type-arg]
    for r in RANK_ORDER:
        candidates.append(Counter({r: 4}))
    for i in range(len(ranks) - 2):
        candidates.append(Counter({ranks[i]: 2, ranks[i + 1]: 2, ranks[i + 2]: 2}))

    def best(left: Counter, start: int) -> int:  # type: ignore[type-arg]
        top = 0
        for j in range(start, len(candidates)):
            need = candidates[j]
            if all(left[r] >= n for r, n in need.items()):
                top = max(top, 1 + best(left - need, j))
        return top

    return best(counts, 0)


@given(st.lists(st.sampled_from(sort_cards(
    "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d 7h 2s 2c 2d 2h Ks Kc Kd Kh As Ac Ad Ah")),
    min_size=0, max_size=13, unique=True))
def test_bombs_left_agree_with_an_exhaustive_search(cards: list[Card]) -> None:
    found = bombs_in(cards)
    assert len(found) == _brute_bombs(tuple(cards))
    used = [c for bomb in found for c in bomb]
    assert len(used) == len(set(used)) and set(used) <= set(cards)


# --- 4. chops -----------------------------------------------------------------------------------


def test_chop_a_black_two_and_a_red_two() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 3, 4), chops=((Chop(2, 1, twos("2s 2h")),),))
    assert paid(score(game), "chop") == [(1, 2, 1 + 2)]
    rules = ScoreRules(chop_black=4, chop_red=6)
    assert paid(score(game, rules), "chop") == [(1, 2, 10)]


def test_chop_on_a_bomb_pays_chop_bomb_plus_what_the_bomb_had_won() -> None:
    game = FinishedGame(players=4, winner=0, cards_left=(0, 3, 4, 5),
                        chops=((Chop(1, 2, twos("2h")), Chop(3, 1), Chop(0, 3)),))
    assert paid(score(game), "chop") == [(2, 1, 2), (1, 3, 4), (3, 0, 6)]
    assert paid(score(game, ScoreRules(chop_bomb=5)), "chop") == [(2, 1, 2), (1, 3, 7), (3, 0, 12)]


def test_chop_winnings_are_passed_on_even_when_chop_bomb_is_0() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 3, 4), chops=((Chop(1, 2, twos("2d")), Chop(0, 1)),))
    assert paid(score(game, ScoreRules(chop_bomb=0)), "chop") == [(2, 1, 2), (1, 0, 2)]


def test_a_chain_may_start_with_a_bomb_on_a_bomb() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 3), chops=((Chop(0, 1),),))
    assert paid(score(game), "chop") == [(1, 0, 2)]


def test_a_broken_chain_is_refused() -> None:
    with pytest.raises(ChopChainError, match="broken"):
        FinishedGame(players=3, winner=0, cards_left=(0, 3, 4), chops=((Chop(1, 2, twos("2d")), Chop(0, 2)),))


def test_twos_that_are_not_twos_are_refused() -> None:
    with pytest.raises(ChopChainError, match="not a 2"):
        FinishedGame(players=2, winner=0, cards_left=(0, 3), chops=((Chop(0, 1, twos("Ah")),),))


def test_only_the_first_bomb_of_a_chain_beats_twos() -> None:
    with pytest.raises(ChopChainError, match="first bomb"):
        FinishedGame(players=3, winner=0, cards_left=(0, 3, 4),
                     chops=((Chop(1, 2, twos("2d")), Chop(0, 1, twos("2s"))),))


def test_a_chopped_two_cannot_also_be_a_leftover_card() -> None:
    with pytest.raises(CardTwiceError, match="2♦ was chopped before seat 0 went out, so it is not among seat 1's leftover cards"):
        FinishedGame(players=2, winner=0, cards_left=(0, 2), leftover=(None, "2d 5s"),
                     chops=((Chop(0, 1, twos("2d")),),))


def test_a_frozen_player_was_in_no_chop() -> None:
    with pytest.raises(ChopChainError, match="played no card"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), chops=((Chop(0, 1, twos("2d")),),))


# --- 5. instant win -----------------------------------------------------------------------------


def test_instant_win_every_other_player_pays_the_stake_and_nothing_else() -> None:
    game = FinishedGame(players=3, winner=1, cards_left=(13, 0, 13), instant_win=1,
                        leftover=("2h 2d 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs", None, None))
    result = score(game, ScoreRules(instant_wins=True))
    assert paid(result) == [(0, 1, 26), (2, 1, 26)]
    assert {p.item for p in result.payments} == {"instant"}
    assert score(game, ScoreRules(instant_wins=True, instant_stake=10)).points == (-10, 20, -10)


def test_instant_win_needs_the_switch_and_13_cards_for_the_others() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 13), instant_win=0)
    with pytest.raises(InstantWinError, match="instant_wins"):
        score(game)
    with pytest.raises(InstantWinError, match="13 cards"):
        FinishedGame(players=2, winner=0, cards_left=(0, 12), instant_win=0)
    with pytest.raises(InstantWinError, match="winner"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), instant_win=1)


# --- switches and zero amounts ------------------------------------------------------------------


@pytest.mark.parametrize("switch", ScoreRules.AMOUNTS)
def test_an_amount_of_0_turns_its_item_off(switch: str) -> None:
    rules = ScoreRules(**{switch: 0, "play_on": True, "instant_wins": True})
    for game in (example(), FinishedGame(players=2, winner=0, cards_left=(0, 13), instant_win=0)):
        result = score(game, rules)
        assert all(p.points > 0 for p in result.payments)
        assert sum(result.points) == 0


@pytest.mark.parametrize("value", [-1, 1001, 2.5, True, "x"])
def test_a_bad_amount_is_refused_naming_the_switch(value: object) -> None:
    with pytest.raises(SwitchError, match="chop_red"):
        rules_from_mapping(ScoreRules, {"chop_red": value})


def test_an_unknown_switch_is_refused() -> None:
    with pytest.raises(SwitchError, match="chop_blue"):
        rules_from_mapping(ScoreRules, {"chop_blue": 1})


def test_score_rules_take_form_words() -> None:
    rules = rules_from_mapping(ScoreRules, {"score_by": "places", "play_on": "on", "chop_red": "3"})
    assert (rules.score_by, rules.play_on, rules.chop_red) == ("places", True, 3)


# --- inconsistent facts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"players": 5, "winner": 0, "cards_left": (0, 1, 1, 1, 1)}, NoSuchSeatError, "2 to 4"),
        ({"players": 2, "winner": 2, "cards_left": (0, 1)}, NoSuchSeatError, "seat from 0 to 1"),
        ({"players": 2, "winner": 0, "cards_left": (3, 1)}, CardsLeftError, "0 cards left, not 3"),
        ({"players": 2, "winner": 0, "cards_left": (0, 14)}, CardsLeftError, "0 to 13"),
        ({"players": 3, "winner": 0, "cards_left": (0, 1)}, CardsLeftError, "one count per player"),
        ({"players": 2, "winner": 0, "cards_left": (0, 3), "leftover": (None, "5s 6s")}, CardsLeftError,
         "3 cards left, but 2"),
        ({"players": 3, "winner": 0, "cards_left": (0, 1, 1), "leftover": (None, "5s", "5s")}, CardTwiceError,
         "5♠ is given twice"),
        ({"players": 3, "winner": 0, "cards_left": (0, 1, 1), "order": (0, 1)}, OrderError, "every seat once"),
        ({"players": 3, "winner": 0, "cards_left": (0, 1, 1), "order": (1, 0, 2)}, OrderError, "starts with"),
        ({"players": 2, "winner": 0, "cards_left": (0, 1), "chops": ((Chop(1, 1),),)}, ChopChainError, "own play"),
        ({"players": 2, "winner": 0, "cards_left": (0, 1), "chops": ((Chop(0, 5),),)}, NoSuchSeatError, "seat"),
        ({"players": 2, "winner": 0, "cards_left": (0, 4), "leftover": (None, "5s 6s 7s Zz")}, ScoreInputError,
         "Zz"),
    ],
)
def test_inconsistent_facts_are_refused_naming_the_problem(kwargs, error, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=words) as caught:
        FinishedGame(**kwargs)
    assert str(caught.value.reason)  # every mistake carries the sentence as a Message


def test_from_dict_reads_the_api_body() -> None:
    game = FinishedGame.from_dict({
        "players": 4, "winner": 0, "order": [0, 3, 1, 2], "cards_left": [0, 5, 13, 2],
        "leftover": [None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None],
        "frozen": [False, False, True, False],
        "chops": [[{"by": 3, "from": 1, "twos": "2h"}, {"by": 0, "from": 3}]], "instant_win": None,
    })
    assert score(game).points == (40, -9, -27, -4)
    again = FinishedGame.from_dict(game.to_dict())
    assert again == game


# --- the property -----------------------------------------------------------------------------------


@st.composite
def finished_games(draw):  # type: ignore[no-untyped-def]
    players = draw(st.integers(2, 4))
    seats = list(range(players))
    order = draw(st.permutations(seats))
    winner = order[0]
    instant = draw(st.booleans()) and draw(st.booleans())
    deck = list(sort_cards(" ".join(f"{r}{s}" for r in "3456789TJQKA2" for s in "scdh")))
    deck = draw(st.permutations(deck))
    if instant:
        left = [0 if s == winner else 13 for s in seats]
        return FinishedGame(players=players, winner=winner, cards_left=tuple(left), order=tuple(order),
                            instant_win=winner), True
    left = [0 if s == winner else draw(st.integers(1, 13)) for s in seats]
    leftover: list[tuple[Card, ...] | None] | None = None
    at = 0
    if draw(st.booleans()):
        leftover = []
        for s in seats:
            if s == winner or draw(st.booleans()):
                leftover.append(None)
            else:
                leftover.append(tuple(deck[at:at + left[s]]))
            at += left[s]
    twos_free = [c for c in deck[at:] if c.rank.symbol == "2"]
    # With the finishing order typed the counts are checked all the same: these bombs fall after
    # the first player went out (play_on), from the losers' hands held then.
    active = [s for s in seats if s != winner]
    chains = []
    if len(active) >= 2:
        for _ in range(draw(st.integers(0, 2))):
            length = draw(st.integers(1, 4))
            on = draw(st.sampled_from(active))
            chain = []
            for i in range(length):
                by = draw(st.sampled_from([s for s in active if s != on]))
                chopped = ()
                if i == 0 and twos_free and (leftover is None or leftover[on] is None) and draw(st.booleans()):
                    chopped = (twos_free.pop(),)
                chain.append(Chop(by, on, chopped))
                on = by
            chains.append(tuple(chain))
    try:
        game = FinishedGame(players=players, winner=winner, cards_left=tuple(left), order=tuple(order),
                            leftover=tuple(leftover) if leftover is not None else None, chops=tuple(chains),
                            after_out=tuple(tuple(True for _ in chain) for chain in chains) or None)
    except (ChopChainError, CardsLeftError, PlayedCardError):
        assume(False)  # more bombs than the hands held
        raise
    return game, False


amounts = st.integers(0, 50)


@given(finished_games(), st.sampled_from(["cards", "places"]), amounts, amounts, st.integers(1, 4), amounts,
       amounts, amounts, amounts, amounts, amounts, amounts)
def test_points_always_add_up_to_zero_and_equal_the_payments(
    drawn, score_by, first, second, frozen, black, red, bomb, chop_black, chop_red, chop_bomb, instant
) -> None:  # type: ignore[no-untyped-def]
    game, _ = drawn
    rules = ScoreRules(score_by=score_by, play_on=True, instant_wins=True, first_stake=first, second_stake=second,
                       frozen=frozen, two_left_black=black, two_left_red=red, bomb_left=bomb,
                       chop_black=chop_black, chop_red=chop_red, chop_bomb=chop_bomb, instant_stake=instant)
    result = score(game, rules)
    assert sum(result.points) == 0
    totals = [0] * game.players
    for p in result.payments:
        assert isinstance(p, Payment) and p.points > 0 and p.payer != p.payee and p.item in (
            "cards", "places", "frozen", "caught", "chop", "instant")
        totals[p.payer] -= p.points
        totals[p.payee] += p.points
    assert tuple(totals) == result.points
    assert str(p.sentence()) if result.payments else True


# --- the followed game ---------------------------------------------------------------------------------


def test_a_followed_four_player_game_records_a_chop_chain_and_scores_it() -> None:
    # Binh leads 2♥, Dung bombs it with three pairs, An bombs Dung with higher three pairs.
    hand = Hand(Setup(NAMES, leader=1, opening=False))
    hand.play(1, "2h")
    hand.pass_(2)
    hand.play(3, "4s 4c 5s 5c 6s 6c")
    hand.play(0, "7s 7c 8s 8c 9s 9c")
    for seat in (1, 3):  # Chi passed already: locked out until the table clears
        hand.pass_(seat)
    assert hand.chops == [(Chop(3, 1, twos("2h")), Chop(0, 3))]
    hand.play(0, "3s 4d 5d 6d 7d")
    for seat in (1, 2, 3):
        hand.pass_(seat)
    hand.play(0, "10s")
    hand.pass_(1)
    hand.pass_(2)
    hand.pass_(3)
    hand.play(0, "Js")
    assert hand.over and hand.winner == 0
    assert hand.cards_left_at_first_out == (0, 12, 13, 7)
    assert hand.no_card_at_first_out == (2,)
    game = finished_game_from_hand(hand)
    result = score(game)
    assert paid(result, "chop") == [(1, 3, 2), (3, 0, 4)]
    assert paid(result, "frozen") == [(2, 0, 26)]
    assert result.points == (12 + 26 + 7 + 4, -12 - 2, -26, -7 + 2 - 4)


def test_a_bomb_on_a_pair_of_twos_starts_a_chain_with_both_twos() -> None:
    hand = Hand(Setup(("A", "B"), leader=0, opening=False))
    hand.play(0, "2s 2d")
    hand.play(1, "3s 3c 4s 4c 5s 5c 6s 6c")
    assert hand.chops == [(Chop(1, 0, twos("2s 2d")),)]


def test_a_new_trick_starts_a_new_chain() -> None:
    hand = Hand(Setup(("A", "B"), leader=0, opening=False))
    hand.play(0, "2s")
    hand.play(1, "3s 3c 3d 3h")
    hand.pass_(0)
    hand.play(1, "4s")
    hand.play(0, "2h")
    hand.play(1, "5s 5c 5d 5h")
    assert hand.chops == [(Chop(1, 0, twos("2s")),), (Chop(1, 0, twos("2h")),)]


def test_a_keepers_leftover_with_a_played_card_is_refused() -> None:
    hand = Hand(Setup(("A", "B"), leader=0, opening=False))
    hand.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    hand.pass_(1)
    hand.play(0, "2h")
    with pytest.raises(PlayedCardError, match="9♠ has already been played"):
        finished_game_from_hand(hand, [None, "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 9s"])
    with pytest.raises(CardsLeftError, match="13 cards left, but 2"):
        finished_game_from_hand(hand, [None, "3c 4c"])


def test_with_play_on_a_seats_later_plays_must_be_among_its_leftover_cards() -> None:
    hand = Hand(Setup(("A", "B", "C"), rules=TienLenRules(play_on=True), leader=0, opening=False))
    hand.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    hand.pass_(1)
    hand.pass_(2)
    hand.play(0, "2h")  # A is out; B and C play on
    assert hand.cards_left_at_first_out == (0, 13, 13)
    hand.pass_(1)
    hand.pass_(2)
    hand.play(1, "3c")
    hand.play(2, "4c")
    held_b = "3c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c 3d"
    with pytest.raises(PlayedCardError, match="4♣ has already been played"):
        finished_game_from_hand(hand, [None, "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c 3d", None])
    with pytest.raises(PlayedCardError, match="B played 3♣ after A went out, so it is among B's leftover"):
        finished_game_from_hand(hand, [None, "5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c 3d 4d", None])
    game = finished_game_from_hand(hand, [None, held_b, None])
    assert game.cards_left == (0, 13, 13)
    assert format_cards(game.leftover[1] or ()) == format_cards(sort_cards(held_b))


def test_a_three_player_game_opens_with_the_lowest_card_dealt() -> None:
    setup = Setup(("A", "B", "C"), leader=2, lowest_card=Card.parse("3d"))
    hand = Hand(setup)
    assert str(hand.refusal_to_play(2, "4s 5s 6s")) == "the first play of the game must contain the 3♦"
    assert str(hand.refusal_to_play(2, "3s 4s 5s")) == "3♠ was not dealt: the lowest card dealt is 3♦"
    assert not hand.can_pass(2)
    hand.play(2, "3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad")
    assert not hand.opening_pending and hand.turn == 0
    hand.pass_(0)
    hand.pass_(1)
    hand.play(2, "2h")
    assert hand.over and hand.winner == 2
    with pytest.raises(PlayedCardError, match="3♣ was not dealt"):
        finished_game_from_hand(hand, ["3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c", None, None])
    game = finished_game_from_hand(hand, ["3h 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c", None, None])
    assert score(game).points == (-26 - 1, -26, 53)


def test_later_hands_of_a_game_have_no_opening_card() -> None:
    from referee.tienlen import Game

    game = Game(Setup(("A", "B"), leader=0, hand_size=1, lowest_card=Card.parse("5s")))
    game.play(0, "5s")
    game.next_hand()
    assert game.hand.setup.lowest_card == Card.parse("3s") and not game.hand.not_dealt
    assert game.hand.can_play(0, "3s")


def test_setup_round_trip_keeps_the_lowest_card() -> None:
    setup = Setup(("A", "B", "C"), leader=1, lowest_card=Card.parse("4s"))
    assert Setup.from_dict(setup.to_dict()) == setup
    assert Setup.from_dict({"players": ["A", "B"]}).lowest_card == Card.parse("3s")


def test_a_followed_instant_win_is_scored_as_one() -> None:
    hand = Hand(Setup(("A", "B", "C"), rules=TienLenRules(instant_wins=True), leader=0))
    hand.declare_instant_win(2, "dragon")
    game = finished_game_from_hand(hand)
    assert (game.instant_win, game.cards_left) == (2, (13, 13, 0))
    assert score(game, ScoreRules(instant_wins=True)).points == (-26, -26, 52)


def test_a_hand_not_over_cannot_be_scored() -> None:
    hand = Hand(Setup(("A", "B"), leader=0))
    with pytest.raises(ScoreInputError, match="not over yet"):
        finished_game_from_hand(hand)


def test_unseen_cards_are_those_not_played() -> None:
    hand = Hand(Setup(("A", "B"), leader=0, opening=False))
    hand.play(0, "5s 5c")
    assert len(hand.unseen) == 50 and Card.parse("5s") not in hand.unseen


def test_a_followed_chain_of_three_bombs_passes_the_winnings_on() -> None:
    # Binh's 2♦ is chopped by Chi's three pairs; Dung's four 9s beat them (quad_beats_three_pairs);
    # An's four jacks beat Dung's: each bombed bomb pays 2 plus what it had won.
    rules = TienLenRules(quad_beats_three_pairs=True)
    hand = Hand(Setup(NAMES, rules=rules, leader=1, opening=False))
    hand.play(1, "2d")
    hand.play(2, "3s 3c 4s 4c 5s 5c")
    hand.play(3, "9s 9c 9d 9h")
    hand.play(0, "Js Jc Jd Jh")
    assert hand.chops == [(Chop(2, 1, twos("2d")), Chop(3, 2), Chop(0, 3))]
    facts = FinishedGame(players=4, winner=0, cards_left=(0, 3, 4, 5), chops=tuple(hand.chops))
    assert paid(score(facts), "chop") == [(1, 2, 2), (2, 3, 4), (3, 0, 6)]


def test_a_higher_single_two_on_a_two_is_no_chop() -> None:
    hand = Hand(Setup(("A", "B"), leader=0, opening=False))
    hand.play(0, "2s")
    hand.play(1, "2h")
    assert hand.chops == []


# --- every count must agree (RULES.md): a seat in a chop played its cards before the winner went out


def test_a_seat_cannot_lose_more_2s_in_a_chop_than_cards_it_played() -> None:
    with pytest.raises(ChopChainError, match="^Chi had played 1 of 13 cards when An went out, so could not have played the chopped "
                                             "2♠ 2♦ 2♥$") as info:
        FinishedGame(players=4, winner=0, cards_left=(0, 12, 12, 12), names=("An", "Binh", "Chi", "Dung"),
                     chops=((Chop(1, 2, twos("2h 2d 2s")), Chop(3, 1), Chop(1, 3)),))
    assert info.value.seat == 2


def test_a_seat_cannot_bomb_with_fewer_cards_played_than_a_bomb_holds() -> None:
    with pytest.raises(ChopChainError, match="^Dung had played 3 of 13 cards when An went out, fewer than the 4 cards of a bomb$") as info:
        FinishedGame(players=4, winner=0, cards_left=(0, 5, 8, 10), names=("An", "Binh", "Chi", "Dung"),
                     chops=((Chop(3, 1, twos("2h")),),))
    assert info.value.seat == 3
    with pytest.raises(ChopChainError, match="^Dung had played 6 of 13 cards when An went out, fewer than the 10 cards of a bomb$"):
        FinishedGame(players=4, winner=0, cards_left=(0, 5, 8, 7), names=("An", "Binh", "Chi", "Dung"),
                     chops=((Chop(3, 1, twos("2h 2d 2s")),),))


def test_a_seats_bombs_and_chopped_2s_together_cannot_be_more_than_it_played() -> None:
    with pytest.raises(ChopChainError, match="^Binh had played 6 of 13 cards when An went out, fewer than the 8 cards "
                                             "of their bombs and chopped 2s until then$"):
        FinishedGame(players=3, winner=0, cards_left=(0, 7, 5), names=("An", "Binh", "Chi"),
                     chops=((Chop(1, 2, twos("2h")),), (Chop(1, 2, twos("2d")),)))
    game = FinishedGame(players=3, winner=0, cards_left=(0, 5, 5), names=("An", "Binh", "Chi"),
                        chops=((Chop(1, 2, twos("2h")),), (Chop(1, 2, twos("2d")),)))
    assert score(game).points == (10, -1, -9)


def test_with_play_on_a_chop_may_come_after_the_winner_went_out() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 12, 12), order=(0, 1, 2),
                        chops=((Chop(1, 2, twos("2h")),),), after_out=((True,),))
    assert score(game, ScoreRules(play_on=True)).points == (24, -10, -14)


# --- caught cards: only the 2s and bomb cards of a loser's hand ---------------------------------


def test_a_caught_two_and_a_caught_bomb_score_as_if_every_leftover_card_were_named() -> None:
    caught = FinishedGame(players=2, winner=0, cards_left=(0, 9), caught=(None, "2h 9s 9c 9d 9h"))
    named = FinishedGame(players=2, winner=0, cards_left=(0, 9), leftover=(None, "2h 9s 9c 9d 9h 3c 4d 5h 7s"))
    assert score(caught).points == score(named).points
    assert score(caught).payments == score(named).payments


def test_a_caught_card_that_is_neither_a_two_nor_in_a_bomb_is_refused_naming_it() -> None:
    with pytest.raises(CardsLeftError) as caught:
        FinishedGame(players=2, winner=0, cards_left=(0, 9), caught=(None, "2h 9s 9c 9d"))
    assert str(caught.value.reason).startswith("9♠ is neither a 2 nor part of a bomb")
    assert caught.value.seat == 1 and caught.value.field == "caught"


def test_more_caught_cards_than_cards_left_are_refused() -> None:
    with pytest.raises(CardsLeftError, match="Binh has 3 cards left, so 4 caught cards cannot be in the hand"):
        FinishedGame(players=2, winner=0, cards_left=(0, 3), caught=(None, "2s 2h 2c 2d"), names=("An", "Binh"))


def test_the_winner_has_no_caught_card_and_a_card_is_not_caught_twice() -> None:
    with pytest.raises(CardsLeftError, match="went out"):
        FinishedGame(players=2, winner=0, cards_left=(0, 3), caught=("2s", None))
    with pytest.raises(CardTwiceError):
        FinishedGame(players=3, winner=0, cards_left=(0, 3, 3), caught=(None, "2s", "2s"))


def test_caught_cards_survive_the_json_round_trip() -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 5), caught=(None, "2d"))
    assert game.to_dict()["caught"] == [None, "2♦"]
    assert FinishedGame.from_dict(game.to_dict()) == game
    assert "caught" not in FinishedGame(players=2, winner=0, cards_left=(0, 5)).to_dict()


def test_a_caught_card_the_table_saw_played_is_refused() -> None:
    hand = Hand(Setup(("An", "Bao"), opening=False))
    hand.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    hand.pass_(1)
    hand.play(0, "2h")
    with pytest.raises(PlayedCardError, match="2♥ has already been played: it cannot be caught in Bao's hand"):
        finished_game_from_hand(hand, caught=[None, "2h"])
    assert score(finished_game_from_hand(hand, caught=[None, "2s"])).points == (27, -27)  # frozen: 2 × 13, and the black 2
