"""Tiến lên: card order, combinations, verdicts, bombs and house-rule switches."""

from __future__ import annotations

import pytest

from referee.cards import Card, NotationError, TooManyCopiesError, parse_cards
from referee.errors import RefereeError
from referee.switches import SwitchError, rules_from_mapping
from referee.text import message
from referee.tienlen import (
    Combination,
    Kind,
    NotACombinationError,
    TienLenRules,
    Verdict,
    beats,
    card_power,
    check,
    classify,
    kind_name,
    parse_combination,
    rank_power,
    sort_cards,
)

TWOS_IN_SEQ = TienLenRules(twos_in_sequences=True)


def reason(play: str, table: str = "", rules: TienLenRules | None = None, **kw: bool) -> str:
    return str(check(play, table, rules, **kw).reason)


def why_not(cards: str, rules: TienLenRules | None = None) -> str:
    with pytest.raises(NotACombinationError) as info:
        classify(cards, rules)
    return str(info.value.why)


# -- card order ------------------------------------------------------------------------------


def test_two_is_the_highest_rank_and_three_the_lowest():
    ranks = [c.rank.symbol for c in sort_cards("2s As Ks 10s 3s 9s")]
    assert ranks == ["3", "9", "10", "K", "A", "2"]
    assert rank_power(Card.parse("2s").rank) == 12


def test_suits_order_spades_clubs_diamonds_hearts():
    assert [str(c) for c in sort_cards("5h 5s 5d 5c")] == ["5♠", "5♣", "5♦", "5♥"]


def test_rank_matters_more_than_suit():
    assert card_power(Card.parse("5s")) > card_power(Card.parse("4h"))


def test_card_power_runs_from_three_of_spades_to_two_of_hearts():
    powers = sorted(card_power(c) for c in parse_cards("3s 2h 7d"))
    assert powers[0] == 0 and powers[-1] == 51


def test_a_joker_is_not_a_tienlen_card():
    with pytest.raises(TooManyCopiesError, match="RJ"):
        classify("3s RJ")
    with pytest.raises(TooManyCopiesError, match="JK"):
        check("3s", "JK")


def test_a_card_given_twice_is_refused_naming_it():
    with pytest.raises(TooManyCopiesError, match="3♠"):
        classify("3s 3s")


def test_bad_notation_is_a_notation_error():
    with pytest.raises(NotationError):
        check("3x")


# -- kinds and combinations ------------------------------------------------------------------


def test_kind_values_are_the_api_strings():
    assert [k.value for k in Kind] == [
        "single", "pair", "triple", "four_of_a_kind", "sequence", "double_sequence",
    ]
    assert kind_name(Kind.DOUBLE_SEQUENCE) == "double sequence"
    assert Kind.parse("four of a kind") is Kind.FOUR_OF_A_KIND
    with pytest.raises(ValueError):
        Kind.parse("flush")


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("9h", Kind.SINGLE),
        ("9h 9s", Kind.PAIR),
        ("9h 9s 9c", Kind.TRIPLE),
        ("9h 9s 9c 9d", Kind.FOUR_OF_A_KIND),
        ("2h 2s 2c 2d", Kind.FOUR_OF_A_KIND),
        ("4s 5h 6c", Kind.SEQUENCE),
        ("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As", Kind.SEQUENCE),
        ("3s 3h 4s 4h 5c 5d", Kind.DOUBLE_SEQUENCE),
        ("Js Jh Qs Qh Kc Kd As Ah", Kind.DOUBLE_SEQUENCE),
    ],
)
def test_the_six_kinds_of_combination(cards, kind):
    assert classify(cards).kind is kind


def test_combination_cards_are_sorted_in_game_order_and_top_is_highest():
    combo = parse_combination("Kh Ks Kd Kc")
    assert [str(c) for c in combo.cards] == ["K♠", "K♣", "K♦", "K♥"] and str(combo.top) == "K♥"
    seq = parse_combination("As Qh Kc")
    assert [str(c) for c in seq.cards] == ["Q♥", "K♣", "A♠"] and str(seq.top) == "A♠"


def test_parser_accepts_suit_first_symbols():
    assert parse_combination("♣5♥5").cards == parse_cards("5c 5h")
    assert parse_combination("♣5♥6♦7").kind is Kind.SEQUENCE


def test_combination_repr_is_executable():
    for combo in (parse_combination("5c 5h"), parse_combination("Qs Ks As 2s", TWOS_IN_SEQ)):
        assert eval(repr(combo), {"Combination": Combination, "TienLenRules": TienLenRules}) == combo


