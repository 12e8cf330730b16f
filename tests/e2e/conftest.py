"""Browser tests: Debian's Chromium driven by pytest-playwright against a real Daphne
serving the test database (PostgreSQL and Redis started by ``make test``)."""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from tests.conftest import ASYNC_UNSAFE, SERVICES
from tests.servers import Daphne

# pytest-playwright empties its own test-results/ at every start: screenshots go elsewhere.
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if not SERVICES:
                item.add_marker(pytest.mark.skip(reason="browser tests run through make test"))


@pytest.fixture(scope="session", autouse=True)
def _orm_beside_playwrights_loop():
    """Playwright's sync API runs an event loop in the main thread from the first browser
    test on, and Django refuses ORM calls in a thread with a running loop; the browser
    tests call the ORM there, so Django's check is off for them alone. They run last
    (tests/conftest.py), and no process they start inherits it (tests/servers.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ASYNC_UNSAFE, "true")
        yield


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


@pytest.fixture(autouse=True)
def _pages_closed(request):
    """What a test opened in the browser is closed after it, passed or failed: its own
    contexts, and the pages of contexts it found open (a module's fixture may keep one for
    its tests). An open page keeps its sockets: the home page's live board follows VOG TV,
    so a home page of an earlier test would watch the next test's match and count as a
    spectator there."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    kept = set(browser.contexts)
    yield
    for context in list(browser.contexts):
        if context in kept:
            for page in list(context.pages):
                page.close()
        else:
            context.close()


def off_the_loop(service, **arguments):
    """Call a service in another thread: its notifications go out with ``async_to_sync``,
    which refuses to run in the thread where Playwright's event loop runs."""

    def call():
        try:
            return service(**arguments)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


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
    mail_dir = tmp_path_factory.mktemp("mail")
    server = Daphne(
        tmp_path_factory.mktemp("daphne"),
        env={"EMAIL_FILE_PATH": str(mail_dir), "ALLOWED_HOSTS": "127.0.0.1,localhost"},
        name="site",
    ).start()
    yield Site(server.url, mail_dir)
    server.stop()


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
