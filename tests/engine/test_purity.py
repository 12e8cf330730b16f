"""The engine is pure Python: nothing in ``games/engine`` imports Django, Channels or Celery."""

import ast
import subprocess
import sys
from pathlib import Path

import games.engine

FORBIDDEN = {"django", "channels", "channels_redis", "daphne", "celery", "kombu"}
ENGINE = Path(games.engine.__file__).parent


def imported_modules(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            yield from (arg.value for arg in node.args[:1] if isinstance(arg, ast.Constant))


def test_no_module_of_the_engine_imports_the_web_stack():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    offenders = [
        f"{path.relative_to(ENGINE)}: {module}"
        for path in files
        for module in imported_modules(path)
        if str(module).split(".")[0] in FORBIDDEN
    ]
    assert offenders == []


def test_the_scan_sees_imports_anywhere_in_a_module(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from django.db import models\n    import celery.app\n")
    assert list(imported_modules(sample)) == ["django.db", "celery.app"]


def test_importing_the_engine_loads_none_of_them():
    code = (
        "import sys, games.engine, games.engine.variants; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {FORBIDDEN!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ENGINE.parents[1],
    )
    assert result.stdout.strip() == "[]"


# --- layering: the engine's modules import each other without a circle --------------------


def engine_imports(path, package, modules):
    """The engine modules that ``path`` (module ``package``.<stem>) imports, wherever the
    import is: top level, under ``TYPE_CHECKING`` or inside a function."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up per extra dot
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(filter(None, [*parts, node.module or ""]))
            # `from games.engine import moves` imports the module games.engine.moves
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            # `import games.engine.board.x` would import games.engine.board: keep the
            # longest engine module the name starts with
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def import_graph(root, package):
    """{module: engine modules it imports} for every module under ``root``."""
    files = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join((package, *parts))] = path
    graph = {}
    for name, path in files.items():
        own_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = engine_imports(path, own_package, files) - {name}
    return graph


def find_cycle(graph):
    """One import circle as a list of modules (first == last), or None."""
    state = dict.fromkeys(graph, "new")
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph[node]):
            if state[target] == "open":
                return [*stack[stack.index(target) :], target]
            if state[target] == "new" and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if state[node] == "new" and (cycle := visit(node)):
            return cycle
    return None


def test_the_engine_has_no_import_circle():
    graph = import_graph(ENGINE, "games.engine")
    assert "games.engine.position" in graph["games.engine.variants"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_helpers_below_position_do_not_know_it():
    graph = import_graph(ENGINE, "games.engine")
    below = ["moves", "notation", "outcome", "seating", "rules", "board", "letters"]
    assert [m for m in below if "games.engine.position" in graph[f"games.engine.{m}"]] == []
    assert "games.engine.variants" not in graph["games.engine.generate"]


def test_the_graph_sees_every_kind_of_import_and_finds_a_circle(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high import thing\n"
    )
    (package / "high.py").write_text("def f():\n    from . import low\n")
    (package / "side.py").write_text("import pkg.low\nfrom pkg import high\n")
    graph = import_graph(package, "pkg")
    assert graph == {
        "pkg": set(),
        "pkg.low": {"pkg.high"},
        "pkg.high": {"pkg.low"},
        "pkg.side": {"pkg.low", "pkg.high"},
    }
    assert find_cycle(graph) == ["pkg.high", "pkg.low", "pkg.high"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
