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


# --- the shipped catalogues: complete, unfuzzied, blanks intact ---------------------------------

import ast  # noqa: E402
import re  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

import pytest  # noqa: E402
from babel.messages.mofile import read_mo  # noqa: E402

from tests.languages import BLANK, LANGUAGES, TRANSLATIONS, po_path, read_catalogue  # noqa: E402
from tests.languages import extract as extract_catalogue  # noqa: E402


@pytest.fixture(scope="module")
def template_catalogue(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Every sentence in the code now, extracted to a temporary .pot."""
    return extract_catalogue(tmp_path_factory.mktemp("pot") / "messages.pot")


def _key(msg):  # type: ignore[no-untyped-def]
    return msg.id if isinstance(msg.id, str) else msg.id[0]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_sentence_in_the_code_is_translated_in_each_catalogue(template_catalogue, code):
    catalogue = read_catalogue(code)
    missing, untranslated, fuzzy = [], [], []
    for msg in template_catalogue:
        if not msg.id:
            continue
        found = catalogue.get(msg.id)
        if found is None:
            missing.append(_key(msg))
            continue
        forms = found.string if isinstance(found.string, tuple) else (found.string,)
        if not all(forms):
            untranslated.append(_key(msg))
        if found.fuzzy:
            fuzzy.append(_key(msg))
    assert not missing, f"{code}: {len(missing)} sentences missing (run scripts/update-translations): {missing[:10]}"
    assert not untranslated, f"{code}: {len(untranslated)} sentences untranslated: {untranslated[:10]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} fuzzy sentences (check, then drop the fuzzy flag): {fuzzy[:10]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_catalogue_keeps_a_sentence_the_code_no_longer_says(template_catalogue, code):
    said = {_key(m) for m in template_catalogue if m.id}
    stale = [_key(m) for m in read_catalogue(code) if m.id and _key(m) not in said]
    assert not stale, f"{code}: obsolete entries (run scripts/update-translations): {stale[:10]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_translation_keeps_the_blanks_of_its_sentence(code):
    wrong = []
    for msg in read_catalogue(code):
        if not msg.id:
            continue
        source = msg.id[-1] if isinstance(msg.id, tuple) else msg.id  # plural forms: the plural's blanks
        forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for form in forms:
            if form and sorted(BLANK.findall(form)) != sorted(BLANK.findall(source)):
                wrong.append((source, form))
    assert not wrong, f"{code}: blanks differ: {wrong[:5]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_catalogue_passes_babels_checks_and_states_its_plural_forms(code):
    catalogue = read_catalogue(code)
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalogue.check()]
    assert not problems, problems
    assert catalogue.num_plurals == (1 if code == "vi" else 3)  # Vietnamese has no plural; CLDR's es/pt have 3
    plural = [m for m in catalogue if isinstance(m.id, tuple)]
    assert plural and all(len(m.string) == catalogue.num_plurals for m in plural)


def test_the_portuguese_catalogue_is_brazilian():
    header = po_path("pt").read_text(encoding="utf-8")
    assert "Language-Team: Português do Brasil" in header


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_install_step_compiled_each_catalogue(code):
    """scripts/serve and scripts/test compile the .po files; the app reads the .mo beside them."""
    mo = TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo"
    assert mo.exists(), f"{mo} is missing: run ./scripts/test (or pybabel compile -d translations)"
    with open(mo, "rb") as f:
        compiled = {_key(m): _forms(m.string) for m in read_mo(f) if m.id}
    source = {_key(m): _forms(m.string) for m in read_catalogue(code) if m.id and not m.fuzzy}
    assert compiled == source, f"{mo} is older than its .po: run pybabel compile -d translations"


def _forms(text):  # type: ignore[no-untyped-def]
    return tuple(text) if isinstance(text, (list, tuple)) else (text,)


def test_compiled_catalogues_are_not_committed():
    tracked = subprocess.run(["git", "ls-files", "translations"], cwd=ROOT, capture_output=True, text=True).stdout
    assert tracked and not [line for line in tracked.splitlines() if line.endswith(".mo")]


# --- no sentence outside the catalogues ---------------------------------------------------------

# Names said the same in every language, and card notation.
NAMES = re.compile(r"Tiến lên|Three Thirteen|Thirteen|Trece|\b(?:10|[2-9JQKA])[♠♥♣♦]|\b(?:RJ|BJ|JK)\b")
JINJA = re.compile(r"\{#.*?#\}|\{%-?\s*trans\b.*?endtrans\s*-?%\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
WORDS = re.compile(r"[^\W\d_]{2,}")
TEXT_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "label", "aria-description"}
TEXT_META = {"description", "application-name", "apple-mobile-web-app-title"}


class _BareText(HTMLParser):
    """Text a reader sees that is written in the template itself, not through ``_()``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._code = 0

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        if tag in ("script", "style"):
            self._code += 1
        shown = dict(attrs).get("name") in TEXT_META and tag == "meta"
        for name, value in attrs:
            if (name in TEXT_ATTRIBUTES or (shown and name == "content")) and value and WORDS.search(
                NAMES.sub("", value.replace("\0", ""))
            ):
                self.found.append(f"{tag} {name}={value!r}")

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag in ("script", "style"):
            self._code -= 1

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        text = data.replace("\0", " ").strip()
        if not self._code and WORDS.search(NAMES.sub("", text)):
            self.found.append(text)


def bare_text(source: str) -> list[str]:
    parser = _BareText()
    parser.feed(JINJA.sub("\0", source))
    return parser.found


def test_the_template_scan_finds_words_written_outside_the_catalogue():
    assert bare_text('<p>{{ _("Pass") }}</p><button title="Undo">↶</button><b>Score</b>') == [
        "button title='Undo'", "Score",
    ]
    assert bare_text('<span class="card">J♦</span> {% trans %}Hello{% endtrans %} <a>Tiến lên</a>') == []


def test_no_template_shows_words_outside_the_catalogue():
    found = {
        str(path.relative_to(ROOT)): words
        for path in sorted((ROOT / "templates").rglob("*.html"))
        if (words := bare_text(path.read_text(encoding="utf-8")))
    }
    assert not found, f"wrap these in _() so they can be translated: {found}"


TRANSLATING_CALLS = {"message": 1, "gettext": 1, "lazy_gettext": 1, "_": 1, "ngettext": 2, "lazy_ngettext": 2}


def _calls_with_unreadable_sentences(path: Path) -> list[str]:
    """Calls pybabel cannot extract: the sentence is not a string literal written in the call."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in TRANSLATING_CALLS:
            continue
        args = node.args[: TRANSLATING_CALLS[name]]
        if len(args) < TRANSLATING_CALLS[name] or not all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)[:80]}")
    return found


def test_every_translated_sentence_in_the_code_is_a_literal_pybabel_can_extract():
    found = [c for path in sorted((ROOT / "referee").rglob("*.py")) for c in _calls_with_unreadable_sentences(path)]
    # message() itself, and the phone's gettext (it passes on the sentence it was given)
    found = [c for c in found if not c.startswith(("referee/text.py", "referee/web/words.py"))]
    assert not found, found


BUILTIN_ERRORS = {
    "ValueError", "TypeError", "KeyError", "IndexError", "LookupError", "RuntimeError", "NotImplementedError",
    "AssertionError", "AttributeError",
}


def _errors_built_from_english(path: Path) -> list[str]:
    """A rule module's own error built from a finished English sentence (an f-string, or a literal
    with a space in it) instead of a Message: a player would read it untranslated."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None) or ""
        if not name.endswith("Error") or name in BUILTIN_ERRORS:
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                                  and " " in arg.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)[:90]}")
    return found


