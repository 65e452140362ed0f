"""What every screen a phone reaches must be, written once (issue 34) and checked after each load
and each htmx swap by every browser test, the journeys and the walker.

A screen is usable when:

- nothing is wider than the phone (the page, or any box in it: ``width``);
- every stylesheet and script its own ``<head>`` names is applied, a page reached by a boosted link
  or form too, whose head htmx would otherwise drop (``head``: the head the server sent for that
  answer against ``document.styleSheets`` and the scripts the page has run);
- the control the screen exists for (an element the app marks ``data-main``: the grid, Play,
  Next, Save, the verdict) is in view once the page is reached, and the result of a tap (what its
  htmx swap replaced) is in view once it lands (``main``, ``result``);
- nothing is said in the console (``console``) and no answer is a 4xx or 5xx but a refusal the
  step expects (``status``);
- axe-core finds no serious or critical violation (``axe``: once per distinct screen, it is slow).

The checks of the page itself run in the page (:data:`INIT_SCRIPT`, added before any of the
page's own scripts) at every load and every settled swap, and report through a binding, so a test
that never asks still gets them; :meth:`Invariants.step` runs them once more after a test's action
and raises at the first broken one, naming the screen (address and title), the step and the
element (a selector and its box).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.axe import AXE, SERIOUS

OFFLINE_NOISE = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "net::", "htmx:sendError", "htmx:afterRequest",
                 "no-response", "when fetching the script", "EventSource")
"""What a phone cut from the network says in its console by design: each request that cannot
leave (Chromium's net:: line, fetch's "Failed to fetch", htmx's log of it), the service worker
finding no answer (Workbox's "no-response") or no script, the event stream that cannot connect."""


def offline_noise(*more: str) -> Callable[[str], bool]:
    """Whether a console line is a phone's offline noise (:data:`OFFLINE_NOISE`) or one of
    ``more`` (what a test makes on purpose: "status of 409" for a stale write it sends): the one
    test of it, for :attr:`Invariants.forgives` (at every step, as it may come at any step on a
    busy machine) and for ``Phone.forgive_offline`` (once, at the end).  htmx's SSE extension
    logs its stream's error event itself (``console.error(event)``): the exact line "Event".

    >>> noise = offline_noise("status of 409")
    >>> noise("Failed to load resource: net::ERR_INTERNET_DISCONNECTED"), noise("Event"), noise("status of 409")
    (True, True, True)
    >>> noise("Uncaught TypeError: x is undefined"), noise("Events")
    (False, False)
    """
    said = OFFLINE_NOISE + more
    return lambda line: line == "Event" or any(x in line for x in said)


RESULT = "what the tap changed"
"""Words of the invariant that a tap's result lands in view."""

INIT_SCRIPT = r"""
(() => {
  const RESULT = 'what the tap changed';
  if (window.__inv) return;
  const inv = window.__inv = {boostedHead: null, lastInput: -1e9, pending: null};
  const W = () => document.documentElement.clientWidth || innerWidth;
  function sel(e) {
    if (!e || !e.tagName) return String(e);
    const parts = [];
    for (let n = e; n && n.nodeType === 1 && parts.length < 4; n = n.parentElement) {
      let s = n.tagName.toLowerCase();
      if (n.id) { parts.unshift(s + '#' + n.id); break; }
      const cls = [...n.classList].slice(0, 2).join('.');
      if (cls) s += '.' + cls;
      for (const a of ['data-main', 'data-card', 'name', 'data-state']) if (n.hasAttribute(a)) { s += `[${a}="${n.getAttribute(a)}"]`; break; }
      parts.unshift(s);
    }
    const text = (e.innerText || e.value || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return parts.join(' > ') + (text ? ` "${text}"` : '');
  }
  function box(e) { const r = e.getBoundingClientRect(); return `[x ${Math.round(r.left)}..${Math.round(r.right)}, y ${Math.round(r.top)}..${Math.round(r.bottom)}]`; }
  function shown(e) {
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    if (e.checkVisibility && !e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    return true;
  }
  function clipped(e) {  /* drawn inside a box that hides its overflow on purpose (a visually hidden text) */
    for (let n = e; n && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.clip && s.clip !== 'auto') return true;
      if (s.clipPath && s.clipPath !== 'none') return true;
    }
    return false;
  }
  /* in view as the screen stood when it was reached (scrollY then: a test may scroll on at once) */
  function inView(e, y0) {
    const r = e.getBoundingClientRect(), dy = y0 === undefined ? 0 : scrollY - y0;
    const need = Math.min(r.height, 44), top = r.top + dy, bottom = r.bottom + dy;
    return bottom >= need && top <= innerHeight - need && r.right > 0 && r.left < W();
  }
  inv.width = function () {
    const out = [], w = W();
    const sw = document.documentElement.scrollWidth;
    if (sw > w + 1) out.push(`the page is ${sw} px wide on a ${w} px screen`);
    const wide = [];
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const cut = (r.right > w + 1 && r.left < w) || (r.left < -1 && r.right > 0);
      const scrolls = e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0
        && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
      if ((cut || scrolls) && shown(e) && !clipped(e)) wide.push([e, scrolls]);
    }
    /* name the innermost ones: a box whose own content is too wide, not every box around it */
    const leaves = wide.filter(([e]) => !wide.some(([o]) => o !== e && e.contains(o)));
    for (const [e, scrolls] of leaves.slice(0, 3))
      out.push(scrolls ? `${sel(e)} scrolls sideways (${e.scrollWidth} > ${e.clientWidth} px) ${box(e)}`
                       : `${sel(e)} runs past the ${w} px screen ${box(e)}`);
    return out;
  };
  function heads(doc) {
    const abs = u => new URL(u, location.href).href;
    return {
      css: [...doc.querySelectorAll('head link[rel~=stylesheet][href]')].map(l => abs(l.getAttribute('href'))),
      js: [...doc.querySelectorAll('head script[src]')].map(s => abs(s.getAttribute('src'))),
    };
  }
  async function sheetsLoaded() {
    const links = [...document.querySelectorAll('link[rel~=stylesheet]')].filter(l => !l.sheet);
    await Promise.race([
      Promise.all(links.map(l => new Promise(r => { l.addEventListener('load', r, {once: true}); l.addEventListener('error', r, {once: true}); }))),
      new Promise(r => setTimeout(r, 3000)),
    ]);
  }
  inv.head = function () {
    const out = [];
    const loaded = new Set([...document.styleSheets].filter(s => s.href && s.cssRules !== null).map(s => s.href));
    const ran = new Set([...document.scripts].filter(s => s.src).map(s => s.src)
      .concat(performance.getEntriesByType('resource').filter(r => r.initiatorType === 'script').map(r => r.name)));
    const own = heads(document);
    for (const href of own.css) if (!loaded.has(href)) out.push(`the stylesheet ${href} is named in the head but not applied`);
    if (inv.boostedHead) {
      const sent = heads(new DOMParser().parseFromString(inv.boostedHead, 'text/html'));
      for (const href of sent.css) if (!loaded.has(href)) out.push(`the stylesheet ${href} the server sent in this page's head is not applied (a boosted swap dropped it)`);
      for (const src of sent.js) if (!ran.has(src)) out.push(`the script ${src} the server sent in this page's head never ran (a boosted swap dropped it)`);
      const title = new DOMParser().parseFromString(inv.boostedHead, 'text/html').title;
      if (title && title !== document.title) out.push(`the title is "${document.title}", the server sent "${title}"`);
    }
    return out;
  };
  inv.main = function (y0) {
    const out = [];
    const mains = [...document.querySelectorAll('[data-main]')].filter(shown);
    if (mains.length && !mains.some(e => inView(e, y0)))
      out.push(`the screen's main control ${sel(mains[0])} is out of view ${box(mains[0])} on a ${innerHeight} px screen`);
    return out;
  };
  inv.result = function (target, y0) {
    if (!target || !target.isConnected || !shown(target) || inView(target, y0)) return [];
    return [`the result of the tap (${RESULT}), ${sel(target)}, landed out of view ${box(target)} on a ${innerHeight} px screen`];
  };
  inv.check = async function (what) {
    await sheetsLoaded();
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    let wide = inv.width();
    if (wide.length) {  /* once settled: a box mid-swap (a preview replaced) may be wide for a frame */
      await new Promise(r => setTimeout(r, 250));
      await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      wide = inv.width();
    }
    const out = [...wide, ...inv.head()];
    if (what.kind === 'load' || (what.kind === 'swap' && what.whole && !what.refused)) out.push(...inv.main(what.y0));
    else if (what.kind === 'swap' && what.user) out.push(...inv.result(what.target, what.y0));
    return out;
  };
  function report(what) {
    const run = inv.check(what).then(found => {
      const said = {step: what.step, url: location.href, title: document.title, found};
      if (found.length && window.__thirteenInvariant) window.__thirteenInvariant(said);
      return said;
    }, err => ({step: what.step, url: location.href, title: document.title, found: ['the check failed: ' + err]}));
    inv.pending = run;
    return run;
  }
  inv.flush = async function (step) {
    if (inv.pending) await inv.pending;
    return report({kind: 'step', step});
  };
  /* what a walk waits on: htmx requests under way, a document being left (for a while: a
     navigation may turn out to be a download or a 204) */
  const inFlight = new Set();
  document.addEventListener('htmx:beforeSend', e => { if (e.detail.xhr) inFlight.add(e.detail.xhr); });
  Object.defineProperty(inv, 'busy', {get() {
    for (const x of inFlight) if (x.readyState === 4 || x.readyState === 0) inFlight.delete(x);
    return inFlight.size + (document.querySelector('.htmx-swapping, .htmx-settling') ? 1 : 0)
      + (performance.now() - inv.leftAt < 4000 ? 1 : 0);
  }});
  inv.leftAt = -1e9;
  addEventListener('beforeunload', () => { inv.leftAt = performance.now(); });
  for (const type of ['pointerdown', 'keydown', 'touchstart', 'submit'])
    addEventListener(type, e => {
      inv.lastInput = performance.now();
      /* a tap on a button, a link or a card must show its result; ticking or typing in a field
         (a house rule, a name) may update a summary elsewhere on the page */
      if (type !== 'submit') inv.field = !!(e.target && e.target.closest && e.target.closest('input, select, textarea, label'));
    }, true);
  document.addEventListener('htmx:afterRequest', e => {
    const d = e.detail;
    if (d.boosted && d.xhr && d.successful !== false) inv.boostedHead = d.xhr.responseText;
  });
  document.addEventListener('htmx:afterSettle', e => {
    const d = e.detail, cfg = d.requestConfig || {};
    const whole = !!(d.boosted || (d.target && d.target.tagName === 'BODY'));
    /* a refusal (4xx) brings its reason in view: the main control may wait below it */
    const refused = !!(d.xhr && d.xhr.status >= 400);
    let target = d.target;
    if (target && !target.isConnected && target.id) target = document.getElementById(target.id);
    const user = !!(d.requestConfig && performance.now() - inv.lastInput < 3000) && !inv.field;
    /* a tap that brought a whole page has its result there (its main control is checked in view):
       what the new page then fetches for itself (a hand's split drawn again) is not the tap's */
    if (whole) inv.lastInput = -1e9;
    const what = {kind: 'swap', whole, refused, user, target, y0: scrollY, step: `after ${(cfg.verb || 'a').toUpperCase()} ${d.pathInfo ? d.pathInfo.requestPath : ''} swapped ${sel(target)}`};
    /* a whole page (boosted) is scrolled to its top by htmx just after this event, in the same
       task: the screen as it is reached is the one after that scroll */
    if (whole) Promise.resolve().then(() => { what.y0 = scrollY; });
    report(what);
  });
  addEventListener('load', () => report({kind: 'load', step: 'page load', y0: scrollY}));
})();
"""

@dataclass
class Invariants:
    """The invariants on one page, with what the page reported by itself.

    ``strict_status``: every 4xx and 5xx answer is a violation unless the step names it
    (journeys, walker); otherwise only 5xx but 503 (a known outage the test makes) is.
    """

    page: Any
    strict_status: bool = False
    axe: bool = False
    allowed: tuple[int, ...] = ()
    """Answers expected at any step (the walker's random forms are often refused: 400, 409, 422)."""
    forgives: Callable[[str], bool] | None = None
    """Which console lines the test expects at any step from now on (a phone the test cut from
    the network logs each request that cannot leave, when it happens to be in flight)."""
    collect: bool = False
    """Keep every violation (``collected``) and go on instead of raising at the first step that
    broke one: a journey says everything its evening broke at once."""
    collected: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    violations: list[tuple[str, str]] = field(default_factory=list)
    """What the page reported by itself: (the screen and the step, the broken invariant)."""
    responses: list[tuple[int, str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    screens: set[str] = field(default_factory=set)
    steps: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        page = self.page
        page.expose_binding("__thirteenInvariant", lambda _source, said: self._said(said))
        page.add_init_script(INIT_SCRIPT)
        page.on("response", self._response)
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.responses.append((response.status, response.request.method, response.url))

    def _said(self, said: dict[str, Any]) -> None:
        # A tap's result in view is judged on the journeys' and the walker's phones (strict): the
        # other browser tests tap for their own assertions, often out of a person's order.
        found = [line for line in said["found"] if self.strict_status or RESULT not in line]
        self.violations.extend((f"{said['url']} «{said['title']}» {said['step']}", line) for line in found)

    def unexpected(self, allow: tuple[int, ...] = ()) -> list[tuple[int, str, str]]:
        allow = allow + self.allowed
        if self.strict_status:
            return [r for r in self.responses if r[0] not in allow]
        return [r for r in self.responses if r[0] >= 500 and r[0] != 503 and r[0] not in allow]

    def step(self, what: str, *, allow: tuple[int, ...] = (), axe: bool | None = None,
             result: Any = None) -> None:
        """After an action: the page's checks once more, the answers and the console since the
        last step, ``result`` (a locator) in view, axe on a screen not seen yet.  Raises at the
        first violation, naming the screen, the step and the element."""
        self.steps.append(what)
        page = self.page
        page.wait_for_load_state("load")
        said = None
        for _ in range(5):  # a navigation under way (a redirect, a poll's reload): check the page it lands on
            try:
                said = page.evaluate("step => window.__inv ? window.__inv.flush(step) : null", what)
                break
            except Exception as exc:  # noqa: BLE001 - playwright's Error, said again if it persists
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                page.wait_for_load_state("load")
        found: list[str] = list(said["found"]) if said else []
        screen = f"{page.url} «{_navigated_again(page, page.title)}» {what}"
        if result is not None:
            result.first.wait_for()
            inside = result.first.evaluate(
                """e => { const r = e.getBoundingClientRect(); const need = Math.min(r.height, 44);
                     return [r.bottom >= need && r.top <= innerHeight - need,
                             `[x ${Math.round(r.left)}..${Math.round(r.right)}, y ${Math.round(r.top)}..${Math.round(r.bottom)}]`]; }""")
            if not inside[0]:
                found.append(f"the step's result {result} is out of view {inside[1]} on a {page.viewport_size['height']} px screen")
        bad = self.unexpected(allow)
        found += [f"answered {status} to {method} {url}" for status, method, url in bad]
        self.responses.clear()
        found += [f"the console said: {e}" for e in self.errors
                  if not _expected_console(e, allow + self.allowed) and not (self.forgives and self.forgives(e))]
        self.errors.clear()
        if (self.axe if axe is None else axe):
            key = _navigated_again(page, lambda: screen_key(page))
            if key not in self.screens:
                self.screens.add(key)
                found += [f"axe: {v}" for v in _navigated_again(page, lambda: axe_on(page))]
        # what the page said by itself between the steps (swaps, loads) counts too, once
        shown = [(line, line) for line in dict.fromkeys(found)]
        shown += [(f"{where}: {line}", line) for where, line in dict.fromkeys(self.violations) if line not in found]
        self.violations.clear()
        if shown and self.collect:
            # said once per screen: the same fault seen again at the next tap adds nothing
            fresh = [text for text, line in shown if _fault(page, line) not in self.seen]
            self.seen.update(_fault(page, line) for _, line in shown)
            if fresh:
                self.collected.append(f"{screen}:\n  " + "\n  ".join(fresh))
        elif shown:
            raise AssertionError(f"{screen}:\n  " + "\n  ".join(text for text, _ in shown)
                                 + "\n  steps so far: " + " → ".join(self.steps[-12:]))

    def finish(self) -> list[str]:
        """Everything still unreported at the end of a test (the screen it ended on checked once
        more, if it is still open)."""
        try:
            if not self.page.is_closed():
                self.page.evaluate("() => window.__inv ? window.__inv.flush('the end of the test') : null")
        except Exception:  # noqa: BLE001 - a page that is navigating or gone: its loads were checked
            pass
        out = list(dict.fromkeys(f"{where}: {line}" for where, line in self.violations))
        out += [f"answered {status} to {method} {url}" for status, method, url in self.unexpected()]
        return out


class WithoutScripts:
    """The invariants a page with JavaScript off is held to, checked from outside: such a page
    runs none of the checks' own script (nor a frame, nor a timer), so each screen is checked
    once, at once: nothing wider than the phone, its own stylesheets applied, its main control in
    view, no console error, no answer 4xx or 5xx but those the test expects (``allow``)."""

    def __init__(self, page: Any, *, allow: tuple[int, ...] = ()) -> None:
        self.page = page
        self.allow = allow
        self.faults: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.faults.append(f"the console said: {m.text}"))
        page.on("pageerror", lambda e: self.faults.append(f"the page said: {e}"))
        page.on("response", lambda r: r.status >= 400 and r.status not in self.allow
                and self.faults.append(f"answered {r.status} to {r.request.method} {r.url}"))

    def step(self, what: str) -> None:
        """After an action: the screen it reached; raises naming the screen, the step and the fault."""
        page = self.page
        page.wait_for_load_state("load")
        page.evaluate(INIT_SCRIPT)  # the checks' functions, run by the test (the page runs no script)
        found = page.evaluate("[...window.__inv.width(), ...window.__inv.head(), ...window.__inv.main()]")
        found, self.faults[:] = [*self.faults, *found], []
        assert not found, f"{page.url} «{page.title()}» {what}:\n" + "\n".join(found)


def _fault(page: Any, line: str) -> str:
    """A violation without its coordinates or its step, on its screen's address pattern."""
    line = re.sub(r"\[x [^\]]*\]|-?\d+(\.\d+)? px|\d{3,}", "#", line)
    return screen_key(page, lang=False) + " " + line


def _expected_console(line: str, allow: tuple[int, ...]) -> bool:
    """The browser's own line for an answer the step expected ("the server responded with a
    status of 422")."""
    status = re.search(r"status of (\d{3})", line)
    return bool(status and int(status.group(1)) in allow)


def screen_key(page: Any, lang: bool = True) -> str:
    """A screen as axe needs to see it once: its address without tokens or numbers (round 2 is
    round 1's screen), its language."""
    path = re.sub(r"/[A-Za-z0-9_-]{16,}", "/*", urlsplit(page.url).path)
    path = re.sub(r"/\d+", "/#", path)
    return f"{path} {page.evaluate('document.documentElement.lang')}" if lang else path


_AXE_SOURCE: list[str] = []


def _navigated_again(page: Any, read: Any) -> Any:
    """``read()`` of the page, asked again on the page a navigation under way lands on (a
    redirect, a poll's reload) instead of failing with "Execution context was destroyed"."""
    for _ in range(5):
        try:
            return read()
        except Exception as exc:  # noqa: BLE001 - playwright's Error, said again if it persists
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
            page.wait_for_load_state("load")
    return read()


def axe_on(page: Any) -> list[str]:
    """axe-core's serious and critical violations, injected by evaluation (no content-policy
    bypass needed, so the page's own policy still holds)."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: ./scripts/test installs axe-core with npm (tests/a11y)")
    if not _AXE_SOURCE:
        _AXE_SOURCE.append(Path(AXE).read_text(encoding="utf-8"))
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_AXE_SOURCE[0] + "\n;0")
    result = page.evaluate(
        """async () => { const r = await axe.run(document, {resultTypes: ['violations']});
             return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }""")
    return [f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}" for v in result if v["impact"] in SERIOUS]
