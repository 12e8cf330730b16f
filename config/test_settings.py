"""The settings the test suite runs with: the site's own, with what a local run sets, and
the tests' hooks that production settings never have.

Tests start Daphne processes of their own with these settings (``tests/servers.py``)."""

import os

from django.conf import global_settings

os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-only-" + "x" * 40)

from config.settings import *  # noqa: F403
from config.settings import ALLOWED_HOSTS, DATABASES, VAR_DIR

# Django's test client asks for this host; production's default list never has it.
if "testserver" not in ALLOWED_HOSTS:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]

# The tests' clock: the real time shifted by an offset every process of a test shares
# (tests/timeshift.py), so tests inject time instead of sleeping.
GAME_TIME_SOURCE = "tests.timeshift.now"
# Multiplies every clock preset's bank and increment; tests that need short clocks set it
# with the ``settings`` fixture.
GAME_CLOCK_SCALE = 1

# The SQLite pass of ``make test`` (VOG_TEST_DATABASE=sqlite): a file, as ``make run`` has
# it, so the worker's threads and the tests' Daphne processes have connections of their
# own to the same database. Those processes are pointed at the test database by
# VOG_TEST_SQLITE (tests/servers.py).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
    if os.environ.get("VOG_TEST_SQLITE"):
        DATABASES["default"]["NAME"] = os.environ["VOG_TEST_SQLITE"]

# VOG TV's match of two computers is started by the tests that want it (its beat task and
# /tv/ leave the other tests' tables alone).
TV_HOUSE_MATCH = False

# Tests make members by the hundred; hashing each password with production's work factor
# (PBKDF2, a million rounds) tests nothing and took minutes of the suite. The production
# hashers stay listed after it, so their hashes still check.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
