"""Static files for phones on bad Wi-Fi: versioned names, a year-long cache, compressed once.

When the app starts, :func:`build` gathers what the browser needs into one folder under
``instance/``: the files of ``static/``, htmx from its pip package, the Workbox service-worker
libraries from ``node_modules`` (``npm ci`` installs them) and PNG icons rendered from
``static/icon.svg`` (resvg).  Every file is kept twice: under its own name and under a name
carrying a hash of its content (``css/app.3f9c1a2b7d0e.css``); beside each text file WhiteNoise's
compressor writes ``.br`` and ``.gz`` versions, so nothing is compressed per request.

:func:`init_app` puts WhiteNoise in front of the app to serve that folder at ``/static/``:
hashed names with ``Cache-Control: public, max-age=31536000, immutable``, plain names with a
short cache.  ``url_for('static', filename='css/app.css')`` gives the hashed name, so a new
release is a new URL and a phone never keeps an old file.  The folder is named after the
*release* (a hash of every source file), built once, and reused by every process.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any
from wsgiref.headers import Headers

import rcssmin
import resvg_py
import rjsmin
from flask import Flask, current_app
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from referee.cards import notation_for_javascript
from referee.web import engine, registry
from referee.web.policy import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"
NODE_MODULES = ROOT / "node_modules"
ICON_SVG = STATIC / "icon.svg"

YEAR = 31536000
KEEP_RELEASES = 2  # earlier builds kept beside the current one
HASHED = re.compile(r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$|/engine/(?:runtime|app|pages)-[0-9a-f]{12}/")  # see referee.web.engine

# The Workbox libraries the service worker loads, in the order they depend on each other.
WORKBOX_MODULES = ("core", "routing", "strategies", "precaching")
# (name, size, maskable): the icons the manifest lists.
ICONS = (("icons/icon-192.png", 192, False), ("icons/icon-512.png", 512, False),
         ("icons/icon-maskable-512.png", 512, True))


@dataclass(frozen=True)
class Build:
    """A built static folder: where it is, its release id, and each file's hashed name."""

    folder: Path
    release: str
    names: dict[str, str]  # plain name -> hashed name

    def url_name(self, filename: str) -> str:
        return self.names.get(filename, filename)

    @property
    def has_htmx(self) -> bool:
        return "vendor/htmx.min.js" in self.names

    @property
    def has_workbox(self) -> bool:
        return all(f"vendor/workbox/workbox-{m}.prod.js" in self.names for m in WORKBOX_MODULES)


HTMX = NODE_MODULES / "htmx.org" / "dist" / "htmx.min.js"
"""htmx, from npm (``htmx.org``, pinned in package-lock.json like Workbox and Pyodide)."""
HEAD_SUPPORT = NODE_MODULES / "htmx-ext-head-support" / "dist" / "head-support.min.js"
"""htmx's own head-support extension (``htmx-ext-head-support``, pinned beside htmx): a boosted
link or form brings the next page's ``<head>`` (its stylesheets and scripts) with its body.  It
is served inside ``vendor/htmx.min.js``, after htmx (one request fewer on every first visit)."""
HTMX_SSE = NODE_MODULES / "htmx-ext-sse" / "dist" / "sse.min.js"
"""htmx's own SSE extension (``htmx-ext-sse``, pinned beside it): the followed pages' event streams."""


def sources() -> dict[str, Path]:
    """Every file the build takes in, by the name it is served under."""
    found: dict[str, Path] = {}
    for path in sorted(STATIC.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            found[path.relative_to(STATIC).as_posix()] = path
    if HTMX.exists():
        found["vendor/htmx.min.js"] = HTMX
    if HTMX_SSE.exists():
        found["vendor/htmx-ext-sse.min.js"] = HTMX_SSE
    for module in WORKBOX_MODULES:
        lib = NODE_MODULES / f"workbox-{module}" / "build" / f"workbox-{module}.prod.js"
        if lib.exists():
            found[f"vendor/workbox/workbox-{module}.prod.js"] = lib
    return found


def release_id(files: dict[str, Path]) -> str:
    """A hash of every static source and template: a new release whenever one changes."""
    digest = hashlib.sha256()
    for name, path in sorted(files.items()):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    for path in sorted(TEMPLATES.rglob("*.html")):
        digest.update(path.relative_to(TEMPLATES).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(notation_json())
    if HEAD_SUPPORT.exists():
        digest.update(HEAD_SUPPORT.read_bytes())
    return digest.hexdigest()[:12]


def hashed_name(name: str, data: bytes) -> str:
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:12]}.{ext}" if dot else name


def maskable_svg(svg: str) -> str:
    """The icon for a maskable slot: the background to every edge, the mark inside the safe
    circle (80 % of the width) the launcher may cut to."""
    mark = re.search(r'<g id="mark".*</g>', svg, re.S)
    if mark is None:
        raise ValueError("static/icon.svg has no <g id=\"mark\"> for the maskable icon")
    fill = re.search(r'<rect[^>]*fill="([^"]+)"', svg)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            f'<rect width="64" height="64" fill="{fill.group(1) if fill else "#0f5132"}"/>'
            f'<g transform="translate(32 32) scale(0.72) translate(-32 -32)">{mark.group(0)}</g></svg>')


def icon_drawings() -> dict[str, tuple[str, int]]:
    """Each PNG icon of the manifest: the SVG it is drawn from and its size."""
    svg = ICON_SVG.read_text(encoding="utf-8")
    return {name: (maskable_svg(svg) if maskable else svg, size) for name, size, maskable in ICONS}


