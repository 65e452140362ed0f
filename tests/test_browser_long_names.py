"""Names as long as the forms take (40 characters), eight players where a game has them, in
every language, at 320 × 640: no page is wider than the screen (a phone that pans sends taps to
the wrong card), numbers never wrap, and the pages' headers stay apart."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PHONE

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "es", "pt", "vi")
# Up to 40 characters (the forms' limit), Vietnamese names that share their first words (as families do).
LONG = [
    'Nguyễn Thị Minh Khai Hoàng Phương Thảo',  # 38
    'Nguyễn Thị Minh Khai Hoàng Phương Bình',  # 38
    'Trần Văn Chiến Thắng Quốc Bảo Long Chi',  # 38
    'Phạm Minh Dũng Hữu Nghĩa Trọng Tín Đức',  # 38
    'Nguyễn Hữu Em Thành Công Phát Đạt Hưng',  # 38
    'Lê Thị Giang Sơn Thủy Tú Ngọc Hạnh Mai',  # 38
    'Trần Thị Hà Thu Thủy Bích Ngọc Hà Tiên',  # 38
    'Phạm Văn Khoa Học Kỹ Thuật Công Nghệ Huy',  # 40
]


def version(client, path: str) -> str:  # type: ignore[no-untyped-def]
    return re.search(r'name="version" value="(\d+)"', client.get(path).get_data(as_text=True)).group(1)


def local(url: str) -> str:
    return url.replace("http://localhost", "")


@pytest.fixture(scope="module")
def screens(live_server):  # type: ignore[no-untyped-def]
    """Every screen that shows the players' names, made with long names."""
    client = live_server.app.test_client()
    paths: list[str] = []
    # Three Thirteen: eight players, a saved round with three-digit points, the next round,
    # the saved round's correction (its last hand open) and the sheet.
    r = client.post("/three-thirteen/new", data={"names": LONG, "dealer": "0"})
    sheet = local(r.headers["Location"])
    for n in (1, 2):
        form = {"version": version(client, f"{sheet}/round/{n}"), "out": "0", "cards_0": "4h 5h 6h 7h"[: 3 * (n + 2)],
                **{f"points_{s}": str(100 + 10 * s + n) for s in range(1, 8)}}
        assert client.post(f"{sheet}/round/{n}", data=form).status_code == 303
    paths += [sheet, f"{sheet}/round/1", f"{sheet}/round/3"]
    r = client.post("/three-thirteen/new", data={"names": LONG[:4], "dealer": "0"})
    four = local(r.headers["Location"])
    form = {"version": version(client, f"{four}/round/1"), "out": "0", "cards_0": "4h 5h 6h", "points_1": "101",
            "points_2": "99", "points_3": "100"}
    assert client.post(f"{four}/round/1", data=form).status_code == 303
    paths.append(four)
    # Tiến lên: a new table with four long names, mid-hand and finished; the evening's sheet,
    # a game typed by hand and the scoring page of the finished hand.
    names4 = {f"name{i}": n for i, n in enumerate(LONG[:4])}
    r = client.post("/tienlen/scores/new", data=names4)
    evening = local(r.headers["Location"])
    r = client.post(f"{evening}/tables", data={"leader": "1", "lowest": "3♠", "version": version(client, evening)})
    table = local(r.headers["Location"])
    moves = [("play", 1, "3s 4s 5s"), ("pass", 2, ""), ("pass", 3, ""), ("pass", 0, "")]
    for what, seat, cards in moves:
        form = {"seat": str(seat), "version": version(client, table)} | ({"cards": cards} if cards else {})
        assert client.post(f"{table}/{what}", data=form).status_code == 303
    paths += [table, evening, f"{evening}/add"]
    r = client.post("/tienlen/new", data={"name0": LONG[0], "name1": LONG[1], "leader": "0", "hand_size": "13"})
    finished = local(r.headers["Location"])
    for what, form in (("play", {"seat": "0", "cards": "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"}),
                       ("pass", {"seat": "1"}), ("play", {"seat": "0", "cards": "2h"})):
        form["version"] = version(client, finished)
        assert client.post(f"{finished}/{what}", data=form).status_code == 303
    r = client.post(f"/tienlen/scores/score/{finished.rsplit('/', 1)[1]}/0")
    paths += [finished, local(r.headers["Location"])]
    # Trece: a table of long names.
    r = client.post("/trece/new", data={"name0": LONG[0], "name1": LONG[1], "dealer": "0", "turned_rank": "Q",
                                        "turned_suit": "♥", "run_after_joker__present": "1"})
    assert r.status_code == 303
    paths.append(local(r.headers["Location"]))
    return paths


WIDER = """() => { const out = []; const w = innerWidth;
  if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('main button, main .button, main input, main select')) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push((e.textContent || e.name || '').trim().slice(0, 40) + ' ' + Math.round(r.left) + '–' + Math.round(r.right));
  }
  return out; }"""

# The top bar stays one row (a second row is 44 px off every screen); a sheet's column headers
# show their whole label, each under its own column.
CRAMPED = """() => { const out = []; const bar = document.querySelector('.topbar');
  if (bar && bar.getBoundingClientRect().height > 48) out.push('top bar ' + Math.round(bar.getBoundingClientRect().height) + ' px tall');
  for (const th of document.querySelectorAll('main thead th')) {
    if (th.checkVisibility() && th.scrollWidth > th.clientWidth + 1) out.push('header cut: ' + th.textContent.trim());
  }
  return out; }"""

WRAPPED_NUMBERS = """() => [...document.querySelectorAll('main td')].filter(e => /^[−+\\-]?\\d+[✓✗*]?$/.test(e.textContent.trim()))
  .filter(e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects().length > 1; })
  .map(e => e.textContent.trim())"""


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_page_is_wider_than_a_320_px_phone_with_forty_character_names(browser, live_server, new_phone, screens, code):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    context.add_cookies([{"name": "lang", "value": code, "url": live_server.url}])
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    bad = {}
    for path in screens:
        page = phone.open(path)
        phone.settled()
        # A saved round's correction, with its last hand (the one beside Save) open.
        if re.search(r"/round/1$", path):
            page.locator("details.tt-correct > summary").tap()
            page.locator(".tt-step").last.tap()
        phone.step(f"{code} {path}" + (" (its correction, the last hand open)" if re.search(r"/round/1$", path) else ""))
        wider = page.evaluate(WIDER) + page.evaluate(CRAMPED) + [f"wrapped number {n}" for n in page.evaluate(WRAPPED_NUMBERS)]
        if wider:
            bad[path] = wider
    context.close()
    assert bad == {}, f"{code}: {bad}"
    assert phone.errors == []
