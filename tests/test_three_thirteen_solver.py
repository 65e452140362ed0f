"""The solver against the simple exhaustive reference, on random hands (Hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import JOKER, AnyCard, Card, Rank, Suit, parse_cards
from referee.three_thirteen import ThreeThirteenRules, best_split
from tests.reference_three_thirteen import is_meld, reference_points, split_problems
from tests.sizes import examples


@st.composite
def hands(draw, max_size: int = 8):  # type: ignore[no-untyped-def]
    """Hands dense in melds: a few suits, a window of ranks, twins, wild cards and jokers."""
    rules = ThreeThirteenRules(
        faces=draw(st.sampled_from(["ten", "rank"])),
        aces=draw(st.sampled_from(["low", "high_or_low"])),
        jokers=draw(st.booleans()),
    )
    decks = draw(st.sampled_from([1, 1, 2, 3]))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(3, 13))
    ranks = [(low - 1 + i) % 13 + 1 for i in range(width)]
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=4, unique=True))
    pool: list[AnyCard] = [Card(Rank(r), s) for r in ranks for s in suits] * decks
    if rules.jokers:
        pool += [JOKER] * (2 * decks)
    size = draw(st.integers(1, min(max_size, len(pool))))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    wild = draw(st.sampled_from(ranks + [draw(st.integers(1, 13))]))
    return [pool[i] for i in picks], wild, rules, decks


@settings(max_examples=examples(800, 3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_best_split_leaves_as_few_points_as_the_exhaustive_reference(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []
    assert result.points == reference_points(hand, wild, rules)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(max_size=10))
def test_best_split_matches_the_reference_on_ten_card_hands(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []
    assert result.points == reference_points(hand, wild, rules)


@st.composite
def wild_heavy_hands(draw, max_size: int = 9):  # type: ignore[no-untyped-def]
    """Hands of which a third to all are wild cards and jokers, the rest in two suits."""
    rules = ThreeThirteenRules(
        faces=draw(st.sampled_from(["ten", "rank"])),
        aces=draw(st.sampled_from(["low", "high_or_low"])),
        jokers=True,
    )
    decks = draw(st.sampled_from([2, 3, 4]))
    wild = draw(st.integers(1, 13))
    size = draw(st.integers(3, max_size))
    n_wild = draw(st.integers(size // 3, size))
    wild_pool: list[AnyCard] = [Card(Rank(wild), s) for s in Suit] * decks + [JOKER] * (2 * decks)
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=2, max_size=2, unique=True))
    natural_pool: list[AnyCard] = [Card(r, s) for r in Rank for s in suits if r != wild] * decks
    wilds = draw(st.lists(st.integers(0, len(wild_pool) - 1), min_size=n_wild, max_size=n_wild, unique=True))
    naturals = draw(
        st.lists(st.integers(0, len(natural_pool) - 1), min_size=size - n_wild, max_size=size - n_wild, unique=True)
    )
    return [wild_pool[i] for i in wilds] + [natural_pool[i] for i in naturals], wild, rules, decks


@st.composite
def twin_heavy_hands(draw, max_size: int = 10):  # type: ignore[no-untyped-def]
    """Two to four decks, two suits and three to six ranks in a row: many twin cards."""
    rules = ThreeThirteenRules(aces=draw(st.sampled_from(["low", "high_or_low"])), jokers=draw(st.booleans()))
    decks = draw(st.sampled_from([2, 3, 4]))
    low = draw(st.integers(1, 13))
    ranks = [(low - 1 + i) % 13 + 1 for i in range(draw(st.integers(3, 6)))]
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=2, max_size=2, unique=True))
    pool: list[AnyCard] = [Card(Rank(r), s) for r in ranks for s in suits] * decks
    pool += [JOKER] * (2 * decks if rules.jokers else 0)
    size = draw(st.integers(3, min(max_size, len(pool))))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    wild = draw(st.sampled_from([*ranks, draw(st.integers(1, 13))]))
    return [pool[i] for i in picks], wild, rules, decks


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wild_heavy_hands())
def test_best_split_matches_the_reference_when_many_cards_are_wild(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []
    assert result.points == reference_points(hand, wild, rules)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(twin_heavy_hands())
def test_best_split_matches_the_reference_on_hands_full_of_twins(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []
    assert result.points == reference_points(hand, wild, rules)


@settings(max_examples=300, deadline=None)
@given(hands(max_size=15))
def test_every_split_of_a_big_hand_is_valid(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []
    for meld in result.melds:
        assert is_meld(meld.cards, wild, rules.aces_high)


def test_reference_checks_melds_literally():
    assert is_meld(parse_cards("4h 5h 6c"), 6, False)
    assert not is_meld(parse_cards("Qh Kh Ah"), 6, False)
    assert is_meld(parse_cards("Qh Kh Ah"), 6, True)
    assert not is_meld(parse_cards("Kh Ah 2h"), 6, True)
    assert not is_meld(parse_cards("4h 5h 5h"), 6, False)
    assert is_meld(parse_cards("5h 5h 5s"), 6, False)


def test_adversarial_hands_are_valid_and_out_when_they_should_be():
    cases = [
        ("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh 2s", 2, ThreeThirteenRules(), 1, 0),
        ("Ah 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah 2s 2d", 2, ThreeThirteenRules(aces="high_or_low"), 2, 0),
        ("JK JK JK JK 2s 2h Kd 5c 9h", 9, ThreeThirteenRules(jokers=True), 2, 0),
        ("Kh Ah 5s", 5, ThreeThirteenRules(aces="high_or_low"), 1, 0),
    ]
    for text, wild, rules, decks, points in cases:
        hand = parse_cards(text)
        result = best_split(hand, wild, rules, decks=decks)
        assert split_problems(result, hand, wild, rules, decks) == []
        assert result.points == points, text


@st.composite
def deals(draw):  # type: ignore[no-untyped-def]
    """Whole hands (3 to 15 cards) from one or two shuffled decks, often wild-heavy."""
    rules = ThreeThirteenRules(
        aces=draw(st.sampled_from(["low", "high_or_low"])),
        jokers=draw(st.booleans()),
    )
    decks = draw(st.sampled_from([1, 2]))
    wild = draw(st.integers(1, 13))
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=4, unique=True))
    pool: list[AnyCard] = [Card(Rank(r), s) for r in range(1, 14) for s in suits] * decks
    pool += [Card(Rank(wild), s) for s in Suit if s not in suits] * decks
    if rules.jokers:
        pool += [JOKER] * (2 * decks)
    size = draw(st.integers(3, min(15, len(pool))))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return [pool[i] for i in picks], wild, rules, decks


@settings(max_examples=examples(500, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_a_wild_card_never_stands_for_a_card_the_decks_cannot_supply(case):
    hand, wild, rules, decks = case
    result = best_split(hand, wild, rules, decks=decks)
    assert split_problems(result, hand, wild, rules, decks) == []


def test_two_wild_cards_in_a_set_never_stand_for_the_one_card_left_of_its_rank():
    result = best_split(parse_cards("Js Jh 2s 2h 2d"), Rank.JACK, decks=1)
    assert str(result) == "2♠ 2♦ 2♥ J♠(2♣) J♥(2) | leftover: none, 0 points"
    two_decks = best_split(parse_cards("Js Jh 2s 2h 2d"), Rank.JACK, decks=2)
    assert str(two_decks.melds[0]) == "2♠ 2♦ 2♥ J♠(2♣) J♥(2♠)"  # the second deck has another 2♣, 2♠ ...


def test_a_wild_card_never_stands_for_a_natural_card_of_its_own_set():
    result = best_split(parse_cards("7s 7h 7d 7c Js"), Rank.JACK, decks=1)
    assert str(result) == "7♠ 7♣ 7♦ 7♥ J♠(7) | leftover: none, 0 points" and result.points == 0
    assert str(best_split(parse_cards("7s 7h 7d 7c Js"), Rank.JACK, decks=2).melds[0]) == "7♠ 7♣ 7♦ 7♥ J♠(7♠)"


def test_a_run_takes_the_held_card_from_a_set_rather_than_stand_for_it():
    # One deck: the 6♥ is held, so the wild card cannot be the 6♥ of the run; the two trade places.
    result = best_split(parse_cards("5h 7h 6h 6s 6c Js"), Rank.JACK, decks=1)
    assert split_problems(result, parse_cards("5h 7h 6h 6s 6c Js"), 11, ThreeThirteenRules(), 1) == []
    assert result.points == 0
