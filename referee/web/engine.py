"""The referee on the phone: the files of its engine, built when the app starts.

The rules library runs on the phone too, unchanged: CPython compiled to WebAssembly (Pyodide,
pinned in ``package-lock.json``, installed by ``npm ci`` into ``node_modules``, served by this
app, never a CDN) in a dedicated Web Worker (``static/js/engine-worker.js``), started by
``static/js/engine.js`` after the page has settled.  Two folders are built under
``instance/engine-build/`` and served under ``/static/engine/``, each named after a hash of
what it holds (a new release of either is a new address, kept a year, immutable):

``runtime-<hash>/``
    Pyodide itself: ``pyodide.js`` (the loader), ``pyodide.asm.js`` and ``pyodide.asm.wasm``
    (the interpreter) and ``pyodide-lock.json`` (read at start-up).
``app-<hash>/``
    ``python_stdlib.zip``: Pyodide's standard library trimmed to the modules that can be
    imported from what the phone runs (an import scan from Pyodide's own start-up modules and
    from ours), and ``thirteen.zip``: the ``referee`` library, the Flask-free screens (the
    shared :data:`PHONE_MODULES` and each game's ``answers`` module named by its registry
    entry's :class:`~referee.web.registry.PhoneScreen`, listed in ``phone_screens.json``),
    Jinja2 and MarkupSafe (pure Python, from this environment), the
    fragment templates the screens draw with (and what they import), and the compiled
    catalogues (``translations/*/LC_MESSAGES/messages.mo``).  ``referee/web/__init__.py`` and
    the games' ``__init__.py`` are replaced there by empty packages: the real ones bind Flask.

Both are precompressed (brotli and gzip) and built once per content: later starts reuse them.
Without ``node_modules/pyodide`` there is no engine, and every verdict comes from the server.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from encodings import aliases, normalize_encoding
from importlib.metadata import version
from pathlib import Path
from typing import Any

import brotli
from babel.numbers import list_currencies
from flask import Blueprint, Flask, Response, abort, current_app, url_for
from flask_babel import force_locale, get_locale, gettext
from markupsafe import Markup

from referee.web import i18n, registry, settle_up
from referee.web.registry import GameEntry, PhoneScreen
from referee.web.sharing import public_base

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
TEMPLATES = ROOT / "templates"
TRANSLATIONS = ROOT / "translations"
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json")
URL_PREFIX = "engine/"  # under /static/

# What every screen the phone answers shares (the web package itself binds Flask); each game's
# own screens come from its registry entry (referee.web.registry.PhoneScreen): their modules,
# their fragments and their kinds.
PHONE_MODULES = ("referee/web/checks.py", "referee/web/words.py", "referee/web/numbers.py",
                 "referee/web/house_rules.py", "referee/web/names.py", "referee/web/phone.py")
# What the phone draws a game started offline with (referee.web.phone_pages): fetched after the
# engine is ready, in a file of its own (pages.zip), unpacked beside thirteen.zip.  These are the
# shared parts; each game's own modules and pages come from its registry entry
# (referee.web.registry.PhonePages).
PAGES_MODULES = ("referee/web/phone_pages.py", "referee/web/events.py", "referee/web/feedback.py",
                 "referee/web/sheets.py", "referee/web/players.py",
                 "referee/web/evening_ends.py", "referee/web/money_words.py")
PAGES_TEMPLATES = ("errors/error.html", "partials/error.html")
PAGES_LIST_FILE = "referee/web/phone_pages.json"
"""Where pages.zip lists the games' modules that draw pages (read by :mod:`referee.web.phone_pages`)."""
PAGES_FILE = "pages.zip"
THIRD_PARTY = ("jinja2", "markupsafe")  # pure Python (MarkupSafe falls back from its C speedups)
SCREENS_FILE = "referee/web/phone_screens.json"
"""Where the zip says which function answers each kind (read by :mod:`referee.web.phone`)."""
# What Pyodide imports by itself when it starts (its own modules, the codecs, site), besides
# what those import in turn; cp437 is the codec zipfile reads a zip's plain names with.
STARTUP_ROOTS = ("_pyodide", "_pyodide._base", "_pyodide._core_docs", "_pyodide._future_helper",
                 "_pyodide._importhook", "_pyodide.docs_argspec", "_pyodide.docstring", "_pyodide.jsbind",
                 "pyodide", "pyodide._package_loader", "pyodide._state", "pyodide.code", "pyodide.common",
                 "pyodide.ffi", "pyodide.webloop", "site", "encodings", "encodings.utf_8", "encodings.ascii",
                 "encodings.latin_1", "encodings.utf_8_sig", "encodings.cp437", "zipimport",
                 "_sysconfigdata__emscripten_wasm32-emscripten")
