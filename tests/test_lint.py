"""The code base passes ruff, and the whole referee package (web included) mypy --strict, as part of the suite."""

import ast
import keyword
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing_in_the_whole_referee_package():
    # The files and the strictness are in pyproject.toml ([tool.mypy]).
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", os.devnull, "--config-file", str(ROOT / "pyproject.toml")],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def library_modules():  # type: ignore[no-untyped-def]
    """``referee/*.py`` and the library's packages (``referee/tienlen_scores/``): all but the web layer."""
    root = ROOT / "referee"
    return sorted(p for p in root.rglob("*.py") if p.relative_to(root).parts[0] != "web")


def test_rule_modules_import_nothing_from_the_web_layer():
    for path in library_modules():
        text = path.read_text(encoding="utf-8")
        for banned in ("import flask", "from flask", "import sqlalchemy", "from sqlalchemy", "from referee.web"):
            assert banned not in text, f"{path.name} imports the web layer ({banned})"


# --- import cycles ------------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


SCRIPTS = ("app.py", "portcheck.py")
"""The checkout's own modules beside the package (the app factory, the port check): in the graph too."""


def _sources(package: str) -> dict[str, Path]:
    """Module name -> file, for ``package`` (its migrations left out) and the :data:`SCRIPTS`."""
    found = {_module_name(p): p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts}
    found.update({_module_name(ROOT / s): ROOT / s for s in SCRIPTS if (ROOT / s).exists()})
    return found


def _ancestors(name: str, path: Path) -> set[str]:
    """The packages already being imported whenever ``name`` is (its parents; a package itself)."""
    parts = name.split(".")
    found = {".".join(parts[:i]) for i in range(1, len(parts))}
    return found | {name} if path.name == "__init__.py" else found


