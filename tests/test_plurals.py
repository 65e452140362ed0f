"""Every sentence that says a number says it in the language's plural forms (Babel's ngettext):
each counted sentence of the code, said for 1 and for 2 in en, es, pt and vi."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask_babel import ngettext

from referee.evening_end import EveningEnd, progress
from referee.text import Message
from referee.web.words import say
from tests.languages import extract

BRACE = re.compile(r"\{(\w+)\}")
PERCENT = re.compile(r"%\((\w+)\)([sd])")


@pytest.fixture(scope="module")
def counted(tmp_path_factory: Any) -> list[tuple[str, str]]:
    """Every counted sentence of the code (singular, plural), as pybabel extracts it."""
    catalogue = extract(tmp_path_factory.mktemp("pot") / "messages.pot")
    found = [(m.id[0], m.id[1]) for m in catalogue  # those that say the number itself
             if isinstance(m.id, tuple) and ("%(num)" in m.id[1] or "{count}" in m.id[1])]
    assert len(found) >= 12
    return found


def _said(singular: str, plural: str, n: int) -> str:
    if "{" in plural:  # a referee sentence (a Message with its plural)
        blanks = {name: "Ana" for name in BRACE.findall(plural) if name != "count"}
        return say(Message(singular, {**blanks, "count": n}, plural))
    blanks: dict[str, Any] = {}
    for name, kind in PERCENT.findall(plural):
        if name != "num":
            blanks[name] = n if kind == "d" else "Ana"
    return str(ngettext(singular, plural, n, **blanks))


@pytest.mark.parametrize("lang", ["en", "es", "pt", "vi"])
def test_each_counted_sentence_says_1_and_2_in_its_languages_forms(app: Any, counted: list[tuple[str, str]],
                                                                   lang: str) -> None:
    wrong = []
    with app.test_request_context(headers={"Accept-Language": lang}):
        for singular, plural in counted:
            one, two = _said(singular, plural, 1), _said(singular, plural, 2)
            if not re.search(r"(?<!\d)1(?!\d)", one) or not re.search(r"(?<!\d)2(?!\d)", two):
                wrong.append((plural, one, two))
    assert not wrong, f"{lang}: {len(wrong)} counted sentences not said in their forms: {wrong[:5]}"


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "the evening is over: 1 game played", "the evening is over: 2 games played"),
    ("es", "la noche terminó: se jugó 1 partida", "la noche terminó: se jugaron 2 partidas"),
    ("pt", "a noite acabou: 1 jogo jogado", "a noite acabou: 2 jogos jogados"),
    ("vi", "buổi tối đã kết thúc: đã chơi 1 ván", "buổi tối đã kết thúc: đã chơi 2 ván"),
])
def test_the_evening_over_after_1_game_is_said_in_the_singular(app: Any, lang: str, one: str, two: str) -> None:
    with app.test_request_context(headers={"Accept-Language": lang}):
        for games, expected in ((1, one), (2, two)):
            got = progress(EveningEnd(games=games), ("An", "Binh"), [(1, -1), (2, -2)])
            assert got.why is not None and say(got.why) == expected
