"""Trece's deck and house rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import (
    BLACK_JOKER,
    RED_JOKER,
    Joker,
)
from referee.switches import not_on_or_off, rules_to_dict

DECK_SIZE = 54
"""52 cards and two jokers."""
HAND_SIZE = 13
"""Cards dealt to each player."""
PENALTY = 13
"""Cards picked up for failing a joker's demand, or when caught by "thirteen"."""

TRECE_JOKERS: Mapping[Joker, int] = {RED_JOKER: 1, BLACK_JOKER: 1}


# --------------------------------------------------------------------------- house rules


@dataclass(frozen=True, kw_only=True)
class TreceRules:
    """The house rules of Trece; field names are the switch ids of RULES.md.

    ``run_after_joker`` (off): the card that meets a joker's demand is played
    alone; when on it may begin a run.

    >>> TreceRules()
    TreceRules(run_after_joker=False)
    >>> from referee.switches import rules_from_mapping
    >>> rules_from_mapping(TreceRules, {"run_after_joker": "on"})
    TreceRules(run_after_joker=True)
    """

    run_after_joker: bool = False

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def __post_init__(self) -> None:
        if not isinstance(self.run_after_joker, bool):
            raise not_on_or_off("run_after_joker", self.run_after_joker)

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


DEFAULT_RULES = TreceRules()
