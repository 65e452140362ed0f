"""Tiến lên hands the table tests and the audit both play from."""

from __future__ import annotations

from referee.tienlen import Hand, Setup, TienLenRules


def two_over_bao_who_passed() -> Hand:
    """House rule bomb_after_pass, no opening rule: Ana leads 9s, Bao passes, Chi plays the 2s,
    Dung and Ana pass; the 2 holds the table and Bao, who passed, is on turn."""
    hand = Hand(Setup(("Ana", "Bao", "Chi", "Dung"), TienLenRules(bomb_after_pass=True), 0, False, 13))
    hand.play(0, "9s")
    hand.pass_(1)
    hand.play(2, "2s")
    hand.pass_(3)
    hand.pass_(0)
    return hand
