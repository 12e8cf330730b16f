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

import pytest
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


# --- A production process refuses to run half-configured ---------------------------------

PRODUCTION = {
    "PATH": "/usr/bin:/bin",
    "DEBUG": "0",
    "SECRET_KEY": "production-" + "s" * 50,
    "REDIS_URL": "redis://127.0.0.1:9/0",  # never reached: settings connect to nothing
    "DJANGO_SETTINGS_MODULE": "config.settings",
}


def run_site(command: list[str], env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env={"VOG_VAR_DIR": str(tmp_path / "var"), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


CHECK = ["manage.py", "check"]
# Daphne on a free port: it would serve until killed; refused, it exits at once.
DAPHNE = ["-m", "daphne", "-b", "127.0.0.1", "-p", "0", "config.asgi:application"]


@pytest.mark.parametrize("missing", ["SECRET_KEY", "REDIS_URL"])
@pytest.mark.parametrize("command", [CHECK, DAPHNE], ids=["check", "daphne"])
def test_production_refuses_to_start_without(missing, command, tmp_path):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = run_site(command, env, tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Refusing to start: ")
    assert f"{missing} is required when DEBUG=0" in lines[0]


def test_production_without_a_database_url_uses_sqlite(tmp_path):
    result = run_site(CHECK, PRODUCTION, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s;"
    " print(json.dumps({'hosts': s.ALLOWED_HOSTS, 'engine': s.DATABASES['default']['ENGINE'],"
    " 'layer': s.CHANNEL_LAYERS['default'], 'broker': s.CELERY_BROKER_URL,"
    " 'options': s.DATABASES['default'].get('OPTIONS', {}),"
    " 'age': s.DATABASES['default']['CONN_MAX_AGE']}, default=str))"
)


def production_settings(tmp_path, **env) -> dict:
    result = run_site(["-c", SHOW], {**PRODUCTION, **env}, tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_hosts_default_to_the_machine_only(tmp_path):
    shown = production_settings(tmp_path)
    assert shown["hosts"] == ["127.0.0.1", "localhost"]
    assert shown["engine"].endswith("sqlite3")
    # Redis for everything: never a layer, cache or broker of the process's own.
    assert shown["layer"]["BACKEND"].startswith("channels_redis.")
    assert shown["broker"] == PRODUCTION["REDIS_URL"]


def test_importing_the_settings_creates_no_folder(tmp_path):
    var = tmp_path / "var"
    for settings_module, env in (
        ("config.settings", PRODUCTION),
        ("config.test_settings", {"PATH": "/usr/bin:/bin"}),
    ):
        result = run_site(
            ["-c", "import django; django.setup()"],
            {**env, "DJANGO_SETTINGS_MODULE": settings_module},
            tmp_path,
        )
        assert result.returncode == 0, result.stderr
        assert not var.exists(), settings_module


def test_the_channel_layer_shards_over_every_redis_named(tmp_path):
    shown = production_settings(
        tmp_path, CHANNEL_REDIS_URLS="redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0"
    )
    assert [host["address"] for host in shown["layer"]["CONFIG"]["hosts"]] == [
        "redis://10.0.0.1:6379/0",
        "redis://10.0.0.2:6379/0",
    ]
    for backend in ("core", "pubsub"):
        shown = production_settings(tmp_path, CHANNEL_LAYER_BACKEND=backend)
        assert [host["address"] for host in shown["layer"]["CONFIG"]["hosts"]] == [
            PRODUCTION["REDIS_URL"]
        ]


def test_db_pool_turns_on_psycopgs_pool(tmp_path):
    database = {"DATABASE_URL": "postgres://vog@127.0.0.1:9/vog"}
    off = production_settings(tmp_path, **database)
    assert "pool" not in off["options"]
    assert off["age"] == 60
    sized = production_settings(tmp_path, **database, DB_POOL="2,8")
    assert sized["options"]["pool"] == {"min_size": 2, "max_size": 8}
    assert sized["age"] == 0  # Django refuses a pool with persistent connections
    assert production_settings(tmp_path, **database, DB_POOL="1")["options"]["pool"] is True
    refused = run_site(CHECK, {**PRODUCTION, **database, "DB_POOL": "many"}, tmp_path)
    assert refused.returncode != 0
    assert refused.stderr.strip().splitlines() == [
        "Refusing to start: DB_POOL must be 0, 1 or min,max (e.g. 2,8), not 'many'."
    ]