def test_rule_modules_build_their_refusals_from_messages_not_english_strings():
    library = [p for p in sorted((ROOT / "referee").rglob("*.py")) if p.relative_to(ROOT / "referee").parts[0] != "web"]
    found = [c for path in library for c in _errors_built_from_english(path)]
    assert not found, found


def test_the_container_image_compiles_the_translations_too():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    copy = re.search(r"^COPY translations \./translations$", dockerfile, re.M)
    compile_step = re.search(r"^RUN pybabel compile -d translations$", dockerfile, re.M)
    assert copy and compile_step and copy.start() < compile_step.start()
    assert compile_step.start() < re.search(r"^USER ", dockerfile, re.M).start()  # written while still root


# --- the wild card and the joker: two things, two words ------------------------------------------

WILD = re.compile(r"\bwild", re.I)
JOKER = re.compile(r"\bjokers?\b", re.I)


def _text(value):  # type: ignore[no-untyped-def]
    return " ".join(value) if isinstance(value, (list, tuple)) else (value or "")


def wild_and_joker_clashes(catalogue) -> list[str]:  # type: ignore[no-untyped-def]
    """Sentences where the catalogue's word for the joker says the wild card, or the other way round.

    The words are the catalogue's own: its "Wild" (a column heading) and its "joker"; a sentence
    about only one of them may not use the other's word (a stem, so plurals count too)."""
    wild = _text(catalogue["Wild"].string).lower()
    joker = _text(catalogue["joker"].string).lower()
    joker_stem = joker[:5]
    clashes = []
    if wild == joker or joker_stem in wild or wild in joker:
        clashes.append(f"Wild = {wild!r}, joker = {joker!r}")
    for m in catalogue:
        source, text = _text(m.id), _text(m.string).lower()
        if not source or not text:
            continue
        if WILD.search(source) and not JOKER.search(source) and joker_stem in text:
            clashes.append(f"{source!r} → {text!r} says the joker's word {joker!r}")
        if JOKER.search(source) and not WILD.search(source) and wild in text:
            clashes.append(f"{source!r} → {text!r} says the wild card's word {wild!r}")
    return clashes


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_wild_card_and_the_joker_have_different_words(code):
    assert not wild_and_joker_clashes(read_catalogue(code))