_EMPTY_WEB_PACKAGE = b'"""The web package, on the phone: only its Flask-free modules (referee.web.phone)."""\n'
_EMPTY_GAME_PACKAGE = b'"""A game package, on the phone: only its Flask-free answers."""\n'
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)
_TEMPLATE_REF = re.compile(r"""{%-?\s*(?:from|import|include|extends)\s+["']([^"']+)["']""")


@dataclass(frozen=True)
class Engine:
    """The built engine: the folder served at ``/static/engine/`` and its two sub-folders."""

    folder: Path
    runtime: str  # "runtime-<hash>"
    app: str  # "app-<hash>"

    def files(self) -> list[str]:
        """Every file of this engine, as paths under ``/static/engine/``."""
        return [f"{self.runtime}/{name}" for name in RUNTIME_FILES] + [
            f"{self.app}/python_stdlib.zip", f"{self.app}/thirteen.zip"]

    def size(self) -> int:
        """Bytes to fetch once (brotli), the engine's whole weight on the phone."""
        total = 0
        for name in self.files():
            path = self.folder / name
            compressed = path.with_name(path.name + ".br")
            total += (compressed if compressed.exists() else path).stat().st_size
        return total


def available() -> bool:
    return all((PYODIDE / name).exists() for name in (*RUNTIME_FILES, "python_stdlib.zip"))


# --------------------------------------------------------------------------- the app's zip


