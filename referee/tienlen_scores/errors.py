"""Mistakes in a finished game's facts: one :class:`ScoreError` subclass per kind of mistake."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee.cards import Card
from referee.errors import RefereeError
from referee.text import Message

__all__ = ['ScoreError', 'ScoreInputError', 'NoSuchSeatError', 'CardsLeftError', 'CardTwiceError', 'PlayedCardError', 'ChopChainError', 'OrderError', 'InstantWinError', 'about']

class ScoreError(RefereeError):
    """Facts of a finished game that cannot be scored; ``reason`` is the :class:`Message`, ``seat``
    the seat it is about (when it is about one)."""

    def __init__(self, reason: Message, *, seat: int | None = None) -> None:
        self.seat = seat
        #: The field of the game's facts at fault (``cards_left``, ``frozen``, ...) when one is.
        self.field: str | None = None
        super().__init__(reason)


@contextmanager
def about(field: str) -> Iterator[None]:
    """A mistake found inside names ``field`` as the one at fault (unless it named one already)."""
    try:
        yield
    except ScoreError as exc:
        if exc.field is None:
            exc.field = field
        raise


class ScoreInputError(ScoreError):
    """A field that is missing or not the right shape (JSON or form)."""


class NoSuchSeatError(ScoreError):
    """A seat that is not at the table, or a number of players the game is not played by."""


class CardsLeftError(ScoreError):
    """Cards left that disagree: a winner with cards, a count out of range, leftover cards of another count."""


class CardTwiceError(ScoreError):
    """A card given twice across the table (leftovers and chopped 2s); ``card`` names it."""

    def __init__(self, card: Card, reason: Message, *, seat: int | None = None) -> None:
        self.card = card
        super().__init__(reason, seat=seat)


class PlayedCardError(ScoreError):
    """Leftover cards that contradict a followed game: a card played (or not dealt), or one missing."""

    def __init__(self, card: Card, reason: Message, *, seat: int | None = None) -> None:
        self.card = card
        super().__init__(reason, seat=seat)


class ChopChainError(ScoreError):
    """A chop chain that cannot have happened: ``twos`` that are not 2s, a broken chain."""


class OrderError(ScoreError):
    """A finishing order that is not every seat once starting with the winner, or missing for ``places``."""


class InstantWinError(ScoreError):
    """An instant win the switches or the other facts contradict."""
