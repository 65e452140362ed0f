"""Three Thirteen's house rules, and how many decks a table plays with."""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import RefereeError
from referee.switches import SwitchError, bad_choice, not_on_or_off
from referee.text import message

MAX_HAND = 15
"""The largest hand the game deals (round 13 of the longer game)."""
JOKER_POINTS = 20
FALSE_OUT_PENALTY = 20
_MAX_DECKS = 8


# ---------------------------------------------------------------------------
# House rules


@dataclass(frozen=True, kw_only=True)
class ThreeThirteenRules:
    """The table's house rules; field names are the switch ids of RULES.md.

    >>> from referee.switches import rules_from_mapping
    >>> ThreeThirteenRules()
    ThreeThirteenRules(faces='ten', decks=None, aces='low', jokers=False, longer_game=False, \
up_and_back=False, doubles=False, false_out=False)
    >>> rules_from_mapping(ThreeThirteenRules, {"faces": "rank", "decks": "2", "jokers": "on"}).decks
    2
    >>> ThreeThirteenRules(decks=9)
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: house rule 'decks' takes 1 to 8 decks, not 9
    """

    faces: str = "ten"
    decks: int | None = None
    aces: str = "low"
    jokers: bool = False
    longer_game: bool = False
    up_and_back: bool = False
    doubles: bool = False
    false_out: bool = False

    CHOICES = {"faces": ("ten", "rank"), "aces": ("low", "high_or_low")}  # noqa: RUF012
    RANGES = {"decks": (1, _MAX_DECKS)}  # noqa: RUF012  # a number switch's bounds (the API's schema says them)

    def __post_init__(self) -> None:
        for name, options in self.CHOICES.items():
            value = getattr(self, name)
            if value not in options:
                raise bad_choice(name, options, value)
        if self.decks is not None and (
            isinstance(self.decks, bool) or not isinstance(self.decks, int) or not 1 <= self.decks <= _MAX_DECKS
        ):
            raise SwitchError("decks", message(
                "house rule 'decks' takes 1 to {most} decks, not {value}", most=_MAX_DECKS, value=repr(self.decks)
            ))
        for name in ("jokers", "longer_game", "up_and_back", "doubles", "false_out"):
            if not isinstance(getattr(self, name), bool):
                raise not_on_or_off(name, getattr(self, name))

    @property
    def aces_high(self) -> bool:
        """``Q K A`` is a run too (switch ``aces=high_or_low``)."""
        return self.aces == "high_or_low"


_DEFAULT_RULES = ThreeThirteenRules()


def decks_for(players: int, rules: ThreeThirteenRules = _DEFAULT_RULES) -> int:
    """Decks shuffled together: one for two players, two for three or four, one
    more for every two further players, unless the table fixed the number.

    >>> [decks_for(n) for n in range(2, 9)]
    [1, 2, 2, 3, 3, 4, 4]
    >>> decks_for(2, ThreeThirteenRules(decks=2))
    2
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise RefereeError(message("Three Thirteen needs 2 or more players, not {players}", players=repr(players)))
    if rules.decks is not None:
        return rules.decks
    return 1 if players == 2 else 2 + (players - 3) // 2