def import_graph(package: str = "referee") -> dict[str, set[str]]:
    """Which module of ``package`` (or of the :data:`SCRIPTS`) imports which, at any depth of
    the file, in a function too (``if TYPE_CHECKING:`` blocks left out): ``from a import b`` is
    an edge to the module ``a.b`` when there is one, else to ``a``; so is
    ``importlib.import_module("a.b")`` with the name written out.  Importing ``a.b.c`` also
    runs the packages ``a`` and ``a.b``: an edge to each but the importer's own parents
    (being imported already, they are not run again: every package would be a cycle with
    its modules)."""
    paths = _sources(package)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.If) and _is_type_checking(node):
                pending.extend(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in paths else node.module)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)  # importlib.import_module("a.b") imports all the same
            pending.extend(ast.iter_child_nodes(node))
        run = {".".join(m.split(".")[:i]) for m in found for i in range(1, m.count(".") + 1)}
        graph[name] = {m for m in found | (run - _ancestors(name, path)) if m in paths and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, round and round (Tarjan's strongly
    connected components of more than one module).

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_the_referee_package_imports_itself_round_a_cycle():
    graph = import_graph()
    assert "referee.web.tables" in graph["referee.web.registry"]  # the graph sees imports at all
    assert "referee.web" in graph["app"]  # and the app factory's
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle_through_an_import_inside_a_function(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def late():\n    from pkg.a import thing\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    (package / "d.py").write_text("import importlib\ndef late():\n    return importlib.import_module('pkg.e')\n")
    (package / "e.py").write_text("from pkg.d import late\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert sorted(cycles(import_graph("pkg"))) == [["pkg.a", "pkg.b"], ["pkg.d", "pkg.e"]]


def test_the_cycle_check_finds_a_cycle_through_a_package_run_by_importing_its_module(tmp_path, monkeypatch):
    """``from pkg.sub.x import y`` runs ``pkg/sub/__init__.py`` first: if that imports the
    importer back, it is a cycle; a module importing its own package's modules is not."""
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("def late():\n    from pkg.sub.x import y\n")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("from pkg.sub import x\nfrom pkg import a\n")
    (tmp_path / "pkg" / "sub" / "x.py").write_text("from pkg.sub import z\n")
    (tmp_path / "pkg" / "sub" / "z.py").write_text("")
    (tmp_path / "app.py").write_text("from pkg import a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    graph = import_graph("pkg")
    assert graph["pkg.sub.x"] == {"pkg.sub.z"}  # its own package is no edge
    assert graph["app"] == {"pkg", "pkg.a"}  # importing pkg.a runs pkg first
    assert cycles(graph) == [["pkg.a", "pkg.sub"]]


_PHONE_HAS_NO_BABEL = "absent on the phone (Pyodide): only the server speaks through Flask-Babel"
_PHONE_HAS_NO_FLASK = "it needs Flask, absent on the phone: the server's branch (the phone reads its zip's list)"
LATE_IMPORTS = {
    ("referee/web/words.py", "flask_babel.gettext"): _PHONE_HAS_NO_BABEL,
    ("referee/web/words.py", "flask_babel.ngettext"): _PHONE_HAS_NO_BABEL,
    ("referee/web/phone.py", "referee.web.engine"): _PHONE_HAS_NO_FLASK,
    ("referee/web/phone.py", "referee.web.registry"): _PHONE_HAS_NO_FLASK,
    ("referee/web/phone_pages.py", "referee.web.engine"): _PHONE_HAS_NO_FLASK,
    ("referee/web/phone_pages.py", "referee.web.registry"): _PHONE_HAS_NO_FLASK,
    ("referee/web/serve.py", "waitress.server.create_server"): "the LAN server's own, only to serve: "
                                                              "gunicorn.conf.py imports serve for its log helper",
    ("referee/web/serve.py", "waitress.task.ThreadedTaskDispatcher"): "the LAN server's own, only to serve: "
                                                                     "gunicorn.conf.py imports serve for its log helper",
    ("referee/web/serve.py", "app.create_app"): "the checkout's factory (beside the package, not in it), only to serve",
    ("referee/web/serve.py", "portcheck.cannot_listen"): "the checkout's port check (beside the package), only to serve",
}
"""The only imports inside a function in ``referee/`` and the :data:`SCRIPTS`, each with its
reason; an import put off to dodge a cycle is not one of them (the cycle is mended instead)."""


def late_imports(package: str = "referee") -> dict[tuple[str, str], int]:
    """(file, name imported) -> line, for every import inside a function (``import a.b``: ``a.b``;
    ``from a import b``: ``a.b``) without a comment beside it or on the line above saying why,
    line 0 for one with its comment."""
    found: dict[tuple[str, str], int] = {}
    for path in _sources(package).values():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        pending: list[tuple[ast.AST, bool]] = [(ast.parse(source), False)]
        while pending:
            node, inside = pending.pop()
            if inside and isinstance(node, ast.Import | ast.ImportFrom):
                said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].lstrip().startswith("#")
                where = "" if isinstance(node, ast.Import) else f"{'.' * node.level}{node.module or ''}."
                for alias in node.names:
                    key = (path.relative_to(ROOT).as_posix(), (where + alias.name).replace("..", "."))
                    found[key] = found.get(key, 0) if said else node.lineno
            inside = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            pending.extend((child, inside) for child in ast.iter_child_nodes(node))
    return found


def test_an_import_inside_a_function_is_one_of_the_few_with_a_reason_said_beside_it():
    late = late_imports()
    assert sorted(set(late) - set(LATE_IMPORTS)) == [], "imported inside a function: import it at the top"
    assert sorted(set(LATE_IMPORTS) - set(late)) == [], "no longer imported inside a function: drop it from the list"
    assert {key: line for key, line in late.items() if line} == {}, "no comment saying why it is imported there"


def test_the_late_import_check_sees_an_import_inside_a_method_and_its_comment(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("import os\ntry:\n    import fcntl\nexcept ImportError:\n    pass\n")
    (tmp_path / "pkg" / "a.py").write_text(
        "class A:\n    def f(self):\n        from pkg import b\n"
        "def g():\n    # the phone has no json\n    import json\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert late_imports("pkg") == {("pkg/a.py", "pkg.b"): 3, ("pkg/a.py", "json"): 0}


# --- dead code ----------------------------------------------------------------------------------

VULTURE_DECORATORS = ",".join([
    "@*.route", "@*.get", "@*.post", "@*.errorhandler", "@*.app_template_filter", "@*.app_context_processor",
    "@*.url_defaults", "@event.listens_for", "@pytest.fixture", "@*.fixture",
])


def test_vulture_finds_no_dead_code(tmp_path):
    """No function, class, method or variable nobody uses (vulture, pinned in requirements-dev.txt).

    A name a template reads is used (templates are not Python: their identifiers are given to
    vulture as used); what only a framework or a string reaches (a route, a phone screen's
    ``"module:function"``, an override of Flask-Babel) is in ``vulture_whitelist.py``, each
    with why."""
    words: set[str] = set()
    for path in [*(ROOT / "templates").rglob("*"), *(ROOT / "tests" / "toy" / "templates").rglob("*")]:
        if path.is_file():
            words |= set(re.findall(r"[A-Za-z_]\w*", path.read_text(encoding="utf-8")))
    read = tmp_path / "template_names.py"
    read.write_text("\n".join(f"_.{w}" for w in sorted(words) if not keyword.iskeyword(w)) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "vulture", "referee", "tests", "app.py", "vulture_whitelist.py", str(read),
         "--min-confidence", "60", "--exclude", "referee/web/migrations,tests/a11y",
         "--ignore-decorators", VULTURE_DECORATORS,
         # The contract's can_x (referee/errors.py): every action of a state machine has one, asked
         # by callers of the library whether or not this app does; no whitelist line per game.
         "--ignore-names", "can_*"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert not result.stderr, result.stderr
    dead = [line for line in result.stdout.splitlines() if not line.startswith("tests/")]  # the app's, not the tests'
    assert dead == [], "\n".join(dead)


RADON_WORST = "D"
"""The worst cyclomatic-complexity rank (radon, pinned in requirements-dev.txt) a function of the
app may have: an E is a table of (condition, verdict) or small steps waiting to be written."""


def too_complex(source: str, worst: str = RADON_WORST) -> list[str]:
    """The functions and methods of ``source`` ranked worse than ``worst``, with their rank.

    >>> branches = "".join(f"    if x == {i}:\\n        return {i}\\n" for i in range(35))
    >>> too_complex("def f(x):\\n" + branches + "    return -1\\n")
    ['f: E (36)']
    >>> too_complex("def g(x):\\n    return x\\n")
    []
    """
    from radon.complexity import cc_rank, cc_visit

    found = []
    for block in cc_visit(source):
        for item in [block, *getattr(block, "methods", []), *getattr(block, "closures", [])]:
            rank = cc_rank(item.complexity)
            if rank > worst and not hasattr(item, "methods"):
                found.append(f"{item.name}: {rank} ({item.complexity})")
    return found


def test_no_function_of_the_app_is_rated_e_or_worse_by_radon():
    files = [*sorted((ROOT / "referee").rglob("*.py")), ROOT / "app.py", ROOT / "gunicorn.conf.py"]
    found = [f"{path.relative_to(ROOT)}: {name}" for path in files
             if "migrations" not in path.parts for name in too_complex(path.read_text(encoding="utf-8"))]
    assert not found, "split these into a table of (condition, verdict) or small steps:\n" + "\n".join(found)
