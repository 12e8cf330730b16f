"""The settings the test suite runs with: the site's own, with what a local run sets.

Tests start Daphne and Celery processes of their own; they inherit these variables."""

import os

from django.conf import global_settings

os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-only-" + "x" * 40)
os.environ.setdefault("GAME_TIME_SOURCE", "tests.timeshift.now")

from config.settings import *  # noqa: F403

# Tests make members by the hundred; hashing each password with production's work factor
# (PBKDF2, a million rounds) tests nothing and took minutes of the suite. The production
# hashers stay listed after it, so their hashes still check.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
