"""Benchmark: the phone's engine download on a slow link, with and without taps; run with
``python -m tests.bench_engine_download [runs]``.

A new phone opens the Tiến lên check screen on a 400 kbit/s, 400 ms link and waits until the
footer says the referee works offline.  The page is throttled, and so is the engine's own Web
Worker (DevTools' throttling of a page does not reach its workers: each worker target is
throttled here through the Chrome DevTools Protocol, before it runs a line).  Twice: with no
taps, then with a check tapped every 5 s during the download (each tap a verdict the server
answers, the engine not being ready).  Prints the time to ready of each (the engine's own
``readyMs``, from the worker's start) and their ratio; the goal (issue 35) is ≤ 1.2.  Also
counts the engine requests that were cut off or asked again (a ``Range`` request, a second
request for a file), which the goal's way of working should not need.

Not a test: the machine's load moves these times.  The ratio of one run is what is compared.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import CHROMIUM, PHONE, LiveServer, _make_app

SLOW = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
TAPS = ("2h", "3s", "3c", "4d", "4h", "5s", "5c", "6d", "6h", "7s", "7c", "8d")


class ThrottledPhone:
    """A phone whose page and every worker it starts are on the slow link."""

    def __init__(self, browser, url: str) -> None:  # type: ignore[no-untyped-def]
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.url = url
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", SLOW)
        self.waiting: list[str] = []  # worker sessions (not flattened) waiting to be throttled
        self.engine_requests: list[tuple[str, str]] = []  # (url, range) of the download's requests (not Pyodide's)
        self.cdp.on("Target.attachedToTarget", self._attached)
        self.cdp.on("Target.receivedMessageFromTarget", self._message)
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})
        self._id = 0

    def _attached(self, event: dict) -> None:  # type: ignore[type-arg]
        self.waiting.append(event["sessionId"])

    def _message(self, event: dict) -> None:  # type: ignore[type-arg]
        message = json.loads(event["message"])
        if message.get("method") == "Network.requestWillBeSent":
            request = message["params"]["request"]
            if "/static/engine/" in request["url"] and request["headers"].get("X-Thirteen-Direct") == "1":
                self.engine_requests.append((request["url"], request["headers"].get("Range", "")))

    def _to_worker(self, session: str, method: str, params: dict | None = None) -> None:  # type: ignore[type-arg]
        self._id += 1
        self.cdp.send("Target.sendMessageToTarget", {
            "sessionId": session, "message": json.dumps({"id": self._id, "method": method, "params": params or {}})})

    def throttle_workers(self) -> None:
        while self.waiting:
            session = self.waiting.pop(0)
            self._to_worker(session, "Network.enable")
            self._to_worker(session, "Network.emulateNetworkConditions", SLOW)
            self._to_worker(session, "Runtime.runIfWaitingForDebugger")

    def state(self) -> str:
        return str(self.page.evaluate("document.documentElement.dataset.engine || ''"))

    def run(self, taps: bool) -> dict[str, object]:
        page = self.page
        page.goto(self.url + "/tienlen/check", wait_until="commit")
        start = time.monotonic()
        tapped = 0
        next_tap = None
        while True:
            self.throttle_workers()
            state = self.state()
            if state in ("ready", "failed"):
                break
            if time.monotonic() - start > 900:
                state = "still " + state
                break
            if state == "loading" and taps:
                if next_tap is None:
                    next_tap = time.monotonic() + 5
                elif time.monotonic() >= next_tap:
                    page.locator(f"#picker-check [data-card='{TAPS[tapped % len(TAPS)]}']").tap()
                    tapped += 1
                    next_tap += 5
            page.wait_for_timeout(100)
        ready_ms = page.evaluate("window.Thirteen && window.Thirteen.engine && window.Thirteen.engine.readyMs")
        urls = [u for u, _ in self.engine_requests]
        return {"state": state, "ready_ms": ready_ms, "wall_s": round(time.monotonic() - start, 1), "taps": tapped,
                "ranges": sum(1 for _, r in self.engine_requests if r),
                "asked_again": len(urls) - len(set(urls))}

    def close(self) -> None:
        self.context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    with tempfile.TemporaryDirectory() as tmp:
        app = _make_app(f"sqlite:///{Path(tmp) / 'engine.sqlite'}", PHONE_ENGINE=True)
        with LiveServer(app, Path(tmp)) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            for run in range(runs):
                results = {}
                for taps in (False, True):
                    phone = ThrottledPhone(browser, server.url)
                    try:
                        results[taps] = phone.run(taps)
                    finally:
                        phone.close()
                    print(f"run {run + 1}, {'a check tapped every 5 s' if taps else 'no taps':>24}: {results[taps]}",
                          flush=True)
                quiet, tapped = results[False]["ready_ms"], results[True]["ready_ms"]
                if isinstance(quiet, int | float) and isinstance(tapped, int | float) and quiet:
                    print(f"run {run + 1}: ready with taps / without = {tapped / quiet:.2f} (goal ≤ 1.2)", flush=True)
            browser.close()


if __name__ == "__main__":
    main()