def render_icons(folder: Path, cache: Path) -> None:
    """The PNG icons of the manifest, drawn from static/icon.svg (resvg, pinned on PyPI) once:
    kept in ``cache/<hash of what is drawn>/``, so a new release with the same icon (and every
    start after the first) copies them instead of drawing them again."""
    drawings = icon_drawings()
    key = hashlib.sha256(json.dumps([drawings, version("resvg-py")], sort_keys=True).encode()).hexdigest()[:16]
    kept = cache / key
    if not all((kept / name).exists() for name in drawings):
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache))
        try:
            for name, (svg, size) in drawings.items():
                target = work / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(bytes(resvg_py.svg_to_bytes(svg_string=svg, width=size, height=size)))
            try:
                work.rename(kept)
            except OSError:  # another process drew them first
                pass
        finally:
            shutil.rmtree(work, ignore_errors=True)
    for name in drawings:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(kept / name, target)


def minified(name: str, data: bytes) -> bytes:
    """Our own scripts and stylesheets without comments and spaces (rjsmin, rcssmin); the
    sources in static/ keep theirs.  Vendored files come minified already."""
    if name.startswith("vendor/"):
        return data
    if name.endswith(".js"):
        return rjsmin.jsmin(data.decode("utf-8")).encode("utf-8")
    if name.endswith(".css"):
        return rcssmin.cssmin(data.decode("utf-8")).encode("utf-8")
    return data


def _compress(folder: Path) -> None:
    compressor = Compressor(quiet=True)
    for path in list(folder.rglob("*")):
        if path.is_file() and compressor.should_compress(path.name):
            compressor.compress(str(path))


NOTATION_MARK = b"/*thirteen:card-notation*/{}"
"""Where a script takes the card notation: the library's (:func:`referee.cards.notation_for_javascript`),
written in when the release is built, so the grammar is said once."""


def notation_json() -> bytes:
    return json.dumps(notation_for_javascript(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _copy(files: dict[str, Path], folder: Path, icons: Path) -> dict[str, str]:
    names: dict[str, str] = {}
    for name, path in files.items():
        data = path.read_bytes().replace(NOTATION_MARK, notation_json())
        if name == "vendor/htmx.min.js" and HEAD_SUPPORT.exists():  # htmx with its head-support extension
            data = data.rstrip() + b"\n" + HEAD_SUPPORT.read_bytes()
        if name.startswith("vendor/workbox/"):  # its source map is not shipped
            data = re.sub(rb"\n//# sourceMappingURL=\S+\s*$", b"\n", data)
        data = minified(name, data)
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    render_icons(folder, icons)
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            data = path.read_bytes()
            names[name] = hashed_name(name, data)
            (folder / names[name]).write_bytes(data)
    return names


def build(instance: Path) -> Build:
    """The static folder of this release, built now unless an earlier start already did."""
    files = sources()
    release = release_id(files)
    home = instance / "static-build"
    folder = home / release
    manifest = folder / "names.json"
    if not manifest.exists():
        home.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{release}-", dir=home))
        try:
            names = _copy(files, work, instance / "icons")
            _compress(work)
            (work / "names.json").write_text(json.dumps(names, indent=1, sort_keys=True), encoding="utf-8")
            try:
                work.rename(folder)
            except OSError:  # another process finished the same release first
                pass
        finally:
            shutil.rmtree(work, ignore_errors=True)
        # Earlier releases go, but the two latest: a process of the previous release may still
        # be serving its pages while this one starts (a rolling restart).
        earlier = sorted((p for p in home.iterdir() if p.name != release and not p.name.startswith(".")),
                         key=lambda p: p.stat().st_mtime, reverse=True)
        for old in earlier[KEEP_RELEASES:]:
            shutil.rmtree(old, ignore_errors=True)
    names = json.loads(manifest.read_text(encoding="utf-8"))
    return Build(folder=folder, release=release, names=names)


def _immutable(path: str, url: str) -> bool:
    return bool(HASHED.search(url))


def _static_headers(headers: Headers, path: str, url: str) -> None:

    headers["X-Content-Type-Options"] = "nosniff"
    # The same policy as the pages (an SVG or a script opened on its own is held to it too).
    headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    headers["Referrer-Policy"] = "no-referrer"
    if HASHED.search(url):  # a hashed name never changes: keep it a year, never ask again
        headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:  # a plain name may change with the next release: ask again (a 304 when unchanged)
        headers["Cache-Control"] = "no-cache"


def init_app(app: Flask) -> Build:
    """Serve the built folder at /static/ and make ``url_for('static', ...)`` give hashed names."""
    built = build(Path(app.instance_path))
    app.extensions["thirteen_assets"] = built
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]  # Flask's way to add WSGI middleware
        app.wsgi_app, root=str(built.folder), prefix="static/", max_age=YEAR, allow_all_origins=False,
        immutable_file_test=_immutable, add_headers_function=_static_headers,
        mimetypes={".webmanifest": "application/manifest+json"},
    )
    app.extensions["thirteen_static"] = app.wsgi_app  # more folders are added to it later (the engine's pages)
    # The phone's engine (Pyodide and the library), in folders named after their content.
    phone_engine = None
    if app.config.get("PHONE_ENGINE", True):
        games = registry.load(app.config.get("GAME_PACKAGES") or registry.GAME_PACKAGES)
        phone_engine = engine.build(Path(app.instance_path), games)
    app.extensions["thirteen_engine"] = phone_engine
    if phone_engine is not None:
        app.wsgi_app.add_files(str(phone_engine.folder), prefix="static/" + engine.URL_PREFIX)

    @app.url_defaults
    def _hashed_static(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = built.url_name(values["filename"])

    return built


def current() -> Build:
    built = current_app.extensions["thirteen_assets"]
    if not isinstance(built, Build):
        raise RuntimeError("referee.web.assets.init_app was not called for this app")
    return built
