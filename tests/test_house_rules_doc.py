"""docs/house-rules.md against the rules classes: a row for every switch, its default and choices.

Each table of the page is headed by the class it documents (``## … (`ClassName`)``); the games'
classes come from the registry, so a new game's switches must be written there too.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from referee.evening_end import EveningEnd
from referee.settle import SETTLE_CHOICES
from referee.web.registry import GAME_PACKAGES, load

DOC = Path(__file__).resolve().parent.parent / "docs" / "house-rules.md"


def tables(text: str) -> dict[str, dict[str, list[str]]]:
    """The page's rows by the class (or switch) named in each ``##`` heading, then by switch id.

    >>> tables("## A (`X`)\\n\\n| id | default |\\n|---|---|\\n| `a` | off |\\n")
    {'X': {'a': ['`a`', 'off']}}
    """
    found: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in text.splitlines():
        heading = re.match(r"^## .*\(`(\w+)`\)\s*$", line)
        if heading:
            current = found.setdefault(heading.group(1), {})
        elif line.startswith("## "):
            current = None
        elif current is not None and line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            current[cells[0].strip("`")] = cells
    return found


def default_words(value: Any) -> str:
    """How the page writes a default: on/off, a number, a choice in backticks, or none."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == "":
        return "none"
    if isinstance(value, int):
        return str(value)
    return f"`{value}`"


def rules_classes() -> list[type]:
    classes: list[type] = [EveningEnd]
    for entry in load(GAME_PACKAGES):
        classes.extend(entry.rules)
    return classes


def test_every_rules_class_of_every_game_is_on_the_page() -> None:
    documented = tables(DOC.read_text(encoding="utf-8"))
    missing = [cls.__name__ for cls in rules_classes() if cls.__name__ not in documented]
    assert not missing, f"docs/house-rules.md has no table headed (`Class`) for {missing}"


def test_every_switch_has_its_row_default_and_choices() -> None:
    documented = tables(DOC.read_text(encoding="utf-8"))
    problems: list[str] = []
    for cls in rules_classes():
        rows = documented.get(cls.__name__, {})
        fields = {f.name: f for f in dataclasses.fields(cls)}
        problems += [f"{cls.__name__}: `{name}` has no row" for name in fields if name not in rows]
        problems += [f"{cls.__name__}: `{name}` is not a field" for name in rows if name not in fields]
        choices: dict[str, tuple[Any, ...]] = getattr(cls, "CHOICES", {})
        for name, spec in fields.items():
            if name not in rows:
                continue
            _, default, offered, meaning = rows[name]
            if not default.startswith(default_words(spec.default)):
                problems.append(f"{cls.__name__}: `{name}` defaults to {spec.default!r}, the page says {default}")
            for choice in choices.get(name, ()):
                if f"`{choice}`" not in offered or f"`{choice}`" not in meaning:
                    problems.append(f"{cls.__name__}: `{name}`'s choice `{choice}` is not listed and explained")
            if spec.type in (bool, "bool") and offered != "on, off":
                problems.append(f"{cls.__name__}: `{name}` is on or off, the page offers {offered}")
            if not meaning:
                problems.append(f"{cls.__name__}: `{name}` says nothing of what it changes")
    assert not problems, "\n".join(problems)


def test_the_settle_switch_has_its_choices() -> None:
    row = tables(DOC.read_text(encoding="utf-8"))["settle"]["settle"]
    assert row[1] == f"`{SETTLE_CHOICES[0]}`"
    for choice in SETTLE_CHOICES:
        assert f"`{choice}`" in row[2] and f"`{choice}`" in row[3]


def test_the_check_finds_a_missing_switch_and_a_missing_choice() -> None:
    """The checks above fail on a page that lost a row or a choice (not vacuous)."""
    text = DOC.read_text(encoding="utf-8")
    rows = tables(text)["TienLenRules"]
    assert "play_on" in rows and "`any`" in rows["first_lead"][2]
    cut = tables(text.replace("| `play_on` | off", "| `played_on` | off", 1))["TienLenRules"]
    assert "play_on" not in cut
