"""Shared fixtures. ``make test`` runs the suite against real PostgreSQL and Redis
(``VOG_TEST_SERVICES=1``); tests that need those servers skip elsewhere."""

import os

import pytest

SERVICES = os.environ.get("VOG_TEST_SERVICES") == "1"
needs_services = pytest.mark.skipif(
    not SERVICES, reason="needs PostgreSQL and Redis: run make test"
)
# The SQLite pass of make test (tests/with_services.sh): tests marked ``postgres`` skip.
SQLITE = not os.environ.get("DATABASE_URL")

# Django's check that refuses ORM calls from async code; only the browser tests turn it
# off (tests/e2e/conftest.py).
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


def pytest_configure(config):
    _flush_retries()
    _var_folders()


def _var_folders():
    """The folders the tests' SQLite file and the servers' static files live in (the
    settings create none)."""
    from pathlib import Path

    from django.conf import settings

    for folder in (settings.VAR_DIR, settings.STATIC_ROOT):
        Path(folder).mkdir(parents=True, exist_ok=True)


def _flush_retries():
    """Emptying the database after a transactional test may meet a Daphne process of a
    multi-process test still writing (a socket's presence going away) and lose a deadlock
    to it; try again, as that write is done a moment later."""
    import time

    from django.core.management.base import CommandError
    from django.db.utils import OperationalError
    from django.test.testcases import TransactionTestCase

    original = TransactionTestCase._fixture_teardown
    if getattr(original, "retries", False):
        return

    def teardown(self):
        for attempt in range(5):
            try:
                return original(self)
            except (CommandError, OperationalError):
                if attempt == 4:
                    raise
                time.sleep(0.2)  # let the other writer finish

    teardown.retries = True
    TransactionTestCase._fixture_teardown = teardown


def pytest_collection_modifyitems(items):
    # Browser tests last: Playwright's sync API leaves an event loop running in the main
    # thread, which later async tests and async_to_sync calls cannot share.
    items.sort(key=lambda item: "tests/e2e/" in str(item.fspath))
    if SQLITE:
        skip = pytest.mark.skip(reason="PostgreSQL only (the SQLite pass)")
        for item in items:
            if item.get_closest_marker("postgres"):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, dropped at the end only once no other session uses it. Django
    closes the connections of the thread that drops it; others of this process may still
    hold one (Django keeps a connection per thread and per context, and Playwright's sync
    API and the database threads of in-process sockets have their own), and PostgreSQL
    refuses to drop a database in use. Every server process is stopped by then."""
    yield
    from django.db import connection

    if not SERVICES or connection.vendor != "postgresql":
        return

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _async_guard_on(request):
    """Every test but the browser tests runs with Django's async-safety check on: a
    consumer that called the ORM from its event loop would fail here as in production."""
    if "tests/e2e/" not in str(request.node.fspath):
        assert ASYNC_UNSAFE not in os.environ, f"{ASYNC_UNSAFE} is set outside the browser tests"
    yield


@pytest.fixture(autouse=True)
def _english(settings):
    """Every test starts in the default language whatever the previous one activated."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache():
    """No test sees another's cache, and each starts at the injected time T0."""
    from django.core.cache import cache

    from tests import timeshift

    cache.clear()
    timeshift.set_now(timeshift.T0)
    yield


@pytest.fixture
def password():
    return "correct-horse-42"


