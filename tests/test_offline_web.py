"""Light pages and an app that works offline, seen from the server: compression, versioned
static files with a year-long cache, the icons and manifest, the service worker, and a write
sent again after its answer was lost (stored once, never called stale)."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from referee.web import assets
from referee.web.extensions import db
from referee.web.models import Event
from referee.web.store import find_by_token
from tests.test_tienlen_table_web import HTMX, Table, create

BROTLI = {"Accept-Encoding": "br, gzip"}


def static_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_pages_and_fragments_are_compressed_with_brotli_or_gzip(client):
    page = client.get("/tienlen/check", headers=BROTLI)
    assert page.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in page.vary and "HX-Request" in page.vary
    gz = client.get("/tienlen/check", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"
    assert len(page.data) < len(client.get("/tienlen/check").data) / 4


def test_static_files_have_versioned_names_a_year_long_immutable_cache_and_brotli(client):
    links = static_links(client.get("/").get_data(as_text=True))
    assert {re.sub(r"\.[0-9a-f]{12}\.", ".", u) for u in links} >= {
        "/static/css/app.css", "/static/js/app.js", "/static/js/picker.js", "/static/vendor/htmx.min.js"}
    for url in links:
        assert assets.HASHED.search(url), url
        response = client.get(url, headers=BROTLI)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        if not url.endswith(".png"):
            assert response.headers["Content-Encoding"] == "br", url
        response.close()


def test_a_plain_static_name_is_asked_again_and_never_kept_for_a_year(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    response.close()


def test_a_changed_file_is_a_new_release_with_new_names(app, tmp_path):
    built = app.extensions["thirteen_assets"]
    files = assets.sources()
    changed = tmp_path / "app.css"
    changed.write_text(files["css/app.css"].read_text(encoding="utf-8") + "\n.x{}", encoding="utf-8")
    assert assets.release_id({**files, "css/app.css": changed}) != built.release
    assert assets.hashed_name("css/app.css", b"a") != assets.hashed_name("css/app.css", b"b")


def test_the_manifest_lists_png_icons_made_from_the_svg_one_of_them_maskable(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    pngs = {(i["sizes"], i["purpose"]) for i in manifest["icons"] if i["type"] == "image/png"}
    assert pngs == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert png.data[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(png.data[16:20], "big") == size == int.from_bytes(png.data[20:24], "big")
        png.close()


def test_the_maskable_icon_keeps_the_mark_inside_the_safe_circle():
    svg = assets.ICON_SVG.read_text(encoding="utf-8")
    maskable = assets.maskable_svg(svg)
    assert 'rx="' not in maskable  # the background reaches every edge
    assert "scale(0.72)" in maskable and '<g id="mark"' in maskable


def test_the_service_worker_precaches_this_releases_shell_and_is_never_cached_itself(app, client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    body = response.get_data(as_text=True)
    release = app.extensions["thirteen_assets"].release
    assert f'const RELEASE = "{release}"' in body
    for url in static_links(client.get("/").get_data(as_text=True)):
        if "/icons/" not in url:
            assert json.dumps(url) in body, url  # what every page loads is precached
    assert "importScripts(" in body and "workbox-precaching.prod." in body
    assert "worker-src 'self'" in client.get("/").headers["Content-Security-Policy"]


def test_the_service_worker_keeps_every_new_game_form_once_a_page_has_settled(client):
    body = client.get("/sw.js").get_data(as_text=True)
    kept = json.loads(body.split("const START_PAGES = ", 1)[1].split(";", 1)[0])
    assert kept[0] == "/"
    for form in ("/three-thirteen/", "/tienlen/new", "/tienlen/scores/", "/trece/"):
        assert form in kept, form  # a game can be started offline on a phone that never opened its form
        assert client.get(form).status_code == 200
    assert "/tienlen/check" in kept and "/three-thirteen/score" in kept
    assert len(kept) == len(set(kept))


def test_the_offline_page_says_what_still_works(client):
    html = client.get("/offline").get_data(as_text=True)
    assert "never opened on this phone" in html and "sent when the connection is back" in html


def test_every_page_says_when_it_was_made_for_its_offline_copy(client):
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'data-rendered="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', html)


def test_the_share_qr_code_is_drawn_only_for_links_to_this_server(client):
    assert client.get("/qr.svg", query_string={"link": "https://example.org/x"}).status_code == 404
    response = client.get("/qr.svg", query_string={"link": "http://localhost/trece/g/abc"})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")


def events(app, token: str) -> list[dict]:  # type: ignore[type-arg]
    with app.app_context():
        game = find_by_token(token).game  # type: ignore[union-attr]
        return [dict(p) for p in db.session.scalars(select(Event.payload).where(Event.game_id == game.id))]


@pytest.fixture
def table(app, client):
    return Table(app, client, create(client))


def test_a_write_sent_again_after_its_answer_was_lost_is_stored_once_and_not_called_stale(app, table):
    mine = {**HTMX, "X-Thirteen-Write": "mx4h7pjorq6xw"}
    first = table.play(1, "3s", seen=0, headers=mine)
    assert first.status_code == 200
    again = table.play(1, "3s", seen=0, headers=mine)  # the same entry, from the phone's outbox
    assert again.status_code == 200
    assert "changed" not in again.get_data(as_text=True)
    assert [e["action"] for e in events(app, table.token)] == ["play"]


def test_a_different_write_against_an_old_version_is_still_stale(app, table):
    assert table.play(1, "3s", seen=0, headers={**HTMX, "X-Thirteen-Write": "aaaaaaaa1"}).status_code == 200
    other = table.play(1, "3s", seen=0, headers={**HTMX, "X-Thirteen-Write": "bbbbbbbb2"})
    assert other.status_code == 409
    plain = table.play(1, "3s", seen=0, headers=HTMX)  # no id at all
    assert plain.status_code == 409
    assert len(events(app, table.token)) == 1
