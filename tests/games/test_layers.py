"""The apps' layers (STYLE.md): dependencies point one way, lobby → games → ratings →
accounts, and no module of games imports one that imports it back."""

from pathlib import Path

import pytest
from django.conf import settings

from tests.engine.test_purity import find_cycle, import_graph

ROOT = Path(settings.BASE_DIR)
APPS = ["accounts", "ratings", "games", "lobby"]  # each may use the ones before it


def app_graph(app: str) -> dict[str, set[str]]:
    graph = import_graph(ROOT / app, app)
    kept = {name for name in graph if ".migrations" not in name and ".engine" not in name}
    return {name: graph[name] & kept for name in kept}


def all_imports(app: str) -> set[str]:
    """Every top-level package the app's modules import (wherever the import stands)."""
    import ast

    found = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
    return found


def test_games_has_no_import_circle():
    graph = app_graph("games")
    assert "games.services.playing" in graph["games.services"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_events_sit_below_services_and_tasks():
    graph = app_graph("games")
    assert not {"games.services", "games.tasks"} & graph["games.events"]


@pytest.mark.parametrize("index", range(len(APPS)))
def test_dependencies_point_one_way(index):
    app, later = APPS[index], set(APPS[index + 1 :])
    assert all_imports(app) & later == set(), f"{app} imports {all_imports(app) & later}"
