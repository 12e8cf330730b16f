"""``make run`` and ``make test`` on a fresh machine: the install step
(config/prerequisites.sh) asks apt-get for exactly the packages README.md lists, through
sudo when not root, and stops with a line naming them when it cannot install."""

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SCRIPT = ROOT / "config" / "prerequisites.sh"


def readme_packages() -> dict[str, list[str]]:
    """README's list: ``- `make run`: `a`, `b``` → {"run": ["a", "b"]}."""
    lists = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        found = re.match(r"- `make (run|test)`: (.+)$", line)
        if found:
            lists[found[1]] = re.findall(r"`([^`]+)`", found[2])
    return lists


def fake_machine(tmp_path: Path, *, uid: int = 0, sudo: bool = False) -> dict[str, str]:
    """A PATH without the tools: a fake apt-get that records what it is asked for, a
    Python without venv, ``id`` saying ``uid``; bash alone from the real machine."""
    fake = tmp_path / "bin"
    fake.mkdir()
    record = tmp_path / "apt.log"
    scripts = {
        "apt-get": f'#!/bin/bash\necho "$@" >> {record}\n',
        "python3": "#!/bin/bash\nexit 1\n",  # no ensurepip, as Debian's without python3-venv
        "id": f"#!/bin/bash\necho {uid}\n",
    }
    if sudo:
        scripts["sudo"] = f'#!/bin/bash\necho sudo >> {record}\nexec "$@"\n'
    for name, text in scripts.items():
        (fake / name).write_text(text)
        (fake / name).chmod(0o755)
    real = tmp_path / "real"
    real.mkdir()
    (real / "bash").symlink_to("/bin/bash")
    empty = tmp_path / "root"
    empty.mkdir()  # no /usr/lib/postgresql, no /usr/bin/chromium under it
    return {"PATH": f"{fake}:{real}", "PREREQ_ROOT": str(empty), "HOME": str(tmp_path)}


def asked_for(tmp_path: Path) -> list[list[str]]:
    """The package names of each ``apt-get install`` call."""
    log = tmp_path / "apt.log"
    calls = log.read_text().splitlines() if log.exists() else []
    return [
        [word for word in call.split()[1:] if not word.startswith("-")]
        for call in calls
        if call.startswith("install")
    ]


def run(job: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["/bin/bash", str(SCRIPT), job], env=env, capture_output=True, text=True, timeout=30
    )


def test_readme_lists_both_commands():
    lists = readme_packages()
    assert set(lists) == {"run", "test"}
    assert set(lists["run"]) < set(lists["test"])


@pytest.mark.parametrize("job", ["run", "test"])
def test_a_bare_machine_is_asked_for_exactly_readmes_packages(tmp_path, job):
    done = run(job, fake_machine(tmp_path))
    assert done.returncode == 0, done.stderr
    assert asked_for(tmp_path) == [readme_packages()[job]]


def test_not_root_installs_through_sudo(tmp_path):
    done = run("run", fake_machine(tmp_path, uid=1000, sudo=True))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "apt.log").read_text().splitlines()[0] == "sudo"
    assert asked_for(tmp_path) == [readme_packages()["run"]]


def test_without_root_or_sudo_one_line_names_the_packages(tmp_path):
    done = run("test", fake_machine(tmp_path, uid=1000))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    for package in readme_packages()["test"]:
        assert package in lines[0]
    assert asked_for(tmp_path) == []


def test_a_machine_that_has_everything_installs_nothing(tmp_path):
    env = fake_machine(tmp_path)
    for tool in ("msgfmt", "redis-server"):
        path = Path(env["PATH"].split(":")[0]) / tool
        path.write_text("#!/bin/bash\n")
        path.chmod(0o755)
    (Path(env["PATH"].split(":")[0]) / "python3").write_text("#!/bin/bash\nexit 0\n")
    root = Path(env["PREREQ_ROOT"])
    (root / "usr/lib/postgresql/15/bin").mkdir(parents=True)
    (root / "usr/lib/postgresql/15/bin/pg_ctl").write_text("")
    (root / "usr/lib/postgresql/15/bin/pg_ctl").chmod(0o755)
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/bin/chromium").write_text("")
    (root / "usr/bin/chromium").chmod(0o755)
    done = run("test", env)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "apt.log").exists()