@pytest.fixture
def make_member(db, password):
    from allauth.account.models import EmailAddress

    from accounts.models import User

    def make(username: str, **fields):
        user = User.objects.create_user(
            username=username, email=f"{username}@example.com", password=password, **fields
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    return make


@pytest.fixture
def moderator(make_member):
    from django.contrib.auth.models import Group

    from accounts.moderation import MODERATORS_GROUP

    user = make_member("mod", is_staff=True)
    # get_or_create: transactional tests empty the table the data migration filled
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


@pytest.fixture(scope="session")
def daphnes(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two Daphne processes on the test database and Redis, shared by the multi-process
    tests (tests that use them need ``django_db(transaction=True)``)."""
    from tests.servers import Daphne

    if not SERVICES:
        pytest.skip("needs PostgreSQL and Redis: run make test")
    log_dir = tmp_path_factory.mktemp("daphnes")
    servers = [Daphne(log_dir, name=f"shared{i}").start() for i in (1, 2)]
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture
def own_daphne(django_db_setup, tmp_path):
    """A Daphne process of the test's own (to kill, or with settings of its own)."""
    from tests.servers import Daphne

    started = []

    def start(**env):
        server = Daphne(tmp_path, env={k: str(v) for k, v in env.items()}, name="own").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# --- the worker, beat, and what the channel layer carries --------------------------------

QUEUES = ["clocks", "bots", "default"]


@pytest.fixture
def worker():
    """A real Celery worker on every queue, in a thread of this process (its database
    connections are its own: tests that use it need ``transaction=True``)."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    if not SERVICES:
        pytest.skip("needs PostgreSQL and Redis: run make test")
    with start_worker(app, pool="solo", perform_ping_check=False, queues=QUEUES):
        yield


@pytest.fixture
def beat(worker, tmp_path):
    """Celery beat (config/settings.py's schedule, every entry due each ``BEAT_SECONDS``)
    in a thread, sending to the worker."""
    from celery.beat import EmbeddedService

    from config.celery import app

    saved = app.conf.beat_schedule
    app.conf.beat_schedule = {
        name: {**entry, "schedule": BEAT_SECONDS} for name, entry in saved.items()
    }
    service = EmbeddedService(app, thread=True, schedule_filename=str(tmp_path / "beat"))
    service.start()
    try:
        yield
    finally:
        service.stop()
        service.join(timeout=10)
        app.conf.beat_schedule = saved


BEAT_SECONDS = 0.25


@pytest.fixture
def analysis_worker(tmp_path):
    """The worker of the computer's reviews as ``make run`` starts it: a Celery process of
    its own on the ``analysis`` and ``analysis_try`` queues, one task at a time, on the
    test database (what earlier tests left in those queues is emptied first)."""
    import subprocess
    import sys

    from django.conf import settings

    from config.celery import app
    from tests.servers import server_environment

    if not SERVICES:
        pytest.skip("needs PostgreSQL and Redis: run make test")
    with app.connection_for_write() as connection:
        for queue in ("analysis", "analysis_try"):
            connection.default_channel.queue_declare(queue=queue, durable=True)
            connection.default_channel.queue_purge(queue)
    log = open(tmp_path / "analysis-worker.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"),
            *("-Q", "analysis,analysis_try", "-c", "1", "-P", "solo"),
            *("-n", f"analysis-{os.getpid()}@%h"),
        ],
        cwd=settings.BASE_DIR,
        env=server_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield process
    finally:
        # At once: a warm shutdown would wait for the analysis under way (nothing of it is
        # needed after the test, and the database is emptied next).
        process.kill()
        process.wait(timeout=10)
        log.close()


def wait_for(predicate, timeout: float = 20.0) -> bool:
    """Poll for what the worker or a server does in another thread or process (no time is
    meant to pass: the tests' clock is injected)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


class Listener:
    """A channel of the channel layer in a group (a member's, the lobby's): what reaches
    that member's sockets, read from a test. The channel lives on an event loop of its own
    thread, as a consumer's lives on its process's loop."""

    def __init__(self, group: str):
        import asyncio
        import queue
        import threading

        from channels.layers import get_channel_layer

        self.messages: queue.Queue = queue.Queue()
        joined = threading.Event()

        async def listen() -> None:
            layer = get_channel_layer()
            channel = await layer.new_channel()
            await layer.group_add(group, channel)
            joined.set()
            while True:
                self.messages.put(await layer.receive(channel))

        def run() -> None:
            import contextlib

            with contextlib.suppress(Exception):
                asyncio.run(listen())

        threading.Thread(target=run, daemon=True).start()
        assert joined.wait(10), "the listener did not join its group"

    def next(self, predicate=lambda message: True, timeout: float = 10.0) -> dict:
        import time

        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message


@pytest.fixture
def listen():
    """``listen(group)``: a Listener in that group."""
    return Listener