def test_combination_properties():
    seq = parse_combination("7s 5h 6c 8d")
    assert str(seq) == "5♥ 6♣ 7♠ 8♦" and str(seq.top) == "8♦"
    assert seq.length == 4 and seq.pairs == 0 and seq.is_sequence and not seq.is_bomb
    dseq = parse_combination("3s 3h 4s 4h 5c 5d 6s 6h")
    assert dseq.pairs == 4 and dseq.is_bomb and dseq.is_double_sequence
    quad = parse_combination("9s 9h 9c 9d")
    assert quad.is_bomb and quad.is_four_of_a_kind and not quad.is_twos
    assert parse_combination("2s 2h 2c").is_twos and parse_combination("2s 2h 2c").name == "three 2s"
    assert dseq.to_dict() == {"kind": "double_sequence", "cards": str(dseq), "top": "6♥"}


def test_combination_constructor_checks_the_kind():
    assert Combination(Kind.PAIR, parse_cards("5h 5c")).cards == parse_cards("5c 5h")
    with pytest.raises(ValueError, match="not a triple"):
        Combination(Kind.TRIPLE, parse_cards("5h 5c"))
    with pytest.raises(NotACombinationError):
        Combination(Kind.PAIR, parse_cards("5h 6c"))


# -- refusals: why cards make no combination ---------------------------------------------------


def test_a_two_can_never_be_part_of_a_sequence():
    assert why_not("Qs Ks As 2s") == "a 2 can never be part of a sequence"
    assert why_not("As 2s 3s") == "a 2 can never be part of a sequence"


def test_switch_twos_in_sequences_lets_a_two_end_a_sequence():
    combo = classify("Qs Ks As 2s", TWOS_IN_SEQ)
    assert combo.kind is Kind.SEQUENCE and str(combo.top) == "2♠"
    assert classify("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s", TWOS_IN_SEQ).length == 13


def test_a_sequence_never_wraps_even_with_twos_in_sequences():
    assert why_not("Ks As 2s 3s", TWOS_IN_SEQ) == "a sequence cannot wrap round from 2 to 3"
    assert why_not("2s 3s 4s", TWOS_IN_SEQ) == "a sequence cannot wrap round from 2 to 3"


def test_a_two_can_never_be_part_of_a_double_sequence_even_with_twos_in_sequences():
    for rules in (None, TWOS_IN_SEQ):
        assert why_not("Ks Kh As Ah 2s 2h", rules) == "a 2 can never be part of a double sequence"


def test_ranks_must_be_consecutive():
    assert why_not("4s 6h 5c 8d") == "ranks 6 and 8 are not consecutive"
    assert why_not("4s 4h 6s 6h 7s 7h") == "ranks 4 and 6 are not consecutive"
    assert why_not("Qs Ks 2s", TWOS_IN_SEQ) == "ranks K and 2 are not consecutive"


def test_two_cards_of_different_ranks_are_not_a_pair():
    assert why_not("4s 6h") == "two cards of different ranks are not a pair"
    assert why_not("As 2h") == "two cards of different ranks are not a pair"


def test_a_sequence_needs_at_least_three_cards():
    assert why_not("4s 5h") == "a sequence needs at least three cards"
    assert why_not("As 2h", TWOS_IN_SEQ) == "a sequence needs at least three cards"


def test_a_double_sequence_needs_at_least_three_pairs():
    assert why_not("4s 4h 5s 5h") == "a double sequence needs at least three pairs"


def test_a_double_sequence_needs_every_rank_paired():
    assert why_not("3s 3h 4s") == "rank 4 is not paired: a double sequence needs two cards of every rank"
    assert why_not("3s 3h 4s 4h 5s") == "rank 5 is not paired: a double sequence needs two cards of every rank"


def test_three_or_four_of_a_rank_do_not_mix_with_other_ranks():
    assert why_not("3s 3h 3c 4s") == "3 cards of rank 3 fit no combination with other ranks"
    assert why_not("3s 3h 3c 3d 4s 4h") == "4 cards of rank 3 fit no combination with other ranks"


def test_no_cards_is_not_a_combination():
    assert why_not("") == "a play needs at least one card"


def test_not_a_combination_error_carries_the_cards_and_reason():
    with pytest.raises(NotACombinationError) as info:
        classify("6h 4s")
    assert info.value.cards == parse_cards("4s 6h")
    assert str(info.value) == "4♠ 6♥ is not a combination: two cards of different ranks are not a pair"
    assert isinstance(info.value, RefereeError)
    assert info.value.reason == message(
        "{cards} is not a combination: {why}", cards=parse_cards("4s 6h"),
        why=message("two cards of different ranks are not a pair"),
    )


