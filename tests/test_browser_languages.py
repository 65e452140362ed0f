"""The language switcher and long words on a 360 px phone, in Chromium.

A live server of its own reads the repository's catalogues compiled fresh for this run.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.web.extensions import db
from tests.conftest import PHONE, LiveServer
from tests.languages import LANGUAGES, compile_catalogues, translate

pytestmark = pytest.mark.browser

HTML_LANG = {"en": "en", "es": "es", "pt": "pt-BR", "vi": "vi"}


@pytest.fixture(scope="module")
def server(tmp_path_factory, make_app):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("lang-live")
    folder = compile_catalogues(tmp / "translations")
    app = make_app(f"sqlite:///{tmp / 'live.sqlite'}", BABEL_TRANSLATION_DIRECTORIES=str(folder))
    with LiveServer(app, tmp) as live:
        yield live
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def phones(browser, server, new_phone):  # type: ignore[no-untyped-def]
    """``phones(**context)``: a phone on this module's server, made by ``new_phone`` so every
    screen it reaches is checked (tests/invariants.py); at the end, its last screen is checked
    once more and any console error fails the test."""
    made = []

    def make(**options):  # type: ignore[no-untyped-def]
        made.append(new_phone(browser.new_context(**PHONE, **options), server=server))
        return made[-1]

    yield make
    for phone in made:
        phone.step("the end of the test")
        phone.context.close()
        assert phone.errors == [], f"console errors: {phone.errors}"


@pytest.fixture
def phone(phones):  # type: ignore[no-untyped-def]
    return phones(locale="en-US")


@pytest.fixture
def other_phone(phones):  # type: ignore[no-untyped-def]
    return phones(locale="en-US")


def test_the_switcher_changes_the_language_and_this_phone_remembers_it(phone, other_phone):
    page = phone.open("/tienlen/check")
    phone.step("the check screen")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("nav.langs button", has_text="Tiếng Việt").tap()  # posted: back on the same address
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    phone.step("Tiếng Việt chosen")
    assert page.url.endswith("/tienlen/check")
    assert page.locator("h1").first.inner_text() == translate("vi", "Check a play")
    assert page.locator('nav.langs button[aria-current="true"]').inner_text() == "Tiếng Việt"
    page.reload()
    phone.step("reloaded")
    assert page.locator("html").get_attribute("lang") == "vi"
    page.locator(".brand").tap()
    page.wait_for_url(phone.base_url + "/")
    phone.step("home by the top bar")
    assert page.locator("h1").inner_text() == translate("vi", "Which game is on the table?")
    page.locator("nav.langs button", has_text="Português").tap()
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    phone.step("Português chosen")
    assert page.url == phone.base_url + "/"
    # Another phone at the same table keeps its own language.
    assert other_phone.open("/").locator("html").get_attribute("lang") == "en"


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_phone_set_to_a_language_opens_in_it(phones, code):
    phone = phones(locale={"es": "es-MX", "pt": "pt-BR", "vi": "vi-VN"}[code])
    page = phone.open("/")
    assert page.locator("html").get_attribute("lang") == HTML_LANG[code]
    assert page.locator("h1").inner_text() == translate(code, "Which game is on the table?")


def _games(server) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """A game of each kind, created through the app: keeper pages and a round screen."""
    client = server.app.test_client()
    tienlen = client.post("/tienlen/new", data={"name0": "Nguyễn Thị Phương", "name1": "Bao", "name2": "Chi",
                                                  "leader": "1", "hand_size": "13"})
    trece = client.post("/trece/new", data={"name0": "Maximiliano", "name1": "Ben", "dealer": "0",
                                            "turned_rank": "Q", "turned_suit": "♥"})
    sheet = client.post("/three-thirteen/new", data={"names": ["Ana", "Bao", "Chi", "Dung"] + [""] * 4,
                                                     "dealer": "0"})
    scores = client.post("/tienlen/scores/new", data={"name0": "Nguyễn Thị Phương", "name1": "Bao", "name2": "Chi",
                                                      "name3": "Dung"})
    made = {"tienlen": tienlen, "trece": trece, "sheet": sheet, "scores": scores}
    for response in made.values():
        assert response.status_code == 303, response.get_data(as_text=True)
    path = {name: r.headers["Location"] for name, r in made.items()}
    return {**path, "round": path["sheet"] + "/round/1", "score entry": path["scores"] + "/add"}


SCREENS = ["/", "/tienlen/", "/tienlen/check", "/tienlen/rules", "/tienlen/new", "/three-thirteen/",
           "/three-thirteen/rules", "/three-thirteen/score", "/trece/", "/trece/check", "/trece/rules",
           "/tienlen/scores/", "/no/such/page",
           # verdicts, the longest sentences a screen shows
           "/tienlen/check?table=2h+2d&play=9s+9h+9c+9d", "/tienlen/check?table=3s+3c+4d+4h+5s+5c&play=9s+9h+9c+9d",
           "/tienlen/check?table=&play=3s+zz", "/trece/check?top=K%E2%99%A5&play=RJ",
           "/trece/check?top=J%E2%99%A6&play=Q%E2%99%A5+K%E2%99%A5+A%E2%99%A0+K%E2%99%A0",
           "/three-thirteen/score?round=2&hand=Ac+5h+6h+7h", "/three-thirteen/score?round=11&hand=Kd+4s+Ac+9c+9h"]

REFUSED = {"/no/such/page", "/tienlen/check?table=&play=3s+zz"}

# Buttons, links, fields and labels whose text spills out of them or out of the screen.
CLIPPED = """() => {
  const scrolls = e => { for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  return [...document.querySelectorAll(
      'button, a, summary, label, select, input[type=submit], .badge, .tag, h1, h2, th, td')]
    .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
      if (r.width <= 1 || r.height <= 1 || s.visibility === 'hidden' || e.closest('.visually-hidden')) return false;
      const spills = e.scrollWidth > e.clientWidth + 1 && s.overflowX !== 'auto' && s.overflowX !== 'scroll';
      const outside = (r.right > window.innerWidth + 1 || r.left < -1) && !scrolls(e);
      return spills || outside; })
    .map(e => e.tagName + ' "' + (e.textContent || '').trim().slice(0, 40) + '" '
              + e.scrollWidth + '>' + e.clientWidth)
    .concat([...document.querySelectorAll('input[placeholder]:not([type=hidden])')]
      .filter(e => { if (e.getBoundingClientRect().width === 0 || e.value) return false;
        e.value = e.placeholder; const cut = e.scrollWidth > e.clientWidth + 1; e.value = ''; return cut; })
      .map(e => 'placeholder "' + e.placeholder + '"')); }"""


@pytest.mark.parametrize("code", LANGUAGES)
def test_long_words_fit_a_360_px_phone_in_each_language(phones, server, code):
    games = _games(server)
    phone = phones(locale="en-US")
    phone.context.add_cookies([{"name": "lang", "value": code, "url": server.url}])
    for path in [*SCREENS, *games.values()]:
        page = phone.open(path)
        assert page.locator("html").get_attribute("lang") == HTML_LANG[code], path
        assert phone.no_sideways_scroll(), f"{code} {path}: the page scrolls sideways"
        # answered with a 4xx (no such page 404, cards that do not read 400), as it should be
        phone.step(f"{code} {path}", allow=(400, 404) if path in REFUSED else ())
        clipped = page.evaluate(CLIPPED)
        assert clipped == [], f"{code} {path}: clipped {clipped}"
        if path in REFUSED:
            phone.errors = [e for e in phone.errors if "status of 40" not in e]


def test_the_fit_check_catches_a_word_too_long_for_its_button(phone):
    page = phone.open("/")
    page.evaluate("""() => { const b = document.createElement('button');
        b.style.cssText = 'width: 80px; white-space: nowrap; overflow: hidden';
        b.textContent = 'Desfazer a última anotação'; document.querySelector('main').append(b); }""")
    assert any("Desfazer" in c for c in page.evaluate(CLIPPED))
    assert phone.small_targets() == []
