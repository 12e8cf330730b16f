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
