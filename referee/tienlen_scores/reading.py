"""Reading a game's facts: cards, seats and the JSON API's fields, each mistake a :class:`ScoreInputError`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.cards import Card, NotationError, parse_cards
from referee.text import Message, message
from referee.tienlen import Chop, card_power
from referee.tienlen_scores.errors import NoSuchSeatError, ScoreInputError

__all__ = ['check_players', 'who', 'read_cards', 'leftover_from', 'int_list', 'chop_step']

def check_players(count: object) -> None:
    """Raise unless a game of ``count`` players can be scored (2 to 4).

    >>> check_players(5)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.NoSuchSeatError: Tiến lên is scored for 2 to 4 players, not 5
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
        raise NoSuchSeatError(message("Tiến lên is scored for 2 to 4 players, not {count}", count=repr(count)))


def who(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def read_cards(value: str | Iterable[Card], what: Message, seat: int | None = None) -> tuple[Card, ...]:
    try:
        found = parse_cards(value) if isinstance(value, str) else tuple(value)
    except NotationError as exc:
        raise ScoreInputError(message("{what}: {why}", what=what, why=exc.reason), seat=seat) from None
    cards: list[Card] = []
    for card in found:
        if not isinstance(card, Card):
            raise ScoreInputError(message("{what}: {card} is not in a Tiến lên deck", what=what, card=card),
                                  seat=seat)
        cards.append(card)
    return tuple(sorted(cards, key=card_power))  # a card given twice stays twice, to be named


def leftover_from(leftover: object, names: Sequence[str], what: str = "leftover"
                   ) -> tuple[tuple[Card, ...] | None, ...] | None:
    """The ``leftover`` (or ``caught``) field read: null, or per seat null or the cards (text
    or a list of cards)."""
    if leftover is None:
        return None
    wrong = (message("leftover must be a list with null or the cards for each player") if what == "leftover"
             else message("caught must be a list with null or the cards for each player"))
    if not isinstance(leftover, list):
        raise ScoreInputError(wrong)
    cleaned: list[tuple[Card, ...] | None] = []
    for seat, value in enumerate(leftover):
        label = (message("{player}'s leftover cards", player=who(seat, names)) if what == "leftover"
                 else message("{player}'s caught cards", player=who(seat, names)))
        if value is None:
            cleaned.append(None)
        elif isinstance(value, str):
            cleaned.append(read_cards(value, label))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            cleaned.append(read_cards(" ".join(value), label))
        else:
            raise ScoreInputError(wrong)
    return tuple(cleaned)


def int_list(value: object, text: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ScoreInputError(Message(text))
    return tuple(value)


def chop_step(step: object, names: Sequence[str]) -> tuple[Chop, bool]:
    """One bomb of a chain from JSON, and whether it fell after the first player went out."""
    if not isinstance(step, dict):
        raise ScoreInputError(message("each bomb of a chain is an object with by, from and maybe twos"))
    unknown = sorted(set(step) - {"by", "from", "twos", "after_out"})
    if unknown:
        raise ScoreInputError(message("a bomb of a chain has by, from, twos and after_out, not {key}",
                                      key=repr(unknown[0])))
    after_out = step.get("after_out", False)
    if not isinstance(after_out, bool):
        raise ScoreInputError(message("after_out is true or false, not {value}", value=repr(after_out)))
    for key in ("by", "from"):
        value = step.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoreInputError(message("each bomb of a chain needs {key}: a seat", key=repr(key)))
    twos = step.get("twos") or ""
    if not isinstance(twos, str):
        raise ScoreInputError(message("twos must be the chopped 2s written as cards"))
    return Chop(step["by"], step["from"], read_cards(twos, message("the 2s {player} chopped",
                                                                     player=who(step["by"], names)))), after_out
