"""Tiến lên properties: ``check`` against a second, deliberately plain implementation.

The reference below works on rank and suit indices, finds the kind by brute
force over the six shapes and lists the bomb rows one by one; it shares no
code with ``referee.tienlen`` beyond the Card type.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.cards import Card, TooManyCopiesError, format_cards
from referee.tienlen import (
    Combination,
    Hand,
    NotACombinationError,
    Setup,
    TienLenRules,
    check,
    classify,
    parse_combination,
    replay,
)
from referee.tienlen_scores import finished_game_from_hand, score
from tests.sizes import examples

RANKS = "3 4 5 6 7 8 9 10 J Q K A 2".split()
SUITS = "♠♣♦♥"
TWO = 12


_DECK = {(r, s): Card.parse(RANKS[r] + SUITS[s]) for r in range(13) for s in range(4)}


def make(rank: int, suit: int) -> Card:
    return _DECK[rank, suit]


def ri(card: Card) -> int:
    return RANKS.index(card.rank.symbol)


def value(card: Card) -> int:
    return ri(card) * 4 + SUITS.index(card.suit.symbol)


# -- the reference implementation --------------------------------------------------------------


def ref_kind(cards: list[Card], twos_in_sequences: bool) -> str | None:
    """Try each shape in turn; None when no shape fits."""
    n = len(cards)
    ranks = sorted(ri(c) for c in cards)
    if n == 0:
        return None
    if n <= 4 and ranks.count(ranks[0]) == n:
        return ["single", "pair", "triple", "four_of_a_kind"][n - 1]
    low = ranks[0]
    if n >= 3 and ranks == list(range(low, low + n)) and (TWO not in ranks or twos_in_sequences):
        return "sequence"
    if n >= 6 and n % 2 == 0 and TWO not in ranks:
        expected = [low + i // 2 for i in range(n)]
        if ranks == expected:
            return "double_sequence"
    return None


def ref_beats(play: list[Card], table: list[Card], rules: TienLenRules) -> tuple[bool, bool]:
    """(legal, bomb) for two valid combinations, table not empty."""
    pk = ref_kind(play, rules.twos_in_sequences)
    tk = ref_kind(table, rules.twos_in_sequences)
    twos = all(ri(c) == TWO for c in table)
    pairs = len(play) // 2
    if twos and len(table) == 4:
        return False, False
    if twos and len(table) == 1 and pk in ("four_of_a_kind", "double_sequence"):
        return True, True
    if twos and len(table) == 2 and pk == "double_sequence" and pairs >= 4:
        return True, True
    if twos and len(table) == 2 and pk == "four_of_a_kind" and rules.quad_beats_pair_of_twos:
        return True, True
    if twos and len(table) == 3 and pk == "double_sequence" and pairs >= 5:
        return True, True
    if rules.quad_beats_three_pairs and pk == "four_of_a_kind" and tk == "double_sequence" and len(table) == 6:
        return True, True
    if rules.four_pairs_beat_quad and pk == "double_sequence" and pairs >= 4 and tk == "four_of_a_kind":
        return True, True
    if pk == tk and len(play) == len(table):
        return max(map(value, play)) > max(map(value, table)), False
    return False, False


# -- strategies --------------------------------------------------------------------------------

rank_st = st.one_of(st.just(TWO), st.integers(0, TWO), st.integers(9, TWO))


@st.composite
def combos(draw: st.DrawFn) -> list[Card]:
    """Cards that often make a combination, and sometimes do not."""
    shape = draw(st.sampled_from(["same", "same", "seq", "dseq", "dseq", "junk"]))
    if shape == "same":
        rank = draw(rank_st)
        size = draw(st.integers(1, 4))
        suits = draw(st.permutations(range(4)))[:size]
        return [make(rank, s) for s in suits]
    if shape == "seq":
        length = draw(st.integers(2, 6))
        start = draw(st.integers(13 - length - 2, 13 - length) | st.integers(0, 13 - length))
        return [make(start + i, draw(st.integers(0, 3))) for i in range(length)]
    if shape == "dseq":
        pairs = draw(st.integers(2, 6))
        start = draw(st.integers(0, 13 - pairs))
        cards = []
        for i in range(pairs):
            cards += [make(start + i, s) for s in draw(st.permutations(range(4)))[:2]]
        if draw(st.booleans()) and draw(st.integers(0, 5)) == 0:
            cards.pop()  # an unpaired rank
        return cards
    pool = [make(r, s) for r in (0, 1, 2, 3, 10, 11, 12) for s in range(4)]
    return draw(st.lists(st.sampled_from(pool), min_size=0, max_size=6, unique=True))


rules_st = st.builds(
    TienLenRules,
    twos_in_sequences=st.booleans(),
    quad_beats_pair_of_twos=st.booleans(),
    quad_beats_three_pairs=st.booleans(),
    four_pairs_beat_quad=st.booleans(),
)


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=examples(600, 2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(play=combos(), table=combos(), rules=rules_st)
def test_check_agrees_with_the_reference_implementation(play, table, rules):
    if set(play) & set(table):
        with pytest.raises(TooManyCopiesError):
            check(play, table, rules)
        return
    tk = ref_kind(table, rules.twos_in_sequences)
    if table and tk is None:
        with pytest.raises(NotACombinationError):
            check(play, table, rules)
        return
    verdict = check(play, table, rules)
    pk = ref_kind(play, rules.twos_in_sequences)
    if pk is None:
        assert not verdict.legal and verdict.play is None, (format_cards(play), verdict)
        return
    assert verdict.play is not None and verdict.play.kind.value == pk
    if not table:
        assert verdict.legal and not verdict.bomb
        return
    event(f"{'bomb' if verdict.bomb else 'legal' if verdict.legal else 'refused'}: {verdict.reason.template}")
    assert (verdict.legal, verdict.bomb) == ref_beats(play, table, rules), (
        format_cards(play), format_cards(table), rules, str(verdict.reason),
    )


@settings(max_examples=examples(300, 500), deadline=None)
@given(cards=combos(), rules=rules_st)
def test_classify_agrees_with_the_reference_and_round_trips(cards, rules):
    kind = ref_kind(cards, rules.twos_in_sequences)
    if kind is None:
        with pytest.raises(NotACombinationError) as info:
            classify(cards, rules)
        assert str(info.value.reason)
        return
    combo = classify(cards, rules)
    assert combo.kind.value == kind
    assert [value(c) for c in combo.cards] == sorted(value(c) for c in cards)
    assert combo.top == max(cards, key=value)
    assert parse_combination(str(combo), rules) == combo
    namespace = {"Combination": Combination, "TienLenRules": TienLenRules}
    assert eval(repr(combo), namespace) == combo


@settings(max_examples=examples(300, 500), deadline=None)
@given(a=combos(), b=combos(), rules=rules_st)
def test_two_combinations_never_beat_each_other(a, b, rules):
    if set(a) & set(b):
        return
    try:
        ab = check(a, b, rules).legal if b else False
        ba = check(b, a, rules).legal if a else False
    except NotACombinationError:
        return
    assert not (ab and ba)


# -- the state machine under random play -------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(data=st.data(), players=st.integers(2, 4), play_on=st.booleans(), bomb_after_pass=st.booleans())
def test_random_hands_replay_to_the_same_state_and_keep_the_invariants(data, players, play_on, bomb_after_pass):
    rules = TienLenRules(play_on=play_on, bomb_after_pass=bomb_after_pass, first_lead="any")
    setup = Setup(tuple("ABCD"[:players]), rules, leader=data.draw(st.integers(0, players - 1)), hand_size=5)
    hand = Hand(setup)
    for _ in range(40):
        if hand.over:
            break
        seat = hand.turn
        assert seat is not None and seat not in hand.out
        if hand.table is not None and data.draw(st.booleans()):
            hand.pass_(seat)
            continue
        cards = data.draw(combos())
        if not cards or set(cards) & hand.played or len(cards) > hand.cards_left[seat]:
            if hand.table is not None:
                hand.pass_(seat)
            continue
        before = hand.to_dict(), list(hand.log)
        try:
            hand.play(seat, cards)
        except ValueError:
            assert (hand.to_dict(), list(hand.log)) == before  # a refusal changes nothing
            if hand.table is not None:
                hand.pass_(seat)
    assert sum(setup.hand_size - left for left in hand.cards_left) == len(hand.played)
    assert replay(setup, [a.to_dict() for a in hand.log]).to_dict() == hand.to_dict()
    if hand.log:
        assert hand.undo().log == hand.log[:-1]


@settings(max_examples=examples(30, 80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 4), rules=rules_st)
def test_a_followed_hand_gives_facts_that_every_count_check_accepts(data, players, rules):
    """Cards left, frozen seats and chops of a hand really played agree with each other
    (RULES.md: every count must agree), so the checks of a game typed by hand never refuse one."""
    rules = dataclasses.replace(rules, first_lead="any")
    hand = Hand(Setup(tuple("ABCD"[:players]), rules, leader=data.draw(st.integers(0, players - 1))))
    for _ in range(300):
        if hand.over:
            break
        seat = hand.turn
        assert seat is not None
        cards = data.draw(combos())
        if not cards or set(cards) & hand.played or len(cards) > hand.cards_left[seat] or not hand.can_play(seat, cards):
            if hand.table is not None:
                hand.pass_(seat)
            continue
        hand.play(seat, cards)
    event(f"over: {hand.over}, chops: {sum(len(c) for c in hand.chops)}")
    if hand.over:
        game = finished_game_from_hand(hand)
        assert sum(score(game).points) == 0
