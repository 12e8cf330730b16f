"""Browser tests: Debian's Chromium driven by pytest-playwright against a real Daphne
serving the test database (PostgreSQL and Redis started by ``make test``)."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

from tests.conftest import SERVICES

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop.

# pytest-playwright empties its own test-results/ at every start: screenshots go elsewhere.
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if not SERVICES:
                item.add_marker(pytest.mark.skip(reason="browser tests run through make test"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    def __init__(self, url: str, mail_dir: Path):
        self.url = url
        self.mail_dir = mail_dir

    def mails(self) -> list[str]:
        return [p.read_text() for p in sorted(self.mail_dir.glob("*.log"), key=os.path.getmtime)]


@pytest.fixture(scope="session")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """Daphne in its own process on the test database, with Celery tasks run by a worker
    thread elsewhere in the tests when they need one."""
    from django.db import connection

    port = _free_port()
    parts = urlsplit(os.environ["DATABASE_URL"])
    test_db_url = urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))
    mail_dir = tmp_path_factory.mktemp("mail")
    env = {
        **os.environ,
        "DATABASE_URL": test_db_url,
        "DEBUG": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "EMAIL_FILE_PATH": str(mail_dir),
        "LOG_LEVEL": "WARNING",
    }
    log = open(tmp_path_factory.mktemp("daphne") / "daphne.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        raise RuntimeError("Daphne did not start")
    yield Site(f"http://127.0.0.1:{port}", mail_dir)
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture
def login(site):
    """Log a browser context in as a member, through a real session cookie."""
    from django.test import Client

    def login(context, user):
        client = Client()
        client.force_login(user)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": site.url,
                }
            ]
        )

    return login


@pytest.fixture
def screenshot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
