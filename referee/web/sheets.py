"""What the score sheets share on the web: the CSV
download, whose cells are never read as formulas, and the running-total chart's line styles."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from flask import Response, make_response

#: One colour and one dash pattern a player, so the chart reads without colour too.
COLOURS = ["#0b5ed7", "#c1121f", "#198754", "#b35c00", "#6f42c1", "#0aa2c0", "#d63384", "#6c757d"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"]


def line_style(seat: int) -> dict[str, str]:
    """The chart line's colour and dash for ``seat``."""
    return {"colour": COLOURS[seat % len(COLOURS)], "dash": DASHES[seat % len(DASHES)]}


def spreadsheet_cell(text: str) -> str:
    """A name or sentence as a spreadsheet cell: never a formula.

    >>> spreadsheet_cell("=SUM(A1)"), spreadsheet_cell("Ana")
    ("'=SUM(A1)", 'Ana')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def csv_download(rows: Iterable[Sequence[Any]], filename: str) -> Response:
    """``rows`` as a CSV attachment named ``filename`` (CRLF line ends, UTF-8)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    response = make_response(buf.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
