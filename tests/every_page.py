"""Every page of a big group, served again and again by one process: the crash test's child
(``tests/test_pages_stay_up.py``) and the crash benchmark's (``python -m tests.bench_never_dies``).

``python -m tests.every_page make DATABASE_URL EVENINGS`` imports a group of ``EVENINGS`` weekly
evenings (:func:`tests.bench_groups.document`: a Tiến lên sheet each evening, a Three Thirteen
sheet and a Trece table every other one) and prints the group's keeper path.

``python -X faulthandler -m tests.every_page serve DATABASE_URL GROUP_PATH ROUNDS [THRESHOLDS]``
asks a fresh process's app (Flask's test client) for every page of the group :func:`pages` finds,
``ROUNDS`` times over, each round with the collector's first threshold set to the next of the
comma-separated ``THRESHOLDS`` (low: it runs after every few allocations, so a heap that an
extension or the interpreter spoiled is walked at once, and at other moments each round), and
prints ``served N pages``.  A page that does not answer 200 ends it with exit code 1;
a segmentation fault ends it with -11 and faulthandler's traceback.

:func:`pages` finds the pages the way a person does, by following links: the group's page (and
its "Every evening" page), every link of it into the group (the stats page, each evening's
stats), the newest sheet or table of each kind (the newest evening's), and every link of those
into their own pages (their rounds, games, added games, spreadsheets).
"""

from __future__ import annotations

import gc
import re
import sys
import urllib.parse
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any

from tests.bench_groups import document

_HREF = re.compile(r'href="([^"#]+)"')
_TOKEN = re.compile(r"/g/([A-Za-z0-9_-]{16,})")
_SKIP = ("/static/", "export.json", "/manifest", "/sw.js", "/qr", ".png", ".svg")


def app_for(url: str) -> Any:
    from app import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "PHONE_ENGINE": False})


def make(url: str, evenings: int) -> str:
    """Import a group of ``evenings`` evenings into the database at ``url``; its keeper path."""
    client = app_for(url).test_client()
    answer = client.post("/groups/import", data={"file": (BytesIO(document(evenings, seed=2)), "group.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 303, answer.get_data(as_text=True)[:400]
    return str(answer.headers["Location"])


def links(html: str) -> list[str]:
    """The site's own pages a page links to (no static file, download or QR code)."""
    found = []
    for href in _HREF.findall(html.replace("&amp;", "&")):
        parts = urllib.parse.urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path.startswith("/") or any(s in href for s in _SKIP):
            continue
        found.append(href)
    return found


def pages(get: Callable[[str], tuple[int, str]], group_path: str) -> list[str]:
    """Every page of the group and of its newest evening's sheets and tables, found by links."""
    group_token = _TOKEN.search(group_path)
    assert group_token is not None, group_path
    status, front = get(group_path)
    assert status == 200, (group_path, status)
    found = [group_path, group_path + "?every=1"]
    status, every = get(found[1])
    assert status == 200, (found[1], status)
    games: dict[str, str] = {}  # the newest sheet or table of each kind (the newest evening's first)
    for href in links(front) + links(every):
        token = _TOKEN.search(href)
        if token is None or href in found:
            continue
        if token.group(1) == group_token.group(1):
            found.append(href)  # the group's own: its stats, each evening's stats
        elif href.endswith(token.group(1)) and href[:token.start()] not in games:
            games[href[:token.start()]] = href
    for game in games.values():
        found.append(game)
        status, page = get(game)
        assert status == 200, (game, status)
        token = _TOKEN.search(game)
        assert token is not None
        for href in links(page):
            if token.group(1) in href and href not in found and "/new" not in href:
                found.append(href)
    return found


def serve(url: str, group_path: str, rounds: int, thresholds: tuple[int, ...] = ()) -> int:
    client = app_for(url).test_client()

    def get(path: str) -> tuple[int, str]:
        answer = client.get(path)
        return answer.status_code, answer.get_data(as_text=True) if answer.mimetype == "text/html" else ""

    every = pages(get, group_path)
    served = 0
    for number in range(rounds):
        if thresholds:  # each round its own: where the collector runs moves from round to round
            gc.set_threshold(thresholds[number % len(thresholds)])
        for path in every:  # compressed as a phone asks (brotli's compressor runs too)
            status = client.get(path, headers={"Accept-Encoding": "br, gzip"}).status_code
            if status != 200:
                print(f"{path}: {status}", file=sys.stderr)
                return 1
            served += 1
    print(f"served {served} pages ({len(every)} pages, {rounds} rounds)", flush=True)
    return 0


def main(argv: Iterable[str]) -> int:
    command, url, *rest = argv
    if command == "make":
        print(make(url, int(rest[0])), flush=True)
        return 0
    return serve(url, rest[0], int(rest[1]), tuple(int(t) for t in rest[2].split(",")) if len(rest) > 2 else ())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
