"""The walker (issue 34): from a seed, a phone taps its way through the app's reachable controls
(links, buttons, cards, forms filled with plausible values from the games' worked examples) for N
steps on SQLite, checking the invariants of tests/invariants.py after every step.  A failure
prints the seed and the steps so it replays.

    python -m tests.walk --seeds 10 --steps 200      # the long run: 2,000 steps
    python -m tests.walk --seed 7 --steps 300        # one seed again

The suite runs 300 steps (tests/test_walk.py).  Never followed: links off this server, downloads,
share links typed elsewhere; everything else a person could tap is fair, the language switch too.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.games import ROWS, WORKED
from tests.invariants import screen_key
from tests.journey import Walk

NAMES = ["Ana", "Bao", "Chi", "Dũng", "Émilie", "Nguyễn Thị Phương Thảo Hoàng-Trần Minh L"[:40], "João", "Zé"]
SIZES = [(360, 740), (320, 640)]
NEW_FORMS: dict[str, dict[str, Any]] = {f"{row.prefix}/new": dict(row.new) for row in ROWS}
"""Each followed game's new-table form (its address) and the worked example that starts one."""
STARTS: dict[str, str] = {**{f"{row.prefix}/": row.kind for row in ROWS}, **{f"{row.prefix}/new": row.kind for row in ROWS}}
"""The ways to a kind of table: its game's page and its new-table form."""
TABLES: list[tuple[str, str]] = sorted(((f"{row.prefix}/g/", row.kind) for row in ROWS), key=lambda p: -len(p[0]))
"""A followed game's own pages by their address (the longest prefix first: /tienlen/scores/g/ before /tienlen/g/)."""
STEER = 3.0
"""How much more a walk is drawn to a kind of table it has not yet been at (the links to its game's
page and new-table form, and that form's Start button, weigh this many times their weight), and
how much less a walk at a table is drawn away from it (a link, a form sent elsewhere: players stay
and play: cards, Play, Pass, Undo)."""
WORKED_FILL = 0.7
"""How often a new-table form is filled from its worked example (names drawn at random) rather
than at random: a random form is almost always refused (no leader tapped), so no table started."""
SELECTOR = "a[href], button, summary, input[type=checkbox], input[type=radio], [data-card]"
"""What a person could tap (CONTROLS numbers them in this order)."""
MARK = r"""
([selector, i]) => {
  /* The chosen control marked before the forms are filled: filling a field may redraw part of the
     screen (typed cards drawn as chips), which renumbers the controls after it. */
  document.querySelectorAll('[data-walk-target]').forEach(e => e.removeAttribute('data-walk-target'));
  document.querySelectorAll(selector)[i].setAttribute('data-walk-target', '');
}
"""
REFUSALS = (400, 409, 422)
"""What the app answers a form it refuses (a sentence, never a 500): expected of random forms."""

# The controls a person could tap on the screen, each with a key that finds it again.
CONTROLS = r"""
selector => {
  const out = [];
  const host = location.host;
  const all = document.querySelectorAll(selector);
  all.forEach((e, i) => {
    if (!e.checkVisibility || !e.checkVisibility({checkVisibilityCSS: true})) return;
    const r = e.getBoundingClientRect(); if (r.width < 2 || r.height < 2) return;
    if (e.disabled || e.closest('[disabled]')) return;
    if (e.tagName === 'A') {
      if (e.hasAttribute('download')) return;
      const u = new URL(e.href, location.href);
      if (u.host !== host || !/^https?:$/.test(u.protocol)) return;
      if (/\.(csv|json|svg|png)$/.test(u.pathname) || /export|download/.test(u.pathname)) return;
    }
    if (e.closest('[data-no-walk]')) return;
    if (e.tagName === 'INPUT' && e.type === 'file') return;
    const form = e.closest('form');
    if (form && form.enctype === 'multipart/form-data') return;
    /* how a person's eye is drawn: the primary and submit buttons first, the language switch seldom */
    const weight = e.closest('.langs') ? 0.3 : e.dataset.card ? 0.5
      : (e.classList.contains('primary') || e.type === 'submit') ? 4 : 1;
    const href = e.tagName === 'A' ? new URL(e.href, location.href).pathname : '';
    const action = form ? new URL(form.action, location.href).pathname : '';
    out.push({i, tag: e.tagName.toLowerCase(), href, action, submit: e.type === 'submit', text: (e.innerText || e.value || e.name || '').trim().replace(/\s+/g, ' ').slice(0, 40),
              card: e.dataset.card || '', form: !!form, weight});
  });
  return out;
}
"""