# -- the ordinary beating rule -----------------------------------------------------------------


def test_anything_may_be_led_on_an_empty_table():
    verdict = check("3s 3h 4s 4h 5c 5d")
    assert verdict.legal and verdict.table is None and not verdict.bomb
    assert str(verdict.reason) == "any combination may be led on an empty table"


def test_seed_example_pair_beats_pair_by_its_highest_card():
    verdict = check("♣5♥5", "♦5♠5")
    assert verdict.legal and str(verdict.reason) == "the highest card decides: 5♥ is higher than 5♦"


def test_seed_example_sequence_beats_sequence_by_its_highest_card():
    assert check("♣5♥6♦7", "♦5♦6♣7").legal
    assert not check("♦5♦6♣7", "♣5♥6♦7").legal


def test_any_higher_rank_beats_a_lower_rank_whatever_the_suits():
    assert check("6s 6c", "5d 5h").legal
    assert check("6s 7s 8s", "5h 6h 7h").legal


def test_a_lower_card_does_not_beat_a_higher_one():
    verdict = check("8s", "8h")
    assert not verdict.legal and str(verdict.reason) == "8♠ is lower than 8♥"


def test_a_single_two_beats_a_lower_two():
    assert check("2h", "2s").legal and not check("2h", "2s").bomb


def test_a_play_must_be_the_same_kind():
    assert reason("3s 3h", "9h") == "a single card must be beaten by a single card"
    assert reason("3s", "9h 9s") == "a pair must be beaten by a pair"
    assert reason("As Ac", "9h 9s 9d") == "a triple must be beaten by a triple"
    assert reason("4s 5s 6s", "9h 9s 9d 9c") == "four of a kind must be beaten by a higher four of a kind"
    assert reason("Ks", "3s 4s 5s") == "a sequence must be beaten by a sequence"
    assert reason("Ks Kh", "3s 3h 4s 4h 5s 5h") == "a double sequence must be beaten by a double sequence"


def test_a_sequence_must_be_beaten_by_a_sequence_of_the_same_length():
    assert reason("4s 5s 6s 7s", "3h 4h 5h") == (
        "a sequence must be beaten by a sequence of the same length: 4 cards on 3"
    )


def test_a_double_sequence_of_more_pairs_does_not_beat_fewer_pairs():
    verdict = check("6s 6h 7s 7h 8s 8h 9s 9h", "3s 3h 4s 4h 5s 5h")
    assert not verdict.legal
    assert str(verdict.reason) == (
        "a double sequence must be beaten by a double sequence of the same length: 4 pairs on 3"
    )


def test_a_higher_double_sequence_of_the_same_pairs_beats_a_double_sequence():
    assert check("4s 4h 5s 5h 6s 6h", "3s 3h 4c 4d 5c 5d").legal


def test_twos_in_sequences_a_sequence_ending_in_two_beats_one_ending_in_ace():
    assert check("Qs Ks As 2s", "Jh Qh Kh Ah", TWOS_IN_SEQ).legal
    assert not check("Qs Ks As 2s", "Jh Qh Kh Ah").legal  # not a combination by default


def test_a_play_that_is_not_a_combination_gets_a_verdict_not_an_error():
    verdict = check("4s 6h", "3s 3h")
    assert not verdict.legal and verdict.play is None and verdict.table is not None
    assert str(verdict.reason) == "two cards of different ranks are not a pair"


def test_a_table_that_is_not_a_combination_is_an_error():
    with pytest.raises(NotACombinationError, match="the table 4♠ 6♥ is not a combination") as info:
        check("3s", "4s 6h")
    assert info.value.where == "table"
    assert info.value.reason.template == "the table {cards} is not a combination: {why}"


def test_a_card_on_the_table_and_in_the_play_is_an_error_naming_it():
    with pytest.raises(TooManyCopiesError, match="5♥ is both on the table and in the play") as info:
        check("5h 5c", "5h 5s")
    assert info.value.card == Card.parse("5h")


def test_verdict_is_frozen_and_serialisable():
    verdict = check("2h", "2s")
    assert isinstance(verdict, Verdict)
    with pytest.raises(AttributeError):
        verdict.legal = False  # type: ignore[misc]
    assert verdict.to_dict()["reason"] == "2♥ is higher than 2♠"
    assert str(verdict) == "legal: 2♥ is higher than 2♠"


