"""Trece games the state tests and the audit both start from: a fresh two-player table, its
cards counted, and the position where Ben holds his last card."""

from __future__ import annotations

from referee.cards import Card
from referee.trece import Setup, State


def new_game(turned: str = "J♦", **kw: object) -> State:
    """Ana and Ben's table, ``turned`` the card turned up (the setup's other fields in ``kw``)."""
    return State(Setup(("Ana", "Ben"), Card.parse(turned), **kw))  # type: ignore[arg-type]


def total(game: State) -> int:
    """Every card of the game: the hands, the stock and the pile."""
    return sum(game.counts) + game.stock + len(game.pile)


def ben_down_to_one() -> State:
    """Ben plays 7, Ana 9, Ben 5: Ben holds one card, Ana four, Ana's turn; top 6♦."""
    game = new_game()
    game.play(None, "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")
    game.play(None, "9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♣")
    game.play(None, "2♦ 3♦ 4♦ 5♦ 6♦")
    assert game.counts == (4, 1) and game.turn_name == "Ana"
    return game
