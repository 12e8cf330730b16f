"""The settings the test suite runs with: the site's own, with what a local run sets.

Tests start Daphne and Celery processes of their own; they inherit these variables."""

import os

os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-only-" + "x" * 40)
os.environ.setdefault("GAME_TIME_SOURCE", "tests.timeshift.now")

from config.settings import *  # noqa: F403
