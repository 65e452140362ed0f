"""House rules: reading a table's switches into a game's frozen rules object.

Every game has one frozen, keyword-only dataclass of house rules whose field
names are the switch ids of RULES.md.  :func:`rules_from_mapping` builds one
from what a form or the JSON API sent, and refuses an unknown id or a bad value
with a :class:`SwitchError` that names it.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, kw_only=True)
... class Demo:
...     doubles: bool = False
...     faces: str = "ten"
...     CHOICES = {"faces": ("ten", "rank")}
>>> rules_from_mapping(Demo, {"doubles": True})
Demo(doubles=True, faces='ten')
>>> rules_from_mapping(Demo, {"dubles": True})
Traceback (most recent call last):
...
referee.switches.SwitchError: unknown house rule 'dubles' (known: doubles, faces)
>>> rules_from_mapping(Demo, {"faces": "court"})
Traceback (most recent call last):
...
referee.switches.SwitchError: house rule 'faces' must be one of ten, rank, not 'court'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from referee.errors import RefereeError
from referee.text import Message, message

__all__ = ["SwitchError", "bad_choice", "not_on_or_off", "rules_from_mapping", "rules_to_dict"]

R = TypeVar("R")

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no", ""}


class SwitchError(RefereeError):
    """An unknown house-rule id, or a value the switch does not take; ``switch`` names it (the
    mistake is about the game's ``rules``, its ``field``)."""

    def __init__(self, switch: str, reason: Message) -> None:
        self.switch = switch
        super().__init__(reason, field="rules")


def bad_choice(switch: str, options: Any, value: object) -> SwitchError:
    """The switch takes one of ``options``, not ``value``."""
    shown = ", ".join(str(o) for o in options)
    return SwitchError(switch, message(
        "house rule {switch} must be one of {options}, not {value}", switch=repr(switch), options=shown, value=repr(value)
    ))


def not_on_or_off(switch: str, value: object) -> SwitchError:
    """An on/off switch given something else."""
    return SwitchError(switch, message("house rule {switch} is on or off, not {value}", switch=repr(switch), value=repr(value)))


def rules_from_mapping(cls: type[R], values: Mapping[str, Any] | None) -> R:
    """Build the rules object ``cls`` from switch ids and values.

    Booleans may come as JSON booleans or as form words (``on``, ``true``, ``1``);
    integers as numbers or digits; a field listed in ``cls.CHOICES`` must be one
    of its choices.  ``None`` values are ignored (the default stands).
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a rules dataclass")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    choices: Mapping[str, tuple[Any, ...]] = getattr(cls, "CHOICES", {})
    kwargs: dict[str, Any] = {}
    for key, raw in (values or {}).items():
        if key not in fields:
            known = ", ".join(sorted(fields))
            raise SwitchError(key, message("unknown house rule {switch} (known: {known})", switch=repr(key), known=known))
        if raw is None:
            continue
        default = fields[key].default
        kwargs[key] = _coerce(key, raw, default, choices.get(key))
    try:
        return cls(**kwargs)
    except SwitchError:
        raise
    except (TypeError, ValueError) as exc:
        raise SwitchError("", message("{why}", why=str(exc))) from exc


def rules_to_dict(rules: object) -> dict[str, Any]:
    """The switches as a plain dict, ready for JSON."""
    if not dataclasses.is_dataclass(rules) or isinstance(rules, type):
        raise TypeError(f"{rules!r} is not a rules object")
    return dataclasses.asdict(rules)


def _coerce(key: str, raw: Any, default: Any, options: tuple[Any, ...] | None) -> Any:
    if options is not None:
        value = raw
        if isinstance(raw, str) and all(isinstance(o, int) for o in options if o is not None):
            value = int(raw) if _is_ascii_number(raw) else raw
        if value not in options:
            raise bad_choice(key, options, raw)
        return value
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise not_on_or_off(key, raw)
    if isinstance(default, int) or (default is None and isinstance(raw, (int, str))):
        if isinstance(raw, bool):
            raise not_a_number(key, raw)
        if isinstance(raw, int):
            return raw
        if isinstance(raw, str) and _is_ascii_number(raw):
            return int(raw)
        raise not_a_number(key, raw)
    return raw


def not_a_number(switch: str, value: object) -> SwitchError:
    return SwitchError(switch, message(
        "house rule {switch} takes a whole number, not {value}", switch=repr(switch), value=repr(value)
    ))


def _is_ascii_number(raw: str) -> bool:
    """ASCII digits only, at most nine ("²" passes ``isdigit`` but is no number).

    >>> _is_ascii_number(" 2 "), _is_ascii_number("²"), _is_ascii_number("9" * 5000)
    (True, False, False)
    """
    text = raw.strip()
    return text.isascii() and text.isdigit() and len(text) <= 9