# -- the opening rule --------------------------------------------------------------------------


def test_first_play_must_contain_the_three_of_spades():
    assert reason("4s 4h", first_play=True) == "the first play of the game must contain the 3♠"
    assert not check("4s 4h", first_play=True).legal
    assert check("3s 4h 5c", first_play=True).legal
    assert check("3s", first_play=True).legal


def test_first_lead_three_spades_alone():
    rules = TienLenRules(first_lead="three_spades_alone")
    assert check("3s", rules=rules, first_play=True).legal
    assert reason("3s 3h", rules=rules, first_play=True) == "the first play of the game must be the 3♠ alone"


def test_first_lead_any_has_no_opening_rule():
    assert check("9h 9s", rules=TienLenRules(first_lead="any"), first_play=True).legal


def test_the_opening_rule_applies_only_to_the_first_play():
    assert check("4s 4h").legal


def test_first_play_on_a_table_is_a_caller_error():
    with pytest.raises(ValueError, match="empty table"):
        check("4s", "3s", first_play=True)


# -- bombs -------------------------------------------------------------------------------------

QUAD = "9s 9c 9d 9h"
DSEQ3 = "3s 3h 4s 4h 5s 5h"
DSEQ4 = "6s 6h 7s 7h 8s 8h 9s 9h"
DSEQ5 = "6s 6h 7s 7h 8s 8h 9s 9h 10s 10h"


def test_four_of_a_kind_bombs_a_single_two():
    verdict = check(QUAD, "2h")
    assert verdict.legal and verdict.bomb
    assert str(verdict.reason) == "four of a kind bombs a single 2"


def test_double_sequence_of_three_pairs_bombs_a_single_two():
    verdict = check(DSEQ3, "2h")
    assert verdict.legal and verdict.bomb
    assert str(verdict.reason) == "a double sequence of 3 pairs bombs a single 2"


def test_longer_double_sequences_bomb_a_single_two_too():
    assert check(DSEQ4, "2h").legal and check(DSEQ5, "2h").legal


def test_a_single_two_is_not_beaten_by_other_kinds():
    verdict = check("As Ah", "2h")
    assert not verdict.legal
    assert str(verdict.reason) == (
        "a single 2 is beaten only by a higher 2, four of a kind or a double sequence of 3 or more pairs"
    )


def test_double_sequence_of_four_pairs_beats_a_pair_of_twos():
    verdict = check(DSEQ4, "2s 2h")
    assert verdict.legal and verdict.bomb
    assert str(verdict.reason) == "a double sequence of 4 pairs beats a pair of 2s"
    assert check(DSEQ5, "2s 2h").legal


def test_double_sequence_of_three_pairs_does_not_beat_a_pair_of_twos():
    assert reason(DSEQ3, "2s 2h") == (
        "a pair of 2s is beaten only by a double sequence of 4 or more pairs, not 3"
    )


def test_four_of_a_kind_does_not_beat_a_pair_of_twos_by_default():
    verdict = check(QUAD, "2s 2h")
    assert not verdict.legal
    assert str(verdict.reason) == (
        "four of a kind bombs only a single 2 (a pair of 2s needs house rule “Four of a kind on a pair of 2s”)"
    )


def test_switch_quad_beats_pair_of_twos():
    verdict = check(QUAD, "2s 2h", TienLenRules(quad_beats_pair_of_twos=True))
    assert verdict.legal and verdict.bomb


def test_a_pair_of_twos_is_not_beaten_by_other_kinds():
    assert reason("As Ah Ac", "2s 2h") == (
        "a pair of 2s is beaten only by a higher pair of 2s or a double sequence of 4 or more pairs"
    )
    assert check("2c 2d", "2s 2h").legal is False  # 2♦ is lower than 2♥
    assert check("2c 2h", "2s 2d").legal


def test_double_sequence_of_five_pairs_beats_three_twos():
    verdict = check(DSEQ5, "2s 2c 2h")
    assert verdict.legal and verdict.bomb
    assert str(verdict.reason) == "a double sequence of 5 pairs beats three 2s"


def test_shorter_double_sequences_and_quads_do_not_beat_three_twos():
    assert reason(DSEQ4, "2s 2c 2h") == (
        "three 2s are beaten only by a double sequence of 5 or more pairs, not 4"
    )
    assert reason(QUAD, "2s 2c 2h") == "three 2s are beaten only by a double sequence of 5 or more pairs"
    assert not check(QUAD, "2s 2c 2h", TienLenRules(quad_beats_pair_of_twos=True)).legal


