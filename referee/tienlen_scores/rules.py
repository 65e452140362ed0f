"""The amounts of a scoring table: :class:`ScoreRules`, whose field names are the switch ids of RULES.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.switches import SwitchError, rules_to_dict
from referee.text import Message, message

__all__ = ['HAND_SIZE', 'ITEMS', 'AMOUNT_MAX', 'FROZEN_MAX', 'ScoreSwitchError', 'ScoreRules', 'DEFAULT_SCORE_RULES']

HAND_SIZE = 13
#: The items a payment is for (the JSON API's ``item`` values).
ITEMS = ("cards", "places", "frozen", "caught", "chop", "instant")
AMOUNT_MAX = 1000
FROZEN_MAX = 10


class ScoreSwitchError(SwitchError):
    """A score switch with a value it does not take; ``reason`` is the :class:`Message`."""

    def __init__(self, switch: str, value: object, reason: Message) -> None:
        self.value = value
        super().__init__(switch, reason)


@dataclass(frozen=True, kw_only=True)
class ScoreRules:
    """The amounts of a scoring table; field names are the switch ids of RULES.md.

    ``play_on`` and ``instant_wins`` are the game's switches that scoring needs.

    >>> from referee.switches import rules_from_mapping
    >>> rules_from_mapping(ScoreRules, {"score_by": "places", "play_on": "on", "frozen": "3"}).frozen
    3
    >>> ScoreRules(chop_red=-1)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: the amount chop_red is a whole number from 0 to 1000, not -1
    >>> ScoreRules(frozen=0)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: frozen multiplies what a frozen player pays: a whole number from 1 to 10, not 0
    >>> ScoreRules(score_by="places")
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.ScoreSwitchError: score_by places needs the finishing order: turn on play_on
    """

    score_by: str = "cards"
    first_stake: int = 2
    second_stake: int = 1
    frozen: int = 2
    two_left_black: int = 1
    two_left_red: int = 2
    bomb_left: int = 4
    chop_black: int = 1
    chop_red: int = 2
    chop_bomb: int = 2
    instant_stake: int = 26
    play_on: bool = False
    instant_wins: bool = False

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"score_by": ("cards", "places")}
    #: The whole-point amounts (0 turns the item off); ``frozen`` is a multiplier.
    AMOUNTS: ClassVar[tuple[str, ...]] = (
        "first_stake", "second_stake", "two_left_black", "two_left_red", "bomb_left",
        "chop_black", "chop_red", "chop_bomb", "instant_stake",
    )

    def __post_init__(self) -> None:
        if self.score_by not in self.CHOICES["score_by"]:
            raise ScoreSwitchError("score_by", self.score_by, message(
                "score_by is cards or places, not {value}", value=repr(self.score_by)))
        for name in ("play_on", "instant_wins"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ScoreSwitchError(name, value, message("{name} is on or off, not {value}",
                                                            name=name, value=repr(value)))
        for name in self.AMOUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= AMOUNT_MAX:
                raise ScoreSwitchError(name, value, message(
                    "the amount {name} is a whole number from 0 to {most}, not {value}",
                    name=name, most=AMOUNT_MAX, value=repr(value)))
        value = self.frozen
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FROZEN_MAX:
            raise ScoreSwitchError("frozen", value, message(
                "frozen multiplies what a frozen player pays: a whole number from 1 to {most}, not {value}",
                most=FROZEN_MAX, value=repr(value)))
        if self.score_by == "places" and not self.play_on:
            raise ScoreSwitchError("score_by", self.score_by, message(
                "score_by places needs the finishing order: turn on play_on"))

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


DEFAULT_SCORE_RULES = ScoreRules()
