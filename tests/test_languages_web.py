"""Pages, verdicts and the API in Español, Português (Brazilian) and Tiếng Việt beside English.

The app here reads the repository's catalogues compiled fresh into a temporary folder, so these
tests check the .po files as they are, whatever was compiled before.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask import url_for
from markupsafe import escape

from tests.games import ENTRIES, IDS, ROWS, WORKED, row
from tests.languages import LANGUAGES, compile_catalogues, extract, read_catalogue, translate

HTML_LANG = {"en": "en", "es": "es", "pt": "pt-BR", "vi": "vi"}
ACCEPT = {"es": "es-ES,es;q=0.9", "pt": "pt-BR,pt;q=0.9,en;q=0.5", "vi": "vi-VN,vi;q=0.9"}


@pytest.fixture(scope="module")
def catalogues(tmp_path_factory):  # type: ignore[no-untyped-def]
    return compile_catalogues(tmp_path_factory.mktemp("translations"))


@pytest.fixture
def app(catalogues, make_app):  # type: ignore[no-untyped-def]
    from referee.web.extensions import db

    app = make_app(BABEL_TRANSLATION_DIRECTORIES=str(catalogues))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture(scope="module")
def english(tmp_path_factory):  # type: ignore[no-untyped-def]
    """English sentences of two words or more, without blanks: none may show on a translated page."""
    pot = extract(tmp_path_factory.mktemp("pot") / "messages.pot")
    return [m.id for m in pot if isinstance(m.id, str) and " " in m.id and "%(" not in m.id and "{" not in m.id]


def visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html_lib.unescape(page))


# English words no Vietnamese sentence holds: their presence on a Vietnamese page means a sentence
# written outside the catalogues (in the web layer, say).
ENGLISH_WORDS = re.compile(r"\b(?:the|is|are|not|and|must|cannot|only|this|that|with|was|has|have)\b", re.I)


def untranslated(page: str, code: str, english: list[str]) -> list[str]:
    text = visible_text(page)
    catalogue = read_catalogue(code)
    shown = [s for s in english if s in text]
    missing = [s for s in shown if catalogue.get(s) is None]
    assert not missing, (f"translations/{code}/LC_MESSAGES/messages.po lacks these sentences (run "
                         f"scripts/update-translations, then translate them): {missing}")
    found = [s for s in shown if catalogue[s].string != s]
    if code == "vi":
        found += [text[max(0, m.start() - 30):m.end() + 30] for m in ENGLISH_WORDS.finditer(text)]
    return found


def say(code: str, msgid: str, **blanks: object) -> str:
    """What the page shows for ``msgid`` (HTML-escaped the way Jinja escapes it)."""
    return str(escape(translate(code, msgid, **blanks)))


# --- choosing the language ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("vi-VN,vi;q=0.9,en;q=0.5", "vi"),
        ("pt-BR", "pt-BR"),
        ("es-419,es;q=0.9", "es"),
        ("en-US,vi;q=0.5", "en"),  # the first match wins, even though "vi" matches exactly
        ("fr-FR, de;q=0.9, vi;q=0.8, es;q=0.5", "vi"),
        ("de-DE", "en"),
        ("", "en"),
    ],
)
def test_the_phones_first_language_the_app_speaks_is_chosen(client, header, expected):
    page = client.get("/", headers={"Accept-Language": header} if header else {}).get_data(as_text=True)
    assert f'<html lang="{expected}"' in page


def test_the_switcher_overrides_the_phone_and_is_remembered(client):
    response = client.get("/lang/vi?next=/tienlen/check", headers={"Accept-Language": "es"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/tienlen/check"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=vi;") and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    page = client.get("/tienlen/check", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="vi"' in page and say("vi", "Check a play") in page
    client.get("/lang/en?next=/")
    assert '<html lang="en"' in client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)


def test_an_unknown_cookie_falls_back_to_the_phones_languages(client):
    client.set_cookie("lang", "xx")
    assert '<html lang="pt-BR"' in client.get("/", headers={"Accept-Language": "pt"}).get_data(as_text=True)


@pytest.mark.parametrize(
    "target", ["https://example.com/", "//example.com/x", "/\\example.com", "/trece/new", "javascript:alert(1)", ""]
)
def test_the_switcher_only_goes_back_to_a_page_of_this_site(client, target):
    response = client.get("/lang/es", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_a_language_the_app_does_not_speak_is_not_found(client):
    assert client.get("/lang/fr").status_code == 404


def test_every_page_offers_every_language_by_its_own_name(client):
    page = client.get("/trece/rules?x=1", headers={"Accept-Language": "vi"}).get_data(as_text=True)
    links = re.findall(r'<button type="submit" formaction="/lang/(\w+)" lang="([\w-]+)"[^>]*>([^<]+)</button>', page)
    assert [(code, name) for code, _lang, name in links] == [
        ("en", "English"), ("es", "Español"), ("pt", "Português"), ("vi", "Tiếng Việt"),
    ]
    assert [lang for _c, lang, _name in links] == ["en", "es", "pt-BR", "vi"]
    assert re.search(r'data-lang="vi"\s+aria-current="true"', page)
    assert len(re.findall(r"aria-current", page)) == 1
    here = html_lib.unescape(re.search(r'name="next" value="([^"]+)"', page).group(1))
    back = client.post("/lang/es", data={"next": here})
    assert back.headers["Location"] == "/trece/rules?x=1"


def test_pages_vary_on_the_readers_language(client):
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


# --- each screen in each language ---------------------------------------------------------------

# Each screen and a sentence it must show in the reader's language: the home page, and each
# game's screens as its worked examples list them (tests/worked).
SCREENS = [("core.home", "Which game is on the table?")] + [
    (screen.endpoint, screen.words) for entry in ENTRIES for screen in WORKED[entry.slug].screens]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize(("endpoint", "words"), SCREENS, ids=[endpoint for endpoint, _ in SCREENS])
def test_each_screen_speaks_the_readers_language(app, client, english, code, endpoint, words):
    with app.test_request_context():
        path = url_for(endpoint)
    response = client.get(path, headers={"Accept-Language": ACCEPT[code]})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert f'<html lang="{HTML_LANG[code]}"' in page
    assert say(code, words) in page
    assert say(code, "All games") in page
    assert untranslated(page, code, english) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_error_pages_speak_the_readers_language(client, english, code):
    page = client.get("/no/such/page", headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "Not found") in page
    assert say(code, "There is nothing at this address. If it came from a share link, it may have been cut short.") in page
    assert untranslated(page, code, english) == []


def _tienlen_table(client) -> str:  # type: ignore[no-untyped-def]
    form = {"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "1", "hand_size": "13"}
    response = client.post("/tienlen/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def _trece_table(client) -> str:  # type: ignore[no-untyped-def]
    response = client.post("/trece/new", data={
        "name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "♥",
    })
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def _sheet(client) -> str:  # type: ignore[no-untyped-def]
    names = ["Ana", "Bao", "Chi"] + [""] * 5
    response = client.post("/three-thirteen/new", data={"names": names, "dealer": "0"})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def _score_sheet(client) -> str:  # type: ignore[no-untyped-def]
    keeper, _ = row("tienlen_scores").start(client)
    return row("tienlen_scores").page(keeper)


def _watch_link(page: str) -> str:
    return re.search(r'id="watch-link"[^>]*value="https?://[^/"]+([^"]+)"', page).group(1)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("game", ROWS, ids=IDS)
def test_a_shared_game_opens_in_each_watchers_own_language(client, app, english, code, game):
    sentence = game.example.watch_words
    keeper = game.page(game.start(client)[0])
    page = client.get(keeper, headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, sentence) in page and untranslated(page, code, english) == []
    watch = _watch_link(page)
    assert "lang" not in watch and f"/{code}/" not in watch  # the link carries no language
    for other in LANGUAGES:
        watcher = app.test_client()
        seen = watcher.get(watch, headers={"Accept-Language": ACCEPT[other]}).get_data(as_text=True)
        assert f'<html lang="{HTML_LANG[other]}"' in seen
        assert untranslated(seen, other, english) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_tienlen_score_sheet_entry_screen_speaks_the_readers_language(client, english, code):
    keeper = _score_sheet(client)
    page = client.get(keeper + "/add", headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "Who went out first?") in page and say(code, "Save the game") in page
    assert untranslated(page, code, english) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_three_thirteen_round_screen_speaks_the_readers_language(client, english, code):
    keeper = _sheet(client)
    page = client.get(keeper + "/round/1", headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "Save round %(n)s", n=1) in page
    assert untranslated(page, code, english) == []


# --- a verdict of each game in each language ----------------------------------------------------

BOMB = {"es": "una escalera doble de 3 parejas bombardea un 2 suelto",
        "pt": "uma sequência dupla de 3 pares bombardeia um 2 sozinho",
        "vi": "3 đôi thông chặt được một heo"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_tienlen_bomb_is_explained_in_the_table_words(client, code):
    page = client.post("/tienlen/check", data={"table": "2h", "play": "3s3c4d4h5s5c"},
                       headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert BOMB[code] in page
    assert say(code, "a double sequence of {pairs} pairs bombs a single 2", pairs=3) in page
    assert say(code, "double sequence of %(count)s pairs", count=3) in page  # the combination's name
    assert say(code, "Bomb") in page


PAIR = {"es": "pareja de jotas", "pt": "par de valetes", "vi": "đôi J"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_card_ranks_are_named_as_each_language_names_them(client, code):
    page = client.post("/tienlen/check", data={"table": "10s 10h", "play": "Jc Jd"},
                       headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert PAIR[code] in page
    assert "jacks" not in page


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_trece_run_is_judged_in_the_readers_language(client, code):
    page = client.post("/trece/check", data={"top": "J♦", "play": "Q♥ K♥ A♠"},
                       headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "{play} is a run on {top}", play="Q♥ K♥ A♠", top="J♦") in page


JOKER = {"es": "comodín", "pt": "curinga", "vi": "joker"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_trece_joker_demand_names_the_suit_in_the_readers_language(client, code):
    page = client.post("/trece/check", data={"top": "K♥", "play": "RJ"},
                       headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "{joker} on {king}: the other player must play a {suit}", joker="RJ", king="K♥", suit="♥") in page
    assert JOKER[code] in page


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_three_thirteen_hand_is_split_in_the_readers_language(client, english, code):
    page = client.get("/three-thirteen/score?round=2&hand=Ac+5h+6h+7h",
                      headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "run") in page and say(code, "left over") in page
    assert say(code, "%(ranks)s are wild", ranks="4") in page
    assert untranslated(page, code, english) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_mistyped_card_is_explained_in_the_readers_language(client, code):
    page = client.post("/tienlen/check", data={"table": "", "play": "3s zz"},
                       headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    assert say(code, "{piece} at position {position} is not a card", piece="'zz'", position=2) in page


@pytest.mark.parametrize(("code", "one", "many"), [("es", "1 punto", "15 puntos"), ("pt", "1 ponto", "15 pontos"),
                                                 ("vi", "1 điểm", "15 điểm")])
def test_one_point_is_said_in_the_singular_and_more_in_the_plural(client, code, one, many):
    headers = {"Accept-Language": ACCEPT[code]}
    single = client.get("/three-thirteen/score?round=2&hand=Ac+5h+6h+7h", headers=headers).get_data(as_text=True)
    assert re.search(rf">\s*{one}\s*<", single)
    several = client.get("/three-thirteen/score?round=1&hand=Kd+4s+Ac", headers=headers).get_data(as_text=True)
    assert re.search(rf">\s*{many}\s*<", several)


# --- the JSON API -------------------------------------------------------------------------------


def test_the_api_keeps_english_and_adds_the_sentences_template_and_blanks(client):
    body = client.post("/api/tienlen/check", json={"table": "2h", "play": "3s3c4d4h5s5c"}).get_json()
    assert body["reason"] == "a double sequence of 3 pairs bombs a single 2"
    assert body["reason_code"] == "a double sequence of {pairs} pairs bombs a single 2"
    assert body["params"] == {"pairs": 3}
    assert "reason_localized" not in body


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_api_says_the_reason_in_the_readers_language_on_request(client, code):
    headers = {"Accept-Language": ACCEPT[code]}
    body = client.post("/api/tienlen/check", json={"table": "2h", "play": "3s3c4d4h5s5c"}, headers=headers).get_json()
    assert body["reason"] == "a double sequence of 3 pairs bombs a single 2"
    assert body["reason_localized"] == BOMB[code]
    trece = client.post("/api/trece/check", json={"top": "J♦", "play": "Q♥ K♥ A♠"}, headers=headers).get_json()
    assert trece["reason"] == "Q♥ K♥ A♠ is a run on J♦"
    assert trece["reason_code"] == "{play} is a run on {top}"
    assert trece["params"] == {"play": "Q♥ K♥ A♠", "top": "J♦"}
    assert trece["reason_localized"] == translate(code, "{play} is a run on {top}", play="Q♥ K♥ A♠", top="J♦")


def test_a_template_and_its_blanks_rebuild_the_english_sentence(client):
    body = client.post("/api/tienlen/check", json={"table": "8h", "play": "8s"}).get_json()
    assert body["reason_code"].format(**body["params"]) == body["reason"] == "8♠ is lower than 8♥"


def test_an_api_mistake_names_its_template_too(client):
    body = client.post("/api/tienlen/check", json={"play": "3s zz"}, headers={"Accept-Language": "vi"}).get_json()
    assert body["error"] == "the play: 'zz' at position 2 is not a card"
    assert body["reason_code"] == "{piece} at position {position} is not a card"
    assert body["params"] == {"piece": "'zz'", "position": 2}
    assert body["field"] == "play"
    assert body["error_localized"] == translate("vi", "{what}: {why}", what=translate("vi", "the play"),
                                                why=translate("vi", "{piece} at position {position} is not a card",
                                                              piece="'zz'", position=2))
    parse = client.post("/api/cards/parse", json={"cards": "3s zz"}).get_json()
    assert parse["error"] == "'zz' at position 2 is not a card"
    assert parse["reason_code"] == "{piece} at position {position} is not a card"


def test_the_untranslated_check_finds_english_on_an_english_page(client, english):
    page = client.get("/tienlen/rules").get_data(as_text=True)
    assert "Beating what is on the table" in untranslated(page, "vi", english)


# --- refusals while following a game -------------------------------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_tienlen_refusal_at_the_table_is_said_in_the_readers_language(client, english, code):
    keeper = _tienlen_table(client)  # Bao (seat 1) holds the 3♠
    headers = {"Accept-Language": ACCEPT[code]}
    wrong_turn = client.post(keeper + "/play", data={"version": "0", "seat": "2", "cards": "3s"}, headers=headers)
    assert wrong_turn.status_code == 422
    page = wrong_turn.get_data(as_text=True)
    assert say(code, "it is {turn}'s turn, not {player}'s", turn="Bao", player="Chi") in page
    assert untranslated(page, code, english) == []
    opening = client.post(keeper + "/play", data={"version": "0", "seat": "1", "cards": "4s"}, headers=headers)
    assert say(code, "the first play of the game must contain the {card}", card="3♠") in opening.get_data(as_text=True)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_trece_refusal_at_the_table_is_said_in_the_readers_language(client, english, code):
    keeper = _trece_table(client)  # Q♥ starts the pile
    page = client.get(keeper, headers={"Accept-Language": ACCEPT[code]}).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    response = client.post(keeper + "/act", data={"version": version, "action": "play", "cards": "5♣"},
                           headers={"Accept-Language": ACCEPT[code]})
    page = response.get_data(as_text=True)
    assert response.status_code in (400, 422), page  # refused: nothing written
    assert say(code, "{card} is not one rank from {top}", card="5♣", top="Q♥") in page
    assert untranslated(page, code, english) == []


def test_a_sentence_missing_from_a_catalogue_is_named_not_a_crash():
    sentence = "A sentence nobody put in a catalogue"
    with pytest.raises(AssertionError, match=f"messages.po lacks these sentences.*{sentence}"):
        untranslated(f"<p>{sentence}</p>", "es", [sentence])