FILL = r"""
values => {
  /* Plausible values in the empty fields of every visible form: names, numbers in their range,
     cards from the worked examples; selects keep their choice. */
  let s = values.seed % 2147483647 || 1;
  const r = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const pick = a => a[Math.floor(r() * a.length)];
  let n = 0;
  if (window.__inv) { window.__inv.lastInput = performance.now(); window.__inv.field = true; }  /* typing */
  document.querySelectorAll('form input[type=text], form input[type=number], form input:not([type])').forEach(f => {
    if (!f.checkVisibility() || f.readOnly || f.value) return;
    if (f.type === 'number') {
      const lo = Number(f.min || 0), hi = Math.min(Number(f.max || 30), lo + 30);
      f.value = String(lo + Math.floor(r() * (hi - lo + 1)));
    } else if (/cards|caught/.test(f.name)) f.value = pick(values.cards);
    else if (/name|seat/.test(f.name) || f.hasAttribute('data-seat')) f.value = pick(values.names);
    else if (/stake/.test(f.name)) f.value = pick(['1', '0.5', '2']);
    else return;
    f.dispatchEvent(new Event('input', {bubbles: true})); f.dispatchEvent(new Event('change', {bubbles: true}));
    n += 1;
  });
  return n;
}
"""


WORKED_FILL_JS = r"""
([action, values, names]) => {
  /* The new-table form at ``action`` filled as its worked example is, the players' names drawn
     by the walker: a form the app accepts, so the walk reaches the table it starts. */
  const form = [...document.querySelectorAll('form')].find(f => new URL(f.action, location.href).pathname === action);
  if (!form) return 0;
  if (window.__inv) { window.__inv.lastInput = performance.now(); window.__inv.field = true; }  /* typing */
  let n = 0, k = 0;
  const put = (f, v) => {
    if (f.type === 'radio' || f.type === 'checkbox') f.checked = f.value === v;
    else f.value = v;
    f.dispatchEvent(new Event('input', {bubbles: true})); f.dispatchEvent(new Event('change', {bubbles: true}));
    n += 1;
  };
  for (const [key, value] of Object.entries(values)) {
    const fields = [...form.elements].filter(f => f.name === key);
    if (Array.isArray(value)) fields.forEach((f, i) => put(f, i < value.length ? names[k++] : ''));
    else if (fields.length && fields[0].type === 'radio') fields.forEach(f => put(f, String(value)));
    else fields.forEach(f => put(f, /name/.test(key) ? names[k++] : String(value)));
  }
  return n;
}
"""


def worked_cards() -> list[str]:
    """Card fields' values from the games' worked examples (the legal and refused writes)."""
    found: set[str] = set()
    for worked in WORKED.values():
        for example in worked.examples.values():
            for _, form in (example.legal, example.refused):
                found.update(str(v) for k, v in form.items() if k.startswith("cards") and v)
            found.add(example.typed)
    return sorted(found)


