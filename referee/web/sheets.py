"""What the score sheets share on the web (no Flask: the phone draws a sheet too): the CSV
cells, never read as formulas (the download itself is :func:`referee.web.views.csv_download`), and the running-total chart (:func:`running_chart`: one line a player, a colour and
a dash each)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

#: One colour and one dash pattern a player, so the chart reads without colour too.
COLOURS = ["#0b5ed7", "#c1121f", "#198754", "#b35c00", "#6f42c1", "#0aa2c0", "#d63384", "#6c757d"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"]


def line_style(seat: int) -> dict[str, str]:
    """The chart line's colour and dash for ``seat``."""
    return {"colour": COLOURS[seat % len(COLOURS)], "dash": DASHES[seat % len(DASHES)]}


class StoredEvent(Protocol):
    """What a change needs of a stored event (``referee.web.models.Event``)."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def created_at(self) -> datetime | None: ...
    @property
    def payload(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of a sheet's history: an entry, a correction, or an undo of an earlier change."""

    seq: int
    kind: str
    when: datetime | None
    number: int | None
    """The round or game the change is about (``None`` for an undo)."""
    points: list[int] | None
    undoes: int | None
    """The change an undo took back."""
    undone: bool
    """Taken back by a later undo."""


def change_history(events: Sequence[StoredEvent], number: str) -> list[Change]:
    """Every change of a sheet, oldest first; ``number`` is the payload's key for the round or game."""
    undone = {e.payload.get("undoes") for e in events if e.kind == "undo"}
    return [
        Change(seq=e.seq, kind=e.kind, when=e.created_at, number=e.payload.get(number),
               points=e.payload.get("points"), undoes=e.payload.get("undoes"), undone=e.seq in undone)
        for e in events
    ]


@dataclass(frozen=True, slots=True)
class ChartLine:
    """One player's running total: the polyline's points, its colour and dash."""

    name: str
    colour: str
    dash: str
    points: str
    total: int


@dataclass(frozen=True, slots=True)
class Chart:
    """A running-total chart as the sheets' templates draw it (``partials/sheets.html``)."""

    width: int
    height: int
    pad: int
    top: int
    """The largest total (in size) the height stands for."""
    zero: float
    """Where a total of 0 is drawn (the foot of the chart, or its middle when totals may go below)."""
    steps: int
    """How many rounds or games the width stands for."""
    lines: tuple[ChartLine, ...]


def running_chart(
    names: Sequence[str], steps: Sequence[tuple[int, Sequence[int]]], last: int, totals: Sequence[int],
    *, below_zero: bool = False,
) -> Chart | None:
    """The chart of each player's running total after each step ``(number, totals)`` out of
    ``last`` (``None`` before the first step); with ``below_zero`` the 0 line is the middle.

    >>> chart = running_chart(["Ana", "Bao"], [(1, [5, 0]), (2, [5, 10])], 4, [5, 10])
    >>> chart.lines[1].points, chart.top, chart.zero
    ('29,131 94.5,131.0 160.0,29.0', 10, 131)
    """
    if not steps:
        return None
    top = max(1, max(abs(t) for _, row in steps for t in row))
    # The side labels ("−240", 10 units high) end at pad - 4: a digit is about 6.4 units wide and
    # the minus sign 8.4, so 7 a character and 4 to spare keep "−240" inside the chart (issue 34).
    width, height, pad = 320, 160, max(24, 7 * (len(str(top)) + 1) + 8)
    zero = height / 2 if below_zero else height - pad
    lines = []
    for seat, name in enumerate(names):
        points: list[tuple[float, float]] = [(pad, zero)]
        for number, row in steps:
            x = pad + (width - 2 * pad) * number / last
            y = zero - (zero - pad) * row[seat] / top
            points.append((round(x, 1), round(y, 1)))
        style = line_style(seat)
        lines.append(ChartLine(name=name, colour=style["colour"], dash=style["dash"], total=totals[seat],
                               points=" ".join(f"{x},{y}" for x, y in points)))
    return Chart(width=width, height=height, pad=pad, top=top, zero=zero, steps=last, lines=tuple(lines))


def spreadsheet_cell(text: str) -> str:
    """A name or sentence as a spreadsheet cell: never a formula.

    >>> spreadsheet_cell("=SUM(A1)"), spreadsheet_cell("Ana")
    ("'=SUM(A1)", 'Ana')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
