"""The invariants every browser test checks (tests/invariants.py) catch what they are for: a
page wider than the phone, the screen's main control out of view, a console error, an answer
the step did not expect; each said with the screen, the step and the element."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGES = {
    "wide": '<div id="wide" style="width: 900px">a row of cards too wide for the phone</div>',
    "main": '<p>text</p><button data-main style="margin-top: 2000px">Play</button>',
    "console": '<p>fine</p><script>console.error("a broken script")</script>',
    "fine": '<h1>Fine</h1><button data-main>Play</button>',
}
SAID = {
    "wide": "div#wide",
    "main": 'data-main=""] "Play" is out of view',
    "console": "the console said: a broken script",
}


def serve(name: str, body: str):  # type: ignore[no-untyped-def]
    html = (f"<!doctype html><html><head><title>{name}</title>"
            f'<meta name="viewport" content="width=device-width"></head><body>{body}</body></html>')
    return lambda route: route.fulfill(content_type="text/html", body=html)


def test_each_kind_of_break_is_said_with_its_screen_step_and_element(browser, live_server, new_phone, phone_context):
    context = browser.new_context(**phone_context)
    phone = new_phone(context, strict=True)
    page = phone.page
    for name, body in PAGES.items():
        page.route(f"{live_server.url}/__{name}", serve(name, body))
    for name, said in SAID.items():
        page.goto(f"{live_server.url}/__{name}")
        with pytest.raises(AssertionError) as caught:
            phone.step(f"open {name}")
        assert said in str(caught.value), str(caught.value)
        assert f"/__{name}" in str(caught.value) and f"open {name}" in str(caught.value)
    page.goto(f"{live_server.url}/__fine")
    phone.step("open fine")
    page.goto(f"{live_server.url}/no-such-page")
    with pytest.raises(AssertionError, match="answered 404 to GET"):
        phone.step("open a page that is not there")
    page.goto(f"{live_server.url}/no-such-page")
    phone.step("a 404 the step expects", allow=(404,))
    context.close()
