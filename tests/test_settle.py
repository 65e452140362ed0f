"""Settling up an evening (RULES.md, "Settling up an evening"): the exact fewest transfers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.settle import (
    MAX_PEOPLE,
    BadNameError,
    NotWholeError,
    SettleError,
    TooManyPeopleError,
    Transfer,
    UnbalancedError,
    add_balances,
    check_balances,
    points_balances,
    settle,
    three_thirteen_balances,
    trece_balances,
)
from referee.switches import SwitchError
from tests.reference_settle import reference_fewest, squares

NAMES = ["An", "Binh", "Chi", "Dung", "Em", "Giang", "Hoa", "Khanh", "Lan", "Minh", "Nga", "Oanh",
         "Phuc", "Quang", "Son", "Tam"]


def zero_sum(amounts: list[int]) -> dict[str, int]:
    return {NAMES[i]: a for i, a in enumerate([*amounts, -sum(amounts)])}


def as_tuples(transfers: tuple[Transfer, ...]) -> list[tuple[str, str, int]]:
    return [(t.payer, t.payee, t.amount) for t in transfers]


# Small amounts make zero-sum groups (the hard cases) common; large ones make them rare.
amounts = st.one_of(st.integers(-4, 4), st.integers(-5000, 5000))


@settings(max_examples=400, deadline=None)
@given(st.lists(amounts, min_size=0, max_size=7))
def test_fewest_transfers_equal_the_exhaustive_search_up_to_eight_people(values):
    balances = zero_sum(values)
    transfers = settle(balances)
    assert squares(balances, as_tuples(transfers))
    assert len(transfers) == reference_fewest(balances)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([1, -1, 2, -2, 3, -3, 5, -6]), min_size=7, max_size=7))
def test_fewest_transfers_on_many_small_groups_equal_the_exhaustive_search(values):
    balances = zero_sum(values)
    assert len(settle(balances)) == reference_fewest(balances)


@settings(max_examples=100, deadline=None)
@given(st.lists(amounts, min_size=9, max_size=11))
def test_twelve_people_are_squared_from_those_owing_to_those_owed_in_at_most_n_minus_one(values):
    balances = zero_sum(values)
    transfers = settle(balances)
    owing = [a for a in balances.values() if a]
    assert squares(balances, as_tuples(transfers))
    assert len(transfers) <= max(len(owing) - 1, 0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=9, max_size=11), st.randoms(use_true_random=False))
def test_twelve_people_with_groups_split_into_them(values, rnd):
    # Built from known zero-sum groups, the answer is at most n minus the groups built.
    balances = zero_sum(values)
    groups = []
    people = list(balances)
    rnd.shuffle(people)
    size = len(people) // 3
    pieces = [people[:size], people[size:2 * size], people[2 * size:]]
    built: dict[str, int] = {}
    for piece in pieces:
        share = [rnd.randint(-9, 9) for _ in piece[:-1]]
        share.append(-sum(share))
        built.update(zip(piece, share, strict=True))
        groups.append(piece)
    nonzero = sum(1 for a in built.values() if a)
    transfers = settle(built)
    assert squares(built, as_tuples(transfers))
    assert len(transfers) <= nonzero - sum(1 for g in groups if any(built[p] for p in g))


@settings(max_examples=100, deadline=None)
@given(st.lists(amounts, min_size=1, max_size=11), st.randoms(use_true_random=False))
def test_the_transfers_do_not_depend_on_the_order_the_balances_come_in(values, rnd):
    balances = zero_sum(values)
    shuffled = list(balances.items())
    rnd.shuffle(shuffled)
    assert settle(dict(shuffled)) == settle(balances)


def test_a_pair_owing_and_owed_the_same_pays_directly():
    assert settle({"An": 30, "Binh": -30, "Chi": 20, "Dung": -20}) == (
        Transfer("Binh", "An", 30), Transfer("Dung", "Chi", 20))


def test_two_zero_sum_groups_need_n_minus_two_transfers():
    # {A 5, B -2, C -3} and {D 4, E -1, F -3}: six people, two groups, four transfers
    # (a greedy largest-first would make five).
    balances = {"A": 5, "B": -2, "C": -3, "D": 4, "E": -1, "F": -3}
    assert len(settle(balances)) == 4 == reference_fewest(balances)


def test_the_example_of_the_rules_settles_in_three_transfers():
    # RULES.md, Tiến lên: A +40, B −9, C −27, D −4; everyone pays A.
    transfers = settle(points_balances({"A": 40, "B": -9, "C": -27, "D": -4}, stake=1000))
    assert transfers == (Transfer("C", "A", 27000), Transfer("B", "A", 9000), Transfer("D", "A", 4000))


def test_nobody_owing_needs_no_transfer():
    assert settle({}) == ()
    assert settle({"An": 0, "Binh": 0}) == ()


def test_balances_not_adding_to_zero_are_refused_with_the_total():
    with pytest.raises(UnbalancedError) as caught:
        settle({"An": 10, "Binh": -4})
    assert caught.value.total == 6
    assert caught.value.balances == {"An": 10, "Binh": -4}
    assert isinstance(caught.value, RefereeError) and isinstance(caught.value, SettleError)
    assert caught.value.reason.template == "the balances add up to {total}, not 0"


@pytest.mark.parametrize("value", [2.5, 2.0, "2", True, None])
def test_a_balance_that_is_not_a_whole_number_is_refused_naming_the_player(value):
    with pytest.raises(NotWholeError) as caught:
        check_balances({"An": value, "Binh": -2})
    assert caught.value.name == "An" and caught.value.value == value


@pytest.mark.parametrize("name", ["", "   ", 7, "An\x00"])
def test_a_name_that_is_not_a_name_is_refused(name):
    with pytest.raises(BadNameError) as caught:
        check_balances({name: 0})
    assert caught.value.name == name


def test_more_people_than_a_settle_up_takes_are_refused():
    balances = {f"P{i}": 0 for i in range(MAX_PEOPLE + 1)}
    with pytest.raises(TooManyPeopleError) as caught:
        settle(balances)
    assert caught.value.count == MAX_PEOPLE + 1
    assert settle({f"P{i}": 0 for i in range(MAX_PEOPLE)}) == ()


def test_sixteen_people_in_many_small_groups_are_settled_exactly():
    # Twelve owe 1 and four are owed 3: four groups of four, twelve transfers.
    balances = {**{f"A{i:02}": -1 for i in range(12)}, **{f"B{i}": 3 for i in range(4)}}
    transfers = settle(balances)
    assert squares(balances, as_tuples(transfers)) and len(transfers) == 12


def test_a_transfer_reads_back_from_its_json():
    t = Transfer("Binh", "An", 500)
    assert t.to_dict() == {"from": "Binh", "to": "An", "amount": 500}
    assert Transfer.from_dict(t.to_dict()) == t


def test_tien_len_balances_are_the_points_times_the_stake():
    assert points_balances({"An": 31, "Binh": -5, "Chi": -26}, stake=500) == {
        "An": 15500, "Binh": -2500, "Chi": -13000}
    with pytest.raises(ValueError):
        points_balances({"An": 0}, stake=-1)


def test_three_thirteen_winner_is_paid_the_difference_by_every_other_player():
    assert three_thirteen_balances([("An", 40), ("Binh", 55), ("Chi", 61)], stake=10) == {
        "An": 360, "Binh": -150, "Chi": -210}


def test_three_thirteen_tied_winners_share_and_the_first_seated_takes_the_remainder():
    balances = three_thirteen_balances([("An", 50), ("Binh", 40), ("Chi", 40), ("Dung", 41)], stake=1)
    assert balances == {"An": -10, "Binh": 6, "Chi": 5, "Dung": -1}
    assert sum(balances.values()) == 0


def test_three_thirteen_each_pair_squares_the_difference():
    balances = three_thirteen_balances([("An", 10), ("Binh", 12), ("Chi", 13)], stake=2, settle="each")
    # An is paid 2×2 by Binh and 3×2 by Chi; Binh is paid 1×2 by Chi.
    assert balances == {"An": 10, "Binh": -2, "Chi": -8}


def test_three_thirteen_settle_switch_takes_only_its_choices():
    with pytest.raises(SwitchError):
        three_thirteen_balances([("An", 1)], stake=1, settle="split")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 200), min_size=2, max_size=8), st.integers(0, 1000),
       st.sampled_from(["winner", "each"]))
def test_three_thirteen_balances_always_add_up_to_zero(totals, stake, how):
    seats = [(NAMES[i], t) for i, t in enumerate(totals)]
    assert sum(three_thirteen_balances(seats, stake=stake, settle=how).values()) == 0


def test_trece_each_game_lost_pays_the_winner_the_stake():
    assert trece_balances([("Ana", "Luis"), ("Ana", "Luis"), ("Luis", "Ana")], stake=200) == {
        "Ana": 200, "Luis": -200}


def test_an_evening_of_several_sheets_adds_each_persons_balances():
    assert add_balances({"An": 500, "Binh": -500}, {"Binh": 30, "Chi": -30}) == {
        "An": 500, "Binh": -470, "Chi": -30}


def test_random_nine_people_agree_with_the_search_on_small_amounts():
    # Small amounts: many zero-sum groups; the memoised reference is fast enough on them.
    rnd = random.Random(25)
    for _ in range(20):
        balances = zero_sum([rnd.choice([1, -1, 2, -2, 3]) for _ in range(8)])
        assert len(settle(balances)) == reference_fewest(balances)
