"""The project uses the documented APIs of Django, Channels, asgiref and psycopg only, and
no module reaches into another's private names: the next upgrade of a library, or a
change inside a module, cannot break code that never depended on their insides."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PACKAGES = ["accounts", "config", "games", "lobby", "ratings", "bench"]

# Private machinery the hot path once used, and its kind: connection and transaction
# internals, hand-run field converters, libpq's connection, Channels' dispatch helper.
LIBRARY_PRIVATE = {
    "atomic_blocks",
    "savepoint_ids",
    "get_db_converters",
    "validate_no_broken_transaction",
    "close_if_health_check_failed",
    "wrap_database_errors",
    "make_debug_cursor",
    "make_cursor",
    "queries_log",
    "queries_logged",
    "pgconn",
    "get_handler_name",
    "Transformer",
    "set_pgresult",
    "load_rows",
    "dump_sequence",
}
# Library internals reached by name in app code: allauth's internal package, the driver's
# cursor behind Django's wrapper, the backend authors' API (``connection.ops``,
# ``connection.features``, ``Field.cast_db_type``), the session's password-hash key.
INTERNALS = (
    "account.internal",
    "stagekit",
    "cursor.cursor",
    "connection.ops",
    "connection.features",
    "cast_db_type",
    "HASH_SESSION_KEY",
)
# The stored function that was a second path for a move: not even named in games/.
GONE_FROM_GAMES = "games_table_locked"
# Private-looking names that are documented: a model's ``_meta`` API, named tuples.
DOCUMENTED = {"_meta", "_replace", "_fields", "_asdict", "_make"}


def sources() -> list[Path]:
    found = []
    for package in PACKAGES:
        found += [p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]
    return sorted(found)


def private_library_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in LIBRARY_PRIVATE:
                    name = alias.name
        if name in LIBRARY_PRIVATE:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return found


def private_reaches(path: Path) -> list[str]:
    """``from x import _y``, ``x._y`` on an imported module, and ``X._y`` on anything but
    ``self``/``cls`` (engine positions reading their own class's fields excepted)."""
    tree = ast.parse(path.read_text(), str(path))
    modules = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__") or name in DOCUMENTED:
            continue
        base = ast.unparse(node.value)
        if base in ("self", "cls"):
            continue
        if base in modules or not _same_class_access(path, base):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {base}.{name}")
    return found


def _same_class_access(path: Path, base: str) -> bool:
    """The engine's immutable positions and states build new instances of their own class
    and read their fields (``pos._board`` inside ``Position``)."""
    if "engine" not in path.parts:
        return False
    return base.startswith("self.") or re.fullmatch(r"[a-z_]+", base) is not None


def internals_named(path: Path) -> list[str]:
    """Every mention of ``INTERNALS`` (comments and docstrings too), a copy of a member
    or user made with ``copy.copy`` (a member is read afresh, not copied), and, in games/,
    ``GONE_FROM_GAMES``."""
    text = path.read_text()
    where = path.relative_to(ROOT)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        names = [name for name in INTERNALS if name in line]
        if where.parts[0] == "games" and GONE_FROM_GAMES in line:
            names.append(GONE_FROM_GAMES)
        found += [f"{where}:{number} {name}" for name in names]
    copies = {"copy.copy"}
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.ImportFrom) and node.module == "copy":
            copies.update(
                alias.asname or alias.name for alias in node.names if alias.name == "copy"
            )
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in copies
            and any(re.search(r"user|member", ast.unparse(arg)) for arg in node.args)
        ):
            found.append(f"{where}:{node.lineno} copy.copy({ast.unparse(node.args[0])})")
    return found


def test_the_walk_reads_the_project():
    paths = sources()
    assert any(p.name == "sockets.py" for p in paths) and len(paths) > 80


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_of_django_channels_or_psycopg(path):
    assert private_library_names(path) == []


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_reaches_into_anothers_private_names(path):
    assert private_reaches(path) == []


def private_imports(path: Path) -> list[str]:
    """``from x import _y``: what a test needs of a module is a public name of it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_no_test_imports_a_private_name():
    tests = sorted((ROOT / "tests").rglob("*.py"))
    assert len(tests) > 50
    assert [found for path in tests for found in private_imports(path)] == []


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_library_internals_by_name(path):
    assert internals_named(path) == []


def test_the_checks_see_what_they_look_for(tmp_path):
    """Both checks on a module written to break them."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from django.db import connection\n"
        "from games.services.commit import _hand_to_ratings\n"
        "from games import store\n"
        "blocks = connection.atomic_blocks\n"
        "kept = store._kept\n"
        "other = connection._thread_ident\n"
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert [f.split()[1] for f in private_library_names(bad)] == ["atomic_blocks"]
        assert [f.split()[1] for f in private_imports(bad)] == ["_hand_to_ratings"]
        assert sorted(f.split()[1] for f in private_reaches(bad)) == [
            "_hand_to_ratings",
            "connection._thread_ident",
            "store._kept",
        ]
    finally:
        ROOT = saved


def test_the_internals_check_sees_what_it_looks_for(tmp_path):
    """The internals check on modules written to break it, one in games/."""
    (tmp_path / "games").mkdir()
    bad = tmp_path / "games" / "bad.py"
    bad.write_text(
        '''"""Reads games_table_locked."""\n'''
        "import copy\n"
        "from copy import copy as shallow\n"
        "from allauth.account.internal.stagekit import clear_login\n"
        "from django.contrib.auth import HASH_SESSION_KEY\n"
        "from django.db import connection\n"
        "quote = connection.ops.quote_name\n"
        "ok = connection.features.has_select_for_update\n"
        "kind = field.cast_db_type(connection)\n"
        "with connection.cursor() as cursor:\n"
        "    cursor.cursor.copy('COPY t FROM STDIN')\n"
        "member = copy.copy(user)\n"
        "other = shallow(self.member)\n"
        "fine = copy.copy(position)\n"
    )
    elsewhere = tmp_path / "lobby.py"
    elsewhere.write_text("# games_table_locked is named outside games/ only\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert [f.split(maxsplit=1)[1] for f in internals_named(bad)] == [
            "games_table_locked",
            "account.internal",
            "stagekit",
            "HASH_SESSION_KEY",
            "connection.ops",
            "connection.features",
            "cast_db_type",
            "cursor.cursor",
            "copy.copy(user)",
            "copy.copy(self.member)",
        ]
        assert internals_named(elsewhere) == []
    finally:
        ROOT = saved
