"""Every sentence that says a number says it in the language's plural forms (Babel's ngettext):
each counted sentence of the code, said for 1 and for 2 in en, es, pt and vi."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask_babel import ngettext

from referee.errors import RefereeError
from referee.evening_end import EveningEnd, progress
from referee.text import Message
from referee.tienlen import Hand, Setup, TienLenRules
from referee.tienlen_scores import FinishedGame
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


def _target_of_1() -> Message:
    got = progress(EveningEnd(target=1), ("An", "Binh"), [(1, -1)])
    assert got.why is not None
    return got.why


def _refusal(make: Any) -> Message:
    try:
        make()
    except RefereeError as exc:
        return exc.reason
    raise AssertionError("not refused")


# Sentences that said 1 in the plural before (issue 36), each said for 1 in each language.
SAID_FOR_1 = {
    "target": _target_of_1,
    "frozen": lambda: _refusal(lambda: FinishedGame(players=2, winner=0, cards_left=(0, 1), frozen=(False, True),
                                                    names=("An", "Binh"))),
    "dealt": lambda: _refusal(lambda: Hand(Setup(("An", "Binh"), TienLenRules(instant_wins=True), hand_size=1))
                              .declare_instant_win(0, "dragon", "3s 4s")),
}


@pytest.mark.parametrize(("lang", "what", "said"), [
    ("en", "target", "the evening is over: An, Binh reached the target of 1 point"),
    ("es", "target", "la noche terminó: An, Binh llegó a la meta de 1 punto"),
    ("pt", "target", "a noite acabou: An, Binh chegou à meta de 1 ponto"),
    ("vi", "target", "buổi chơi đã kết thúc: An, Binh đạt mốc 1 điểm"),
    ("en", "frozen", "Binh has 1 card left, so played some and was not frozen"),
    ("es", "frozen", "a Binh le queda 1 carta, así que jugó algunas y no estaba congelado"),
    ("pt", "frozen", "Binh tem 1 carta restante, então jogou algumas e não estava congelado"),
    ("vi", "frozen", "Binh còn 1 lá, nên đã đánh vài lá và không bị cóng"),
    ("en", "dealt", "a dealt hand has 1 card, not 2"),
    ("es", "dealt", "una mano repartida tiene 1 carta, no 2"),
    ("pt", "dealt", "uma mão distribuída tem 1 carta, não 2"),
    ("vi", "dealt", "bài được chia có 1 lá, không phải 2"),
])
def test_a_sentence_that_said_1_in_the_plural_says_it_in_the_singular(app: Any, lang: str, what: str,
                                                                        said: str) -> None:
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert say(SAID_FOR_1[what]()) == said


# A number said before a counted word ("{count} cards", "%(n)s points") in a sentence that has
# no plural forms.  Each one here is never said for 1 (why, beside it), or its code says 1 in a
# sentence of its own ("{player} has 1 card left, ..."): a new sentence that counts something
# must be built with plural() / ngettext, or be added here with the reason it never says 1.
COUNTED = re.compile(r"(?:\{\w+\}|%\(\w+\)[sd]) (?:\w+ )?(?:cards?|points?|games?|rounds?|players?|hands?|evenings?"
                     r"|times|pairs?|levels?|characters?|entries|people|decks?|days?|payments?|changes?|wins?)\b")
NEVER_ONE = {
    # a count of copies past what the decks hold: 2 or more
    "{card} appears {count} times, but the deck holds it only {limit} times": "2 or more copies",
    "{card} appears {count} times, but one deck holds it only once": "2 or more copies",
    "{card} appears {count} times, but 2 decks hold it only twice": "3 or more copies",
    "{card} appears {count} times, but {decks} decks hold it only {decks} times": "3 or more decks",
    "{card} is entered {count} times at this table, but the decks hold only {limit}": "more than the decks hold",
    # bounds and sizes that are constants of the code, all above 1
    "the target {value} is not between 0 and {most} points": "a constant bound",
    "the name {name}… is longer than {most} characters": "a constant bound",
    "the name {name} is longer than {most} characters": "a constant bound",
    "{count} people are more than one settle-up takes (at most {most})": "more than the bound",
    "house rule 'decks' takes 1 to {most} decks, not {value}": "a constant bound",
    "A hand holds at most {most} cards; this one has {count}.": "a constant bound",
    "the field {field} holds more than {most} entries": "a constant bound",
    "the JSON body nests deeper than {most} levels; no endpoint takes that": "a constant bound",
    "This file holds more than {n} entries: too many to import at once.": "a constant bound",
    "Each player is dealt 1 to %(n)s cards.": "13 at most, the bound",
    "with {dealt} cards dealt the lowest card dealt is at most {highest}, not {card}": "a whole deck dealt: 2 or more",
    # players at a table: 2 or more
    "the sheet has {players} players, not {count}": "2 to 4 players",
    "a game has {count} scores, but the sheet has {players} players": "2 to 4 players",
    "round {round} has {count} scores, but the table has {players} players": "2 or more players",
    "this game needs exactly {n} players, not {count}": "2 or more players",
    "this game needs {least} to {most} players, not {count}": "2 or more players",
    "a hand of {size} cards cannot be dealt to {count} players": "a hand of 1 card can always be dealt",
    # Three Thirteen deals 3 to 13 cards; a false out adds FALSE_OUT_PENALTY (20) points
    "Round {round} deals {dealt} cards; this hand has {count}.": "3 to 13 cards dealt",
    "%(n)s cards each": "3 to 13 cards dealt",
    "%(n)s of %(dealt)s cards": "3 to 13 cards dealt",
    "%(n)s cards": "3 to 13 cards dealt",
    "One hand at a time: tick who went out, then tap or swipe each player's %(n)s cards, or type their points "
    "instead. Nothing is saved until you press Save.": "3 to 13 cards dealt",
    "tap or swipe the %(n)s cards, or type: 3h 4h 5h": "3 to 13 cards dealt",
    "round %(n)s, %(d)s cards, %(w)s wild": "3 to 13 cards dealt",
    "%(n)s · %(d)s cards, %(w)s wild": "3 to 13 cards dealt",
    "no split puts every card in a set or run (the best leaves {leftover} over), so this false claim adds {penalty} "
    "points": "the false-out penalty, 20",
    "{leftover} fits no set or run, so this false claim adds {penalty} points": "the false-out penalty, 20",
    "{leftover} fit no set or run, so this false claim adds {penalty} points": "the false-out penalty, 20",
    "These cards do not all fit: a false out adds {points} points to them.": "the false-out penalty, 20",
    "✗ false out: claimed to go out but could not, %(n)s points added.": "the false-out penalty, 20",
    "{leftover} are left over and count {points} points": "two cards or more: 2 points or more",
    # Tiến lên combinations: sequences of 3 cards or more, double sequences of 3 pairs or more
    "{count} cards of rank {rank} fit no combination with other ranks": "3 or 4 cards",
    "a double sequence of {pairs} pairs bombs a single 2": "3 pairs or more",
    "a double sequence of {pairs} pairs beats a pair of 2s": "3 pairs or more",
    "a double sequence of {pairs} pairs beats three 2s": "3 pairs or more",
    "four of a kind does not beat a double sequence of {pairs} pairs": "3 pairs or more",
    "a double sequence of {pairs} pairs beats four of a kind only with house rule “{switch}”": "3 pairs or more",
    "a double sequence of {pairs} pairs beats four of a kind (house rule “{switch}”)": "3 pairs or more",
    "a sequence must be beaten by a sequence of the same length: {play} cards on {table}": "3 cards or more",
    "a double sequence must be beaten by a double sequence of the same length: {play} pairs on {table}": "3 pairs or more",
    "sequence of %(count)s cards": "3 cards or more",
    "double sequence of %(count)s pairs": "3 pairs or more",
    "{player} had played {played} of 13 cards when {winner} went out, fewer than the {count} cards of their bombs "
    "and chopped 2s until then": "of 13; a bomb is 4 cards or more",
    "{player} had played {played} of 13 cards when {winner} went out, fewer than the {count} cards of a bomb":
        "of 13; a bomb is 4 cards or more",
    "{player} has {count} cards left, so played no card and was frozen": "13 cards",
    # said for 1 in a sentence of their own, beside them in the code
    "{leftover} is left over and counts {points} points": "1 point has its own sentence",
    "{player} has only {count} cards left": "1 card has its own sentence",
    "{player} has {count} cards left, but 1 leftover card is entered": "1 card has its own sentence",
    "{player} has {count} cards left, but {given} leftover cards are entered": "1 card has its own sentence",
    "{player} has 1 card left, but {given} leftover cards are entered": "1 card has its own sentence",
    "{player} has {count} cards left, so {given} caught cards cannot be in the hand": "1 card has its own sentence",
    "{player} has 1 card left, so {given} caught cards cannot be in the hand": "given is 2 or more here",
    "{payer} had {count} cards left": "1 card has its own sentence",
    "{name} holds {count} cards, too few to play {play}": "1 card has its own sentence",
    "{name} holds {count} cards, not one: only a player with one card says last card": "not one, by the rule",
    "{name} holds {count} cards, not one: thirteen catches only a player with one card": "not one, by the rule",
    # not a count
    "%(amount)s a game won": "an amount of money",
    "%(amount)s a point": "an amount of money",
    "%(p)s wins": "a name",
    "the winner {player} played cards, so was not frozen": "a name",
}


def test_every_sentence_that_counts_something_has_plural_forms(counted: list[tuple[str, str]], tmp_path: Any) -> None:
    """A sentence with a number before a counted word and no plural forms is either in
    ``NEVER_ONE`` (with why it is never said for 1) or a mistake: "1 points", "se jugaron 1 partidas"."""
    catalogue = extract(tmp_path / "messages.pot")
    single = {m.id for m in catalogue if isinstance(m.id, str) and m.id}
    found = {sentence for sentence in single if COUNTED.search(sentence)}
    assert sorted(found - set(NEVER_ONE)) == [], "say these with plural() / ngettext, or say why they are never 1"
    assert sorted(set(NEVER_ONE) - single) == [], "no longer in the code: take them out of NEVER_ONE"
