"""Translation is built in: every sentence a player reads can be extracted for translators."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(tmp_path: Path) -> str:
    out = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "message",
         "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )
    return out.read_text(encoding="utf-8")


def test_referee_verdicts_and_page_texts_are_extracted_for_translators(tmp_path):
    catalogue = extract(tmp_path)
    assert 'msgid "{play} is lower than {table}"' in catalogue  # a Tiến lên verdict (rules library)
    assert 'msgid "Which game is on the table?"' in catalogue  # a page text (template)
    assert catalogue.count("msgid") > 50


def test_a_verdict_message_translates_with_its_blanks_filled():
    from referee.text import message

    msg = message("{play} is lower than {table}", play="8♠", table="8♥")
    spanish = {"{play} is lower than {table}": "{play} es menor que {table}"}
    assert msg.translate(lambda t: spanish.get(t, t)) == "8♠ es menor que 8♥"
