"""Referee sentences (referee.text.Message): equal by their template and their blanks."""

from referee import trece
from referee.text import message


def test_two_verdicts_naming_different_cards_are_different_verdicts():
    assert trece.check_play("J♦", "7♣") != trece.check_play("J♦", "8♣")
    assert trece.check_play("J♦", "7♣").reason != trece.check_play("J♦", "8♣").reason
    assert trece.check_play("J♦", "7♣") == trece.check_play("J♦", "7♣")


def test_a_message_hashes_with_its_blanks_so_sets_and_dicts_tell_them_apart():
    same = message("{cards} fit no set or run", cards=["5♥", "6♠"])
    assert len({same, message("{cards} fit no set or run", cards=["5♥", "6♠"])}) == 1
    assert len({same, message("{cards} fit no set or run", cards=["5♥", "7♠"])}) == 2
    nested = message("seat {seat}: {why}", seat=1, why=same)
    assert nested == message("seat {seat}: {why}", seat=1, why=message("{cards} fit no set or run", cards=["5♥", "6♠"]))