class Walker:
    """One seeded walk on ``phone`` (a :class:`tests.conftest.Phone`, strict), ``steps`` long."""

    def __init__(self, phone: Any, seed: int) -> None:
        self.walk = Walk(phone)
        self.phone = phone
        self.rng = random.Random(seed)
        self.seed = seed
        self.log: list[str] = []
        self.cards = worked_cards()
        self.screens: set[str] = set()
        self.tables: dict[str, int] = {}
        """The steps taken at each kind of followed table (its own page, /<game>/g/…)."""

    def run(self, steps: int) -> None:
        self.walk.open("/", "open the home page")
        for n in range(1, steps + 1):
            try:
                self.one(n)
            except Exception as exc:  # noqa: BLE001 - a violation, or a tap playwright could not make
                raise AssertionError(f"walker seed {self.seed}, step {n} of {steps} failed:\n{exc}\n"
                                     f"the steps: {' | '.join(self.log)}\n"
                                     f"replay: python -m tests.walk --seed {self.seed} --steps {n}") from None

    def evaluate(self, script: str, arg: Any = None) -> Any:
        """``page.evaluate`` once the page has settled: a navigation the last step started late
        (a redirect, a poll) is waited out, never taken for a failure."""
        for _ in range(5):
            try:
                return self.walk.page.evaluate(script, arg)
            except Exception as exc:  # noqa: BLE001 - playwright's Error
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                self.walk.settle()
        return self.walk.page.evaluate(script, arg)

    def one(self, n: int) -> None:
        page = self.walk.page
        if not page.url.startswith(self.phone.base_url) or self.rng.random() < 0.02:
            self.log.append(f"{n}: home")
            self.walk.open("/", f"step {n}: home")
            return
        self.screens.add(screen_key(page, lang=False))
        path = page.url[len(self.phone.base_url):]
        kind = next((k for prefix, k in TABLES if path.startswith(prefix)), None)
        if kind:
            self.tables[kind] = self.tables.get(kind, 0) + 1
        controls = self.evaluate(CONTROLS, SELECTOR)
        if not controls:
            self.log.append(f"{n}: back")
            page.go_back()
            self.walk.settle()
            self.phone.step(f"step {n}: back")
            return
        # Cards are many: all of a grid's cards together weigh what a few other controls do.
        cards = [c for c in controls if c["card"]]
        for c in cards:
            c["weight"] = 4 / len(cards)
        if kind:
            # At a table the players play: what leads away from it is seldom tapped.
            here = path.split("?")[0].split("#")[0]
            for c in controls:
                if c["tag"] == "a" or (c["form"] and not c["action"].startswith(here)):
                    c["weight"] /= STEER
        else:
            # Away from the tables, a person come to play looks for the way to one not yet played.
            for c in controls:
                way = STARTS.get(c["href"]) or (STARTS.get(c["action"]) if c["submit"] else None)
                if way and way not in self.tables:
                    c["weight"] *= STEER
        choice = self.rng.choices(controls, weights=[c["weight"] for c in controls])[0]
        self.evaluate(MARK, [SELECTOR, choice["i"]])
        filled = 0
        if choice["action"] in NEW_FORMS and self.rng.random() < WORKED_FILL:
            names = self.rng.sample(NAMES, len(NAMES))
            filled = self.evaluate(WORKED_FILL_JS, [choice["action"], NEW_FORMS[choice["action"]], names])
        elif choice["form"] and self.rng.random() < 0.8:
            filled = self.evaluate(FILL, {"names": NAMES, "cards": self.cards, "seed": self.rng.randrange(1, 2**31 - 1)})
        if filled:
            # A person types, looks, then taps: what the typing redraws (a hand's split, a tick it
            # takes back) lands before the tap, and is the typing's (a field's), not the tap's.
            self.walk.settle()
            self.phone.step(f"step {n}: typed in {filled} fields")
            if not self.evaluate("() => !!document.querySelector('[data-walk-target]')"):
                self.log.append(f"{n}: typed")
                return
        what = f"step {n}: {choice['tag']} “{choice['card'] or choice['text']}”"
        self.log.append(f"{n}: {choice['tag']} {choice['card'] or choice['text']!r}")
        target = page.locator("[data-walk-target]")
        # A refusal the app words (400, 409, 422) is a step the walk expects: a random form is
        # often wrong; 403/404/5xx are not.
        self.walk.tap(target, what, allow=REFUSALS)


def walk(browser: Any, base_url: str, seed: int, steps: int, make_phone: Any) -> Walker:
    rng = random.Random(seed)
    width, height = rng.choice(SIZES)
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, color_scheme=rng.choice(["light", "dark"]))
    try:
        phone = make_phone(context)
        walker = Walker(phone, seed)
        walker.run(steps)
        return walker
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=1, help="how many seeds, from --seed on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--verbose", action="store_true", help="print every step")
    args = parser.parse_args(argv)
    # The test server and the phone of the suite, outside pytest (the one place this is done).
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM, LiveServer, Phone, _make_app

    tmp = Path(tempfile.mkdtemp(prefix="walk-"))
    app = _make_app(f"sqlite:///{tmp / 'walk.sqlite'}")
    failed = 0
    with LiveServer(app, tmp) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for seed in range(args.seed, args.seed + args.seeds):
            try:
                walker = walk(browser, server.url, seed, args.steps,
                              lambda c: Phone(c, server.url, strict=True, axe=True, allowed=REFUSALS))
                if args.verbose:
                    print("\n".join(walker.log))
                tables = ", ".join(f"{k} {v}" for k, v in sorted(walker.tables.items())) or "none"
                print(f"seed {seed}: {args.steps} steps, {len(walker.screens)} screens, steps at tables: {tables}; "
                      f"no violation: {sorted(walker.screens)}", flush=True)
            except AssertionError as exc:
                failed += 1
                print(exc, flush=True)
        browser.close()
    print(f"{args.seeds - failed} of {args.seeds} seeds walked {args.steps} steps with no violation")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
