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


def import_graph(package: str = "referee") -> dict[str, set[str]]:
    """Which module of ``package`` imports which (at any depth of the file, in a function too;
    ``if TYPE_CHECKING:`` blocks left out): ``from a import b`` is an edge to the module ``a.b``
    when there is one, else to ``a``.  Importing a submodule runs its package's ``__init__``,
    which is not counted as an edge (every package would be a cycle with its modules)."""
    paths = {_module_name(p): p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts}
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
            pending.extend(ast.iter_child_nodes(node))
        graph[name] = {m for m in found if m in paths and m != name}
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
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle_through_an_import_inside_a_function(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def late():\n    from pkg.a import thing\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert cycles(import_graph("pkg")) == [["pkg.a", "pkg.b"]]


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
         "--ignore-decorators", VULTURE_DECORATORS],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert not result.stderr, result.stderr
    dead = [line for line in result.stdout.splitlines() if not line.startswith("tests/")]  # the app's, not the tests'
    assert dead == [], "\n".join(dead)