def _zip(entries: dict[str, bytes]) -> bytes:
    """A zip with fixed times and order: the same files give the same bytes (and address).
    Stored, not deflated: the whole file is brotli-compressed for the wire, which packs better."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name])
    return out.getvalue()


def screens_of(games: Iterable[GameEntry]) -> list[PhoneScreen]:
    """The screens the phone answers: every game's, in the registry's order."""
    return [screen for entry in games for screen in entry.phone]


def screens_json(screens: Iterable[PhoneScreen]) -> dict[str, dict[str, Any]]:
    """Which function answers each kind, and what it is warmed up with (the zip's
    ``phone_screens.json``)."""
    return {s.kind: {"answer": s.answer, "warm_up": None if s.warm_up is None else [list(p) for p in s.warm_up],
                     "warm_setup": None if s.warm_setup is None else dict(s.warm_setup)} for s in screens}


def pages_modules(games: Iterable[GameEntry]) -> list[str]:
    """The games' modules that draw pages (each registers its games when imported), in the
    registry's order (pages.zip's ``phone_pages.json``)."""
    return [module for entry in games if entry.pages is not None for module in entry.pages.draws]


def pages_paths(games: Iterable[GameEntry]) -> list[str]:
    """Every module pages.zip carries: the shared ones, then each game's (those that draw pages
    and those they need)."""
    found = list(PAGES_MODULES)
    for entry in games:
        if entry.pages is not None:
            for module in (*entry.pages.needs, *entry.pages.draws):
                if _module_path(module) not in found:
                    found.append(_module_path(module))
    return found


def _module_path(module: str) -> str:
    return module.replace(".", "/") + ".py"


def library_files() -> list[Path]:
    """The rules library: ``referee/*.py`` and the packages beside them,
    everything under ``referee/`` but the web layer."""
    root = ROOT / "referee"
    return sorted(p for p in root.rglob("*.py")
                  if p.relative_to(root).parts[0] != "web" and "__pycache__" not in p.parts)


def phone_modules(screens: Iterable[PhoneScreen]) -> list[str]:
    """The Flask-free modules the phone runs: the shared ones and each screen's."""
    found = list(PHONE_MODULES)
    for screen in screens:
        path = _module_path(screen.module)
        if path not in found:
            found.append(path)
    return found


def _templates(screens: Iterable[PhoneScreen]) -> dict[str, bytes]:
    """The fragment templates, and every template they import or include."""
    wanted, found = [f for s in screens for f in s.fragments], {}
    while wanted:
        name = wanted.pop()
        if name in found:
            continue
        source = (TEMPLATES / name).read_text(encoding="utf-8")
        found[name] = source.encode("utf-8")
        wanted.extend(_TEMPLATE_REF.findall(source))
    return {f"templates/{name}": data for name, data in found.items()}


def app_files(games: Iterable[GameEntry]) -> dict[str, bytes]:
    """What ``thirteen.zip`` holds, by path inside it."""
    screens = screens_of(games)
    files: dict[str, bytes] = {}
    for path in library_files():
        files[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    for name in phone_modules(screens):
        files[name] = (ROOT / name).read_bytes()
        package = Path(name).parent
        while package.as_posix() not in ("referee", "referee/web"):  # a game's package, empty
            files.setdefault(f"{package.as_posix()}/__init__.py", _EMPTY_GAME_PACKAGE)
            package = package.parent
    files["referee/web/__init__.py"] = _EMPTY_WEB_PACKAGE
    files[SCREENS_FILE] = json.dumps(screens_json(screens), sort_keys=True, ensure_ascii=False).encode("utf-8")
    for library in THIRD_PARTY:
        folder = Path(importlib.import_module(library).__file__ or "").parent
        for path in sorted(folder.glob("*.py")):
            files[f"{library}/{path.name}"] = path.read_bytes()
    files.update(_templates(screens))
    for mo in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
        files[mo.relative_to(ROOT).as_posix()] = mo.read_bytes()
    return files


# --------------------------------------------------------------------------- the standard library


def _walk(tree: ast.AST, lazy: bool) -> list[ast.AST]:
    """The nodes of ``tree``; without ``lazy``, not those inside a function (run only if called)
    nor under ``if __name__ == "__main__"``."""
    if lazy:
        return list(ast.walk(tree))
    found, todo = [], [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        todo.extend(child for child in ast.iter_child_nodes(node)
                    if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                    and not _is_main_block(child))
    return found


def _is_main_block(node: ast.AST) -> bool:
    """``if __name__ == "__main__":`` (run as a script only, never on import)."""
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def _imports(source: bytes, module: str, is_package: bool, *, lazy: bool = True) -> set[str]:
    """Every module ``source`` imports (absolute names; relative ones resolved): all of them,
    or with ``lazy=False`` only those imported when the module itself is (not in a function)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # syntax newer than this Python: read the import lines
        names: set[str] = set()
        for line in source.decode("utf-8", "replace").splitlines():
            match = re.match(r"\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", line)
            if match:
                names.update(n.strip().split(" ")[0] for n in (match.group(1) or match.group(2)).split(","))
        return {n for n in names if n}
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in _walk(tree, lazy):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule, perhaps
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            found.add(str(node.args[0].value))
    return found


def _modules_of(entries: dict[str, bytes]) -> dict[str, tuple[str, bool]]:
    """module name -> (path in the zip, is a package), for the .py files of a zip."""
    modules = {}
    for name in entries:
        if not name.endswith(".py"):
            continue
        if name.endswith("/__init__.py"):
            modules[name[: -len("/__init__.py")].replace("/", ".")] = (name, True)
        else:
            modules[name[:-3].replace("/", ".")] = (name, False)
    return modules


_CODEC_NAME = re.compile(rb"""\.(?:de|en)code\(\s*["']([\w-]+)["']""")


def _codecs(source: bytes) -> set[str]:
    """The codec modules a source names by a string (``.decode("unicode-escape")``): codecs are
    imported by name when first used, which an import scan cannot see."""
    found = set()
    for raw in _CODEC_NAME.findall(source):
        name = normalize_encoding(raw.decode("ascii")).lower()
        found.add("encodings." + aliases.aliases.get(name, name))
    return found


def trimmed_stdlib(app: dict[str, bytes]) -> dict[str, bytes]:
    """Pyodide's standard library, only the modules the app's modules and Pyodide's own start-up
    import, and what those import in turn when they are imported (every parent package comes
    along).  An import inside a standard-library function counts only if the app names that
    module itself: the functions the phone calls are known (the parity test runs them all on
    Pyodide with this library); pydoc, pdb or unittest, imported by functions it never calls,
    stay out."""
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as archive:
        stdlib = {i.filename: archive.read(i) for i in archive.infolist() if not i.is_dir()}
    modules = _modules_of(stdlib)
    ours = _modules_of(app)
    wanted = set(STARTUP_ROOTS)
    for module, (path, is_package) in ours.items():
        wanted.update(_imports(app[path], module, is_package))
        wanted.update(_codecs(app[path]))
    kept: set[str] = set()
    while wanted:
        name = wanted.pop()
        while name and name not in modules:  # "os.path" is a name in os; "a.b.c" may be a.b's
            name = name.rpartition(".")[0]
        if not name or name in kept:
            continue
        kept.add(name)
        path, is_package = modules[name]
        wanted.update(_imports(stdlib[path], name, is_package, lazy=False))
        parent = name.rpartition(".")[0]
        if parent:
            wanted.add(parent)
    paths = {modules[m][0] for m in kept}
    # Data files beside a kept package (none are needed today, but a package may read its own).
    return {name: data for name, data in stdlib.items() if name in paths}


# --------------------------------------------------------------------------- the build


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:12]


def _compress(path: Path) -> None:
    """``.br`` and ``.gz`` beside ``path`` (WhiteNoise serves them to browsers that take them).
    Brotli at quality 9: within 15 % of the best for Pyodide's 8.6 MB interpreter, in seconds."""
    data = path.read_bytes()
    path.with_name(path.name + ".br").write_bytes(brotli.compress(data, quality=9))
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))


def _write_folder(home: Path, name: str, files: dict[str, bytes]) -> None:
    if (home / name).exists():
        return
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=home))
    try:
        for filename, data in files.items():
            (work / filename).write_bytes(data)
            _compress(work / filename)
        try:
            work.rename(home / name)
        except OSError:  # another process finished the same build first
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _inputs_key(screens: list[PhoneScreen], pages: list[str]) -> str:
    """A hash of everything the engine is made of: a start with nothing changed reuses the
    build without reading the standard library again."""
    digest = hashlib.sha256((PYODIDE / "package.json").read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(json.dumps(screens_json(screens), sort_keys=True).encode())
    for path in sorted([*library_files(), *(ROOT / n for n in (*phone_modules(screens), *pages)),
                        *TEMPLATES.rglob("*.html"), *TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")]):
        digest.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(" ".join(version(name) for name in THIRD_PARTY).encode())
    return digest.hexdigest()[:16]


def build(instance: Path, games: Iterable[GameEntry]) -> Engine | None:
    """The engine's two folders for the screens of ``games``, built now unless an earlier start
    already did; ``None`` without Pyodide in ``node_modules``."""
    if not available():
        return None
    games = tuple(games)
    home = instance / "engine-build"
    home.mkdir(parents=True, exist_ok=True)
    pages = pages_paths(games)
    key = home / f"{_inputs_key(screens_of(games), pages)}.json"
    if key.exists():
        names = json.loads(key.read_text(encoding="utf-8"))
        engine = Engine(home, names["runtime"], names["app"])
        if all((home / f).exists() for f in engine.files()):
            return engine
    runtime = {name: (PYODIDE / name).read_bytes() for name in RUNTIME_FILES}
    runtime["pyodide.js"] = re.sub(rb"\n//# sourceMappingURL=\S+\s*$", b"\n", runtime["pyodide.js"])
    app = app_files(games)
    app_zip = _zip(app)
    stdlib_zip = _zip(trimmed_stdlib({**app, **{name: (ROOT / name).read_bytes() for name in pages}}))
    engine = Engine(home, f"runtime-{_digest(*runtime.values())}", f"app-{_digest(app_zip, stdlib_zip)}")
    _write_folder(home, engine.runtime, runtime)
    _write_folder(home, engine.app, {"python_stdlib.zip": stdlib_zip, "thirteen.zip": app_zip})
    tmp = key.with_name(f".{key.name}.{os.getpid()}")
    tmp.write_text(json.dumps({"runtime": engine.runtime, "app": engine.app}), encoding="utf-8")
    tmp.replace(key)
    _forget_old(home, keep={engine.runtime, engine.app, key.name})
    return engine


def _forget_old(home: Path, keep: set[str], releases: int = 2) -> None:
    """Earlier builds go, but the latest few (a process of the previous release may still serve)."""
    for prefix in ("runtime-", "app-", ""):
        olds = sorted((p for p in home.iterdir() if p.name not in keep and not p.name.startswith(".")
                       and (p.name.startswith(prefix) if prefix else p.suffix == ".json")),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in olds[releases:]:
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)


# --------------------------------------------------------------------------- the pages

def _stake_words(app: Flask) -> dict[str, dict[str, Any]]:
    """The stake form of a sheet with no stake, in each language (the reader's currency, the
    offered currencies' names, the labels); the money itself is :func:`settle_up.money_tables`'."""
    found = {}
    for language in app.config["LANGUAGES"]:
        with app.test_request_context("/"), force_locale(language):
            form = settle_up.stake_form("", 0, None, with_settle=True)
            per_game = settle_up.stake_form("", 0, None, per="game")
            found[language] = {"currency": form.currency, "currencies": [list(c) for c in form.currencies],
                               "label": form.label, "settle_choices": [list(c) for c in form.settle_choices],
                               "label_game": per_game.label}
    return found


def pages_kit(app: Flask) -> dict[str, Any]:
    """What the templates need of the app, for the phone (:class:`referee.web.phone_pages.Kit`):
    its URL rules, its static files' hashed addresses, its Jinja globals that are plain values,
    the languages, the games' names, the card orders and the stake form's words."""
    rules: dict[str, list[list[Any]]] = {}
    for rule in app.url_map.iter_rules():
        rules.setdefault(rule.endpoint, []).append([rule.rule, sorted(rule.arguments)])
    with app.test_request_context("/"):
        static = {name: url_for("static", filename=name) for name in app.extensions["thirteen_assets"].names}
        languages = [list(c) for c in i18n.language_choices()]
    plain = {name: value for name, value in app.jinja_env.globals.items()
             if isinstance(value, str | int | float | bool) and not isinstance(value, type)}
    entries = registry.entries(app)
    orders = registry.card_orders(entries)
    return {
        "rules": rules, "static": static,
        "values": {**plain, "RETENTION_DAYS": int(app.config.get("RETENTION_DAYS") or 0)},
        "markup": [name for name, value in plain.items() if isinstance(value, Markup)],
        "languages": languages, "html_lang": {code: tag for code, _name, tag in languages},
        "entries": [{"name": e.name, "kinds": list(e.kinds)} for e in entries],
        "card_orders": {name: {"ranks": [str(r) for r in o.ranks], "suits": str(o.suits)} for name, o in orders.items()},
        "stake": _stake_words(app),
        "money": settle_up.money_tables(list(app.config["LANGUAGES"])),
        "currencies": sorted(list_currencies()),
    }


def pages_files(app: Flask, games: Iterable[GameEntry]) -> dict[str, bytes]:
    """What ``pages.zip`` holds: the modules and templates the pages need that ``thirteen.zip``
    has not (the shared ones and each game's, :class:`~referee.web.registry.PhonePages`), the app's
    kit (``referee/web/phone_kit.json``) and the games' modules that draw pages (``phone_pages.json``)."""
    games = tuple(games)
    have = app_files(games)
    files = {name: (ROOT / name).read_bytes() for name in pages_paths(games)}
    wanted = [*PAGES_TEMPLATES, *(t for entry in games if entry.pages is not None for t in entry.pages.templates)]
    found: dict[str, bytes] = {}
    while wanted:
        name = wanted.pop()
        if name in found:
            continue
        source = (TEMPLATES / name).read_text(encoding="utf-8")
        found[name] = source.encode("utf-8")
        wanted.extend(_TEMPLATE_REF.findall(source))
    files.update({f"templates/{name}": data for name, data in found.items() if f"templates/{name}" not in have})
    files["referee/web/phone_kit.json"] = json.dumps(pages_kit(app), sort_keys=True, ensure_ascii=False).encode("utf-8")
    files[PAGES_LIST_FILE] = json.dumps(pages_modules(games)).encode("utf-8")
    return {name: data for name, data in files.items() if have.get(name) != data}


def add_pages(app: Flask) -> None:
    """Build ``pages-<hash>/pages.zip`` beside the engine (once per content) and serve it under
    ``/static/engine/``; ``/engine.json`` names it.  Called once every route is registered."""
    built: Engine | None = app.extensions.get("thirteen_engine")
    if built is None:
        return
    games = registry.entries(app)
    data = _zip(pages_files(app, games))
    name = f"pages-{_digest(data)}"
    _write_folder(built.folder, name, {PAGES_FILE: data})
    app.extensions["thirteen_pages"] = f"{name}/{PAGES_FILE}"
    static = app.extensions.get("thirteen_static")
    if static is not None:
        static.add_files(str(built.folder / name), prefix=f"static/{URL_PREFIX}{name}/")


# --------------------------------------------------------------------------- what the page asks


bp = Blueprint("engine", __name__)


def _sizes(built: Engine) -> dict[str, int]:
    return {name: (built.folder / name).stat().st_size for name in built.files()}


def _packed(built: Engine) -> dict[str, int]:
    """Each file's size compressed (brotli), as fetched whole: the phone's engine compares it
    with what is left of a broken download (fetched on uncompressed) to pick the cheaper."""
    sizes = {}
    for name in built.files():
        compressed = (built.folder / name).with_name(Path(name).name + ".br")
        if compressed.exists():
            sizes[name] = compressed.stat().st_size
    return sizes


@bp.app_context_processor
def _phone_engine() -> dict[str, bool]:
    """Pages load static/js/engine.js only when there is an engine."""
    return {"phone_engine": current_app.extensions.get("thirteen_engine") is not None}


def file_urls() -> list[str]:
    """The addresses of the engine's files (the service worker keeps these, and drops others)."""
    built: Engine | None = current_app.extensions.get("thirteen_engine")
    if built is None:
        return []
    static = url_for("static", filename=URL_PREFIX)
    pages = current_app.extensions.get("thirteen_pages")
    return [static + name for name in built.files()] + ([static + pages] if pages else [])


@bp.route("/engine.json")
def engine_json() -> Response:
    """Where the phone's engine is, how big it is and the words its state is said in
    (``static/js/engine.js`` asks once the page has settled; 404 when there is no engine)."""
    built: Engine | None = current_app.extensions.get("thirteen_engine")
    if built is None:
        abort(404, "This server has no engine for the phone (node_modules/pyodide is missing).")
    static = url_for("static", filename=URL_PREFIX)
    body = {
        "runtime": f"{static}{built.runtime}/",
        "stdlib": f"{static}{built.app}/python_stdlib.zip",
        "app": f"{static}{built.app}/thirteen.zip",
        "files": [static + name for name in built.files()],
        "sizes": {static + name: size for name, size in _sizes(built).items()},
        "packed": {static + name: size for name, size in _packed(built).items()},
        "transfer": built.size(),
        "id": f"{built.runtime}/{built.app}",
        "worker": url_for("static", filename="js/engine-worker.js"),
        "pages": static + current_app.extensions["thirteen_pages"] if current_app.extensions.get("thirteen_pages") else None,
        "share": dict(zip(("base", "source"), public_base(), strict=True)),
        "language": str(get_locale() or "en"),
        "words": {
            "ready": gettext("The referee works offline on this phone."),
            "loading": gettext("Getting the offline referee: {percent} %"),
            "starting": gettext("Starting the offline referee…"),
            "metered": gettext("On a metered connection the offline referee is not fetched by itself."),
            "get": gettext("Get it ({size} MB)"),
            "failed": gettext("The offline referee could not start on this phone: verdicts come from the server."),
        },
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response
