"""Tiến lên's house rules: the switches of RULES.md and their choices."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from referee.switches import bad_choice, not_on_or_off, rules_to_dict
from referee.text import message

# ---------------------------------------------------------------------------
# House rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TienLenRules:
    """The table's house rules; field names are the switch ids of RULES.md.

    >>> from referee.switches import rules_from_mapping
    >>> rules_from_mapping(TienLenRules, {"first_lead": "any", "play_on": "on"}).play_on
    True
    >>> TienLenRules(first_lead="first")
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: house rule 'first_lead' must be one of contains_3s, \
three_spades_alone, any, not 'first'
    """

    twos_in_sequences: bool = False
    first_lead: str = "contains_3s"
    quad_beats_pair_of_twos: bool = False
    quad_beats_three_pairs: bool = False
    four_pairs_beat_quad: bool = False
    bomb_after_pass: bool = False
    play_on: bool = False
    instant_wins: bool = False

    CHOICES = {"first_lead": ("contains_3s", "three_spades_alone", "any")}
    NAMES = {
        "twos_in_sequences": message("2s in sequences"),
        "first_lead": message("Opening play"),
        "quad_beats_pair_of_twos": message("Four of a kind on a pair of 2s"),
        "quad_beats_three_pairs": message("Four of a kind on three pairs"),
        "four_pairs_beat_quad": message("Four pairs on four of a kind"),
        "bomb_after_pass": message("Bomb after passing"),
        "play_on": message("Play on"),
        "instant_wins": message("Instant wins"),
    }
    """Each switch's name: a refusal names the switch that would lift it (``house rule “Four of a
    kind on a pair of 2s”``), so the name is the rule's, said once here; a page's switch shows it
    as its label (:func:`referee.web.house_rules.switch_labels`)."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            options = self.CHOICES.get(f.name)
            if options is not None:
                if value not in options:
                    raise bad_choice(f.name, options, value)
            elif not isinstance(value, bool):
                raise not_on_or_off(f.name, value)

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)


DEFAULT_RULES = TienLenRules()
