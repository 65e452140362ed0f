"""Card notation: every form in RULES.md, round trips, and errors that name the bad piece."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import (
    BLACK_JOKER,
    JOKER,
    RED_JOKER,
    Card,
    Joker,
    NotationError,
    Rank,
    Suit,
    TooManyCopiesError,
    card_name,
    check_copies,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)

TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize("text", ["10♥", "10h", "TH", "th", "10H", "T♡", "♥10", "♡T", "10♥\ufe0f"])
def test_every_way_of_writing_ten_of_hearts(text):
    assert parse_card(text) == TEN_OF_HEARTS


@pytest.mark.parametrize(
    ("text", "suit"),
    [("qs", Suit.SPADES), ("Q♠", Suit.SPADES), ("Q♤", Suit.SPADES), ("Q♧", Suit.CLUBS),
     ("Qc", Suit.CLUBS), ("Q♢", Suit.DIAMONDS), ("QD", Suit.DIAMONDS), ("Q♡", Suit.HEARTS)],
)
def test_suits_as_symbols_white_symbols_or_letters(text, suit):
    assert parse_card(text) == Card(Rank.QUEEN, suit)


@pytest.mark.parametrize(("text", "joker"), [("JK", JOKER), ("jk", JOKER), ("RJ", RED_JOKER), ("bj", BLACK_JOKER)])
def test_jokers(text, joker):
    assert parse_card(text) == joker
    assert isinstance(parse_card(text), Joker)


@pytest.mark.parametrize("text", ["3s 3c 4d", "3s,3c,4d", "3s3c4d", "3♠, 3♣ 4♦", " 3s ;3c\t4d\n"])
def test_lists_separated_by_spaces_commas_or_nothing(text):
    assert format_cards(parse_cards(text)) == "3♠ 3♣ 4♦"


def test_suit_first_as_the_seeds_write_it():
    assert parse_cards("♣5♥5") == parse_cards("5c 5h")


def test_jokers_inside_a_list_without_spaces():
    assert parse_cards("qsJK10hRJ") == (Card.parse("qs"), JOKER, TEN_OF_HEARTS, RED_JOKER)


@pytest.mark.parametrize(
    ("text", "piece", "position"),
    [("3s 1x", "1x", 2), ("zz", "zz", 1), ("3s 4s 5", "5", 3), ("3s, 11h", "11h", 2), ("3s3c4x", "4x", 3),
     ("3s 4s 5s 6s JJ", "JJ", 5)],
)
def test_bad_notation_names_the_piece_and_its_position(text, piece, position):
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert info.value.piece == piece
    assert info.value.position == position
    assert repr(piece) in str(info.value) and f"position {position}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_rank_without_a_suit_says_so():
    with pytest.raises(NotationError, match="no suit"):
        parse_cards("3s 7")


def test_a_second_three_of_spades_with_one_deck_is_named():
    with pytest.raises(TooManyCopiesError) as info:
        check_copies(parse_cards("3s 4h 3♠"), decks=1)
    assert info.value.card == Card.parse("3s")
    assert "3♠" in str(info.value)


def test_twins_are_fine_with_two_decks_but_not_triplets():
    check_copies(parse_cards("9h 9h"), decks=2)
    with pytest.raises(TooManyCopiesError, match="9♥"):
        check_copies(parse_cards("9h 9h 9h"), decks=2)


def test_a_joker_where_the_game_has_none_is_named():
    with pytest.raises(TooManyCopiesError, match="RJ"):
        check_copies(parse_cards("3s RJ"))
    check_copies(parse_cards("RJ BJ"), jokers={RED_JOKER: 1, BLACK_JOKER: 1})
    with pytest.raises(TooManyCopiesError, match="JK"):
        check_copies(parse_cards("JK JK JK"), decks=1, jokers={JOKER: 2})


def test_every_card_round_trips_in_symbols_and_in_ascii():
    deck = (*full_deck(), JOKER, RED_JOKER, BLACK_JOKER)
    assert len(set(deck)) == 55
    for card in deck:
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card, ascii=True)) == card
        assert eval(repr(card), {"Card": Card, "Joker": Joker}) == card


cards = st.sampled_from((*full_deck(), JOKER, RED_JOKER, BLACK_JOKER))


@given(st.lists(cards, max_size=20), st.sampled_from([" ", ",", ", ", ""]), st.booleans())
def test_print_then_parse_gives_back_the_same_cards(hand, sep, ascii):
    assert parse_cards(format_cards(hand, sep=sep, ascii=ascii)) == tuple(hand)


def test_natural_order_is_rank_then_suit_with_jokers_last():
    assert sorted(parse_cards("RJ Kh As 2c Ah"), key=lambda c: (c.is_joker, c)) == list(parse_cards("As Ah 2c Kh RJ"))