def test_nothing_beats_four_twos():
    all_on = TienLenRules(quad_beats_pair_of_twos=True, quad_beats_three_pairs=True, four_pairs_beat_quad=True)
    for play in (DSEQ5, "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h", "As"):
        for rules in (None, all_on):
            verdict = check(play, "2s 2c 2d 2h", rules)
            assert not verdict.legal and str(verdict.reason) == "nothing beats four 2s"


def test_a_higher_four_of_a_kind_beats_a_four_of_a_kind():
    verdict = check("10s 10c 10d 10h", QUAD)
    assert verdict.legal and not verdict.bomb  # same kind: the ordinary rule
    assert not check("8s 8c 8d 8h", QUAD).legal


def test_a_bomb_double_sequence_is_beaten_by_one_of_the_same_pairs_with_a_higher_top():
    assert check("4c 4d 5c 5d 6s 6h", DSEQ3).legal
    assert not check("7s 7h 8s 8h 9s 9h 10s 10h", DSEQ3).legal


def test_a_double_sequence_does_not_beat_four_of_a_kind_by_default():
    assert reason(DSEQ4, "Js Jc Jd Jh") == (
        "a double sequence of 4 pairs beats four of a kind only with house rule “Four pairs on four of a kind”"
    )


def test_switch_four_pairs_beat_quad():
    rules = TienLenRules(four_pairs_beat_quad=True)
    verdict = check(DSEQ4, "Js Jc Jd Jh", rules)
    assert verdict.legal and verdict.bomb
    assert check(DSEQ5, "Js Jc Jd Jh", rules).legal
    assert reason(DSEQ3, "Js Jc Jd Jh", rules) == "only a double sequence of 4 or more pairs beats four of a kind"


def test_four_of_a_kind_does_not_beat_a_double_sequence_by_default():
    assert reason(QUAD, DSEQ3) == (
        "four of a kind beats a double sequence of 3 pairs only with house rule “Four of a kind on three pairs”"
    )


def test_switch_quad_beats_three_pairs():
    rules = TienLenRules(quad_beats_three_pairs=True)
    verdict = check(QUAD, DSEQ3, rules)
    assert verdict.legal and verdict.bomb
    assert check("3c 3d 3s 3h", "4s 4h 5s 5h 6s 6h", rules).legal  # any four of a kind
    assert reason(QUAD, "3s 3h 4s 4h 5s 5h 6s 6h", rules) == "four of a kind does not beat a double sequence of 4 pairs"


def test_bombs_only_beat_twos_not_other_high_singles():
    assert reason(QUAD, "Ah") == "a single card must be beaten by a single card"
    assert reason(DSEQ4, "As Ah") == "a pair must be beaten by a pair"


def test_beats_agrees_with_check():
    assert beats(classify(QUAD), classify("2h"))
    assert not beats(classify(QUAD), classify("2s 2h"))
    assert beats(classify(QUAD), classify("2s 2h"), TienLenRules(quad_beats_pair_of_twos=True))


# -- the rules object --------------------------------------------------------------------------


def test_rules_field_names_are_the_switch_ids():
    assert list(TienLenRules().to_dict()) == [
        "twos_in_sequences", "first_lead", "quad_beats_pair_of_twos", "quad_beats_three_pairs",
        "four_pairs_beat_quad", "bomb_after_pass", "play_on", "instant_wins",
    ]
    assert TienLenRules.CHOICES["first_lead"] == ("contains_3s", "three_spades_alone", "any")


def test_rules_from_mapping_reads_form_values():
    rules = rules_from_mapping(TienLenRules, {"twos_in_sequences": "on", "first_lead": "any"})
    assert rules.twos_in_sequences and rules.first_lead == "any"
    assert rules_from_mapping(TienLenRules, rules.to_dict()) == rules


def test_rules_refuse_unknown_switches_and_bad_values():
    with pytest.raises(SwitchError, match="unknown house rule"):
        rules_from_mapping(TienLenRules, {"twos": True})
    with pytest.raises(SwitchError, match="first_lead"):
        rules_from_mapping(TienLenRules, {"first_lead": "lowest"})
    with pytest.raises(SwitchError, match="play_on"):
        TienLenRules(play_on="yes")  # type: ignore[arg-type]


def test_rules_are_frozen_and_keyword_only():
    with pytest.raises(TypeError):
        TienLenRules(True)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        TienLenRules().play_on = True  # type: ignore[misc]
