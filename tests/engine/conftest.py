"""The engine's tests run without Django (``pytest tests/engine -p no:django``).

The site-wide autouse fixtures in ``tests/conftest.py`` reset Django state (language,
cache) and need pytest-django; the engine has no such state, so they are replaced here by
fixtures of the same names that do nothing.
"""

import pytest


@pytest.fixture(autouse=True)
def _english():
    yield


@pytest.fixture(autouse=True)
def _empty_cache():
    yield
