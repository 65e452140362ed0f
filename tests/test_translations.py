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
    assert 'msgid "{piece} at position {position} is not a card"' in catalogue  # a notation mistake
    assert catalogue.count("msgid") > 50


def test_a_verdict_message_translates_with_its_blanks_filled():
    from referee.text import message

    msg = message("{play} is lower than {table}", play="8♠", table="8♥")
    spanish = {"{play} is lower than {table}": "{play} es menor que {table}"}
    assert msg.translate(lambda t: spanish.get(t, t)) == "8♠ es menor que 8♥"


def test_a_table_that_reads_spanish_gets_pages_and_verdicts_in_spanish(tmp_path, make_app):
    """The whole path works: a catalogue for a language, picked from the phone's
    Accept-Language, translates page texts and the referee's verdict sentences."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="es")
    catalog.add("Which game is on the table?", "¿Qué juego hay en la mesa?")
    catalog.add("a double sequence of {pairs} pairs bombs a single 2", "una doble escalera de {pairs} pares bombardea un 2")
    catalog.add("{piece} at position {position} is not a card", "{piece} en la posición {position} no es una carta")
    folder = tmp_path / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as out:
        write_mo(out, catalog)
    app = make_app(BABEL_TRANSLATION_DIRECTORIES=str(tmp_path), LANGUAGES=["en", "es"])
    client = app.test_client()

    spanish = {"Accept-Language": "es-ES,es;q=0.9"}
    assert "¿Qué juego hay en la mesa?" in client.get("/", headers=spanish).get_data(as_text=True)
    assert "Which game is on the table?" in client.get("/").get_data(as_text=True)
    verdict = client.post("/tienlen/check", data={"table": "2h", "play": "3s3c4d4h5s5c"}, headers=spanish)
    assert "una doble escalera de 3 pares bombardea un 2" in verdict.get_data(as_text=True)
    typo = client.post("/tienlen/check", data={"table": "", "play": "3s zz"}, headers=spanish)
    assert "&#39;zz&#39; en la posición 2 no es una carta" in typo.get_data(as_text=True)
