"""Production settings import nothing named by the environment: every variable they read,
set in turn to the dotted path of a module that must never be imported, ends neither in
a setting that Django or a library imports by path nor in an import; a variable that
names a choice (``CHANNEL_LAYER_BACKEND``) refuses anything but its choices. The tests'
hooks (an injected clock, short clocks) live in config/test_settings.py only."""

import ast
import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SETTINGS = ROOT / "config" / "settings.py"
TRAP = "tests.site.never_imported.trap"

# In a fresh interpreter: for each variable, the settings module run again with it set to
# the trap; what Django would import by path, gathered from the result.
PROBE = r"""
import json, os, runpy, sys
names, trap, path = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
PATH_KEYS = ("BACKEND", "ENGINE", "CLASS", "SOURCE", "ADAPTER", "FILTER", "URLCONF",
             "APPLICATION", "MODULE", "HASHERS", "MIDDLEWARE", "INSTALLED_APPS",
             "context_processors", "class", "loaders", "task", "ROUTES")

def imported_by_path(key, value, found):
    if isinstance(value, dict):
        for k, v in value.items():
            imported_by_path(f"{key}.{k}", v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            imported_by_path(key, v, found)
    elif isinstance(value, str) and any(part in key for part in PATH_KEYS):
        found.append((key, value))

result = {}
base = {k: v for k, v in os.environ.items()}
for name in names:
    os.environ.clear()
    os.environ.update(base)
    os.environ[name] = trap
    try:
        namespace = runpy.run_path(path)
    except (SystemExit, ValueError) as refused:  # refused, or not a number: nothing imported
        result[name] = {"refused": str(refused)}
        continue
    found = []
    for key, value in namespace.items():
        if key.isupper():
            imported_by_path(key, value, found)
    result[name] = {"paths": [v for _, v in found if trap in v]}
result["imported"] = [m for m in sys.modules if "never_imported" in m]
print(json.dumps(result))
"""


def variables_read() -> set[str]:
    """Every environment variable config/settings.py reads."""
    names = set()
    for node in ast.walk(ast.parse(SETTINGS.read_text())):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        func = ast.unparse(node.func)
        if func in ("os.environ.get", "env_bool", "env_list", "env_float"):
            names.add(first.value)
    return names


def probe(names: set[str]) -> dict:
    env = {"PATH": "/usr/bin:/bin", "DEBUG": "1", "SECRET_KEY": "probe-" + "k" * 40}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(sorted(names)), TRAP, str(SETTINGS)],
        cwd=ROOT,
        env={**env, "VOG_VAR_DIR": str(ROOT / "var"), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_walk_finds_the_settings_variables():
    names = variables_read()
    assert {"DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER_BACKEND", "SECRET_KEY"} <= names
    assert len(names) > 30


def test_no_setting_takes_a_dotted_path_from_the_environment():
    result = probe(variables_read())
    assert result.pop("imported") == []
    taken = {name: found["paths"] for name, found in result.items() if found.get("paths")}
    assert taken == {}
    assert "must be one of pubsub, core" in result["CHANNEL_LAYER_BACKEND"]["refused"]


def test_the_probe_would_see_a_setting_that_took_one(tmp_path):
    """The probe itself, on settings that read a layer class from the environment as the
    site once did: it reports the variable."""
    broken = tmp_path / "settings.py"
    broken.write_text(
        "import os\n"
        "CHANNEL_LAYERS = {'default': {'BACKEND': os.environ.get('LAYER_CLASS', 'x.y')}}\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(["LAYER_CLASS"]), TRAP, str(broken)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout)["LAYER_CLASS"]["paths"] == [TRAP]


def test_test_hooks_are_not_production_settings():
    from config import settings as production

    assert not hasattr(production, "GAME_TIME_SOURCE")
    assert not hasattr(production, "GAME_CLOCK_SCALE")
    assert settings.GAME_TIME_SOURCE == "tests.timeshift.now"
