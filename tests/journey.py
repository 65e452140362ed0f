"""A phone walked by touch through the app (issue 34's journeys and walker): every screen reached
through the app's own links, forms and buttons, and checked with the invariants of
tests/invariants.py after every action.

``Walk(phone)`` taps, types and chooses as a person does (real touch events, tests/touch.py),
waits for what the tap started (a page load, an htmx request and its swap) to settle, and then
runs ``phone.step(...)``: a broken invariant fails at the step that broke it.
"""

from __future__ import annotations

import time
from typing import Any

from tests.touch import Touch

SETTLED = """() => ({ready: document.readyState,
                   busy: window.__inv ? window.__inv.busy : 1})"""

class Walk:
    """Touch, type and choose on a :class:`tests.conftest.Phone`, checking every screen."""

    def __init__(self, phone: Any) -> None:
        self.phone = phone
        self.page = phone.page
        self._touch: Touch | None = None
        self.taps = 0

    @property
    def touch(self) -> Touch:
        if self._touch is None or self._touch.page is not self.page:
            self._touch = Touch(self.page, from_here=True)
        return self._touch

    def settle(self, timeout: float = 15.0) -> None:
        """Until what the last action started has landed: the next document loaded, or this one's
        htmx requests answered and swapped (and nothing left pending for a moment)."""
        end = time.monotonic() + timeout
        quiet = 0
        state: Any = None
        self.page.wait_for_timeout(40)
        while time.monotonic() < end:
            try:
                state = self.page.evaluate(SETTLED)
            except Exception:  # noqa: BLE001 - the document is being replaced
                self.page.wait_for_timeout(50)
                quiet = 0
                continue
            if state["ready"] == "complete" and state["busy"] == 0:
                quiet += 1
                if quiet >= 2:
                    return
            else:
                quiet = 0
            self.page.wait_for_timeout(30)
        raise AssertionError(f"{self.page.url}: what the last tap started never settled ({state})")

    def open(self, path: str, what: str | None = None) -> None:
        """The one address typed: the home page, or a link as a QR code gives it."""
        self.phone.open(path)
        self.page.wait_for_load_state("load")
        self.settle()
        self.phone.step(what or f"open {path}")

    def tap(self, target: Any, what: str, *, allow: tuple[int, ...] = (), result: Any = None) -> None:
        """Tap ``target`` (a locator or a selector) with a finger, let it land, check the screen."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator = self.visible(target, what)
        self.touch.tap(locator)
        self.taps += 1
        self.settle()
        self.phone.step(what, allow=allow, result=result)

    def visible(self, target: Any, what: str) -> Any:
        """The first element of ``target`` once it shows; a failure names the screen and what it offers."""
        locator = (self.page.locator(target) if isinstance(target, str) else target).first
        try:
            locator.wait_for(state="visible", timeout=8000)
        except Exception as exc:  # noqa: BLE001 - said as the screen that lacks it
            raise AssertionError(f"{self.page.url} «{self.page.title()}» {what}: nothing visible to tap at "
                                 f"{target!r}; the screen offers: {self.offered()}") from exc
        return locator

    def download(self, target: Any, what: str) -> Any:
        """Tap a download link: the downloaded file's path."""
        locator = self.visible(target, what)
        with self.page.expect_download() as download:
            self.touch.tap(locator)
        self.taps += 1
        self.phone.step(what)
        return download.value.path()

    def offered(self) -> list[str]:
        """The visible controls of the screen, for a failure's message."""
        return self.page.evaluate(
            """() => [...document.querySelectorAll('a[href], button, summary, input:not([type=hidden]), select')]
                 .filter(e => e.checkVisibility()).slice(0, 40)
                 .map(e => e.tagName.toLowerCase() + (e.dataset.action ? `[data-action=${e.dataset.action}]` : '')
                      + ' ' + (e.innerText || e.name || '').trim().replace(/\\s+/g, ' ').slice(0, 30))""")

    def button(self, name: str, what: str | None = None, **kw: Any) -> None:
        """Tap the visible button or link named ``name`` (exactly, or a pattern)."""
        self.tap(self.control(name), what or f"tap “{name}”", **kw)

    def control(self, name: Any) -> Any:
        page = self.page
        found = page.get_by_role("button", name=name).or_(page.get_by_role("link", name=name))
        return found.locator("visible=true")

    def type(self, target: Any, text: str) -> None:
        """Type into a field (a tap on it first, then the keyboard)."""
        locator = self.visible(target, f"type {text!r}")
        self.touch.tap(locator)
        locator.fill(text)

    def choose(self, target: Any, value: str) -> None:
        locator = (self.page.locator(target) if isinstance(target, str) else target).first
        locator.select_option(value)
