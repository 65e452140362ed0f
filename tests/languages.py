"""What the language tests share: the catalogues, compiled fresh from the repository's .po files."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("es", "pt", "vi")
# Blanks a sentence fills in: ``%(name)s`` (pages, gettext) and ``{name}`` (referee Messages).
BLANK = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def po_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"


@functools.cache
def read_catalogue(code: str) -> Catalog:
    with open(po_path(code), "rb") as f:
        return read_po(f, locale=code)


def extract(out: Path) -> Catalog:
    """Every sentence of the templates and the rule modules, as pybabel finds them."""
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "message", "-k", "plural:1,2",
         "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )
    with open(out, "rb") as f:
        return read_po(f)


def compile_catalogues(folder: Path) -> Path:
    """The repository's catalogues compiled into ``folder`` (as ``scripts/test`` compiles them)."""
    for code in LANGUAGES:
        target = folder / code / "LC_MESSAGES"
        target.mkdir(parents=True, exist_ok=True)
        with open(target / "messages.mo", "wb") as out:
            write_mo(out, read_catalogue(code))
    return folder


def translate(code: str, msgid: str, **blanks: object) -> str:
    """The catalogue's sentence for ``msgid`` with its blanks filled (``{x}`` or ``%(x)s``)."""
    text = read_catalogue(code)[msgid].string
    assert text, f"{code} has no translation for {msgid!r}"
    return text.format(**blanks) if "{" in text else text % blanks if blanks else text