def test_the_check_finds_a_catalogue_that_gives_the_wild_rank_and_the_joker_one_word():
    import copy

    spanish = copy.deepcopy(read_catalogue("es"))
    spanish["Wild"].string = "Comodín"
    spanish["%(ranks)s are wild"].string = "comodines: %(ranks)s"
    clashes = wild_and_joker_clashes(spanish)
    assert any("Wild = 'comodín'" in c for c in clashes)
    assert any("are wild" in c for c in clashes)


# --- words as a table says them ------------------------------------------------------------------


@pytest.mark.parametrize(("code", "wrong"), [("es", "primero en salir"), ("pt", "primeiro a sair")])
def test_first_out_is_not_said_with_the_word_for_leading(code, wrong):
    """es/pt use salir/sair for leading a trick; the first player out is the first without cards."""
    said = [m.id for m in read_catalogue(code) if wrong in _text(m.string)]
    assert not said
    assert "sale" in _text(read_catalogue(code)["Next hand: %(p)s leads"].string) or code == "pt"


def test_the_portuguese_turns_heading_is_not_times():
    assert _text(read_catalogue("pt")["Turns"].string) != "Vezes"


@pytest.mark.parametrize("msgid", ["Round %(n)s of %(of)s", "hand %(n)s of %(of)s", "%(n)s of %(dealt)s cards"])
def test_vietnamese_says_of_without_a_literal_on(msgid):
    assert "trên" not in _text(read_catalogue("vi")[msgid].string)


def test_brazilian_portuguese_says_zero_points_in_the_plural(tmp_path):
    import gettext

    from tests.languages import compile_catalogues

    folder = compile_catalogues(tmp_path)
    with open(folder / "pt" / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        portuguese = gettext.GNUTranslations(mo)
    said = {n: portuguese.ngettext("%(num)d point", "%(num)d points", n) % {"num": n} for n in (0, 1, 2)}
    assert said == {0: "0 pontos", 1: "1 ponto", 2: "2 pontos"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_frozen_amount_refusal_says_frozen_in_the_readers_language(code):
    text = _text(read_catalogue(code)[
        "frozen multiplies what a frozen player pays: a whole number from 1 to {most}, not {value}"].string)
    assert not text.startswith("frozen")


def test_portuguese_quotes_are_brazilian():
    assert not [m.id for m in read_catalogue("pt") if "«" in _text(m.string)]


def test_update_translations_runs_without_a_venv_and_guesses_nothing(tmp_path):
    """scripts/update-translations in a copy without ``.venv`` (Babel from the Python it is given):
    a new sentence one word off a translated one comes in untranslated, never as a fuzzy guess
    borrowing the other sentence's translation (and its placeholders)."""
    import shutil

    for part in ("referee", "templates", "translations", "scripts"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "babel.cfg", tmp_path / "babel.cfg")
    near = "The referee hit an internal error. Nothing was saved; try again later."
    (tmp_path / "templates" / "near.html").write_text("{{ _('" + near + "') }}\n", encoding="utf-8")
    done = subprocess.run(["scripts/update-translations"], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable}, timeout=240)
    assert done.returncode == 0, done.stderr
    from babel.messages.pofile import read_po

    for code in LANGUAGES:
        with open(tmp_path / "translations" / code / "LC_MESSAGES" / "messages.po", "rb") as f:
            entry = read_po(f, locale=code).get(near)
        assert entry is not None and not entry.fuzzy and not entry.string, (code, entry and entry.string)
