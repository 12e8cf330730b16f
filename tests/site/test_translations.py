"""Every user-facing string is translated into every language: a fresh
``makemessages`` over the source finds no string that is missing, empty or fuzzy."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
SOURCES = ["accounts", "games", "lobby", "ratings", "config", "templates", "locale"]


def _entries(po: Path):
    """(msgid, msgstr parts, fuzzy) for each entry of a .po file."""
    entry, field, fuzzy = {}, None, False
    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.get("msgid"):
                yield entry["msgid"], [v for k, v in entry.items() if k.startswith("msgstr")], fuzzy
            entry, field, fuzzy = {}, None, False
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith(("msgid ", "msgid_plural ", "msgstr")):
            field, _, value = line.partition(" ")
            entry[field] = value.strip()[1:-1]
        elif line.startswith('"') and field:
            entry[field] += line[1:-1]


@pytest.fixture(scope="module")
def fresh_catalogs(tmp_path_factory):
    work = tmp_path_factory.mktemp("messages")
    for name in SOURCES:
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("*.mo"))
    shutil.copy(ROOT / "manage.py", work / "manage.py")
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "--no-obsolete",
            *[arg for code in LANGUAGES for arg in ("-l", code)],
        ],
        cwd=work,
        check=True,
        capture_output=True,
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
            "PATH": "/usr/bin:/bin",
            "VOG_VAR_DIR": str(work / "var"),
        },
    )
    return work / "locale"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_is_complete(fresh_catalogs, language):
    po = fresh_catalogs / language / "LC_MESSAGES" / "django.po"
    missing = [msgid for msgid, strs, fuzzy in _entries(po) if fuzzy or not all(strs)]
    assert not missing, f"{language}: {len(missing)} untranslated or fuzzy: {missing[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_committed_catalog_is_current(fresh_catalogs, language):
    """The committed .po holds every string of the source (run make messages after a change)."""
    committed = {
        m for m, _, _ in _entries(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")
    }
    fresh = {m for m, _, _ in _entries(fresh_catalogs / language / "LC_MESSAGES" / "django.po")}
    assert fresh <= committed, sorted(fresh - committed)[:10]
