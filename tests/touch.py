"""Real touch input for browser tests: taps and swipes sent through Chrome's DevTools
protocol (``Input.dispatchTouchEvent``), counted, with the page's scrolling measured.

A swipe is one finger put down on a card, moved in steps to another card, and lifted:
Chromium turns it into pointer events exactly as a phone's touch screen would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Touch:
    page: Any
    taps: int = 0
    swipes: int = 0
    scrolled: float = 0.0
    log: list[str] = field(default_factory=list)
    from_here: bool = False  # the page was scrolled on purpose before the gestures counted

    def __post_init__(self) -> None:
        self.cdp = self.page.context.new_cdp_session(self.page)
        self._y = self.page.evaluate("scrollY")
        if self._y and not self.from_here:
            raise AssertionError(f"the page opened scrolled by {self._y} px")

    @property
    def gestures(self) -> int:
        return self.taps + self.swipes

    def _track(self) -> None:
        try:
            y = self.page.evaluate("scrollY")
        except Exception:  # the tap followed a link: the next page is measured by a new Touch
            return
        self.scrolled += abs(y - self._y)
        self._y = y

    def _reachable(self, locator: Any) -> bool:
        """Whether a finger on the element's centre lands on it (in view, nothing on top)."""
        return bool(locator.evaluate(
            """e => { const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
                 if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
                 const hit = document.elementFromPoint(x, y); return !!hit && (hit === e || e.contains(hit)); }"""
        ))

    def _centre(self, locator: Any) -> tuple[float, float]:
        """The element's centre, scrolling it into reach first if need be (the scroll is counted).
        An element swapped out between the look and the measure (htmx redrawing the part it is in)
        is looked for again, as a finger waits for the screen to settle."""
        for _ in range(50):
            locator.wait_for(state="visible")
            if not self._reachable(locator):
                locator.evaluate("e => e.scrollIntoView({block: 'center'})")
                # let the compositor take the new scroll position before a finger lands
                self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                self.page.wait_for_timeout(100)
                self._track()
            box = locator.bounding_box()
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{locator} never stayed on the screen long enough to be touched")

    def tap(self, locator: Any) -> None:
        """One finger down and up on the element's centre."""
        self.tap_at(*self._centre(locator))

    def tap_at(self, x: float, y: float) -> None:
        """One finger down and up at a point of the screen (where a card was when the finger set off)."""
        send = self.cdp.send
        send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
        send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.taps += 1
        self.log.append("tap")
        self._track()

    def centre(self, locator: Any) -> tuple[float, float]:
        """Where a finger aims for the element (scrolling it into reach first if need be)."""
        return self._centre(locator)

    def hold(self, locator: Any, ms: int = 800) -> None:
        """One finger put down on the element's centre, kept there ``ms``, and lifted."""
        x, y = self._centre(locator)
        send = self.cdp.send
        send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
        self.page.wait_for_timeout(ms)
        send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.taps += 1
        self.log.append("hold")
        self._track()

    def swipe(self, start: Any, end: Any, steps: int = 8, rest: int = 0) -> None:
        """Put a finger on ``start``, slide it to ``end`` and lift it.

        ``rest``: ms the finger stays on ``start`` before it slides (a slow finger, or a busy
        phone that handles the moves late), longer than a hold takes when it is over 550.
        """
        self._centre(end)
        x0, y0 = self._centre(start)
        x1, y1 = self._centre(end)
        send = self.cdp.send
        send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0, "id": 1}]})
        if rest:
            self.page.wait_for_timeout(rest)
        for i in range(1, steps + 1):
            x = x0 + (x1 - x0) * i / steps
            y = y0 + (y1 - y0) * i / steps
            send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 1}]})
            self.page.wait_for_timeout(16)  # a finger's pace, one move a frame
        # The finger rests on the last card before it lifts, as it does at a table: lifted at
        # speed, Chromium would take the swipe for a fling and swallow the next tap.
        self.page.wait_for_timeout(60)
        send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y1, "id": 1}]})
        self.page.wait_for_timeout(60)
        send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.swipes += 1
        self.log.append("swipe")
        self._track()

    def report(self, what: str) -> str:
        line = f"{what}: {self.taps} taps + {self.swipes} swipes = {self.gestures} gestures, {self.scrolled:.0f} px scrolled"
        print(line)
        return line
