"""The site's one rate limiter (accounts.limits): counts in the cache per fixed window,
refused actions not counted, figures read from settings at each call."""

import subprocess
import sys
import threading
from datetime import timedelta

from django.conf import settings as django_settings

from accounts.limits import SOCKET_MESSAGES, VISITOR_SOCKET_MESSAGES, Limit
from tests.conftest import needs_services
from tests.timeshift import T0

THREE_A_MINUTE = Limit("test-three", 3, 60)


def test_over_the_limit_is_refused_and_not_counted():
    assert [THREE_A_MINUTE.hit("ann", now=T0) for _ in range(4)] == [True, True, True, False]
    assert THREE_A_MINUTE.over("ann", now=T0)
    assert THREE_A_MINUTE.hit("ben", now=T0)  # each key has its own count
    assert not THREE_A_MINUTE.over("ben", now=T0)


def test_a_new_window_allows_again():
    start = T0.replace(second=0)
    assert [THREE_A_MINUTE.hit("ann", now=start) for _ in range(4)] == [True, True, True, False]
    assert not THREE_A_MINUTE.hit("ann", now=start + timedelta(seconds=59))
    next_minute = start + timedelta(seconds=60)
    assert [THREE_A_MINUTE.hit("ann", now=next_minute) for _ in range(4)] == [
        True,
        True,
        True,
        False,
    ]


def test_a_tally_counts_as_the_cache_does_in_the_same_windows(settings):
    settings.SOCKET_RATE = (2, 10.0)
    start = T0.replace(second=0, microsecond=0)
    own, shared = SOCKET_MESSAGES.tally(), SOCKET_MESSAGES.tally()
    assert [own.hit(now=start) for _ in range(3)] == [True, True, False]
    assert shared.hit(now=start)  # each holder its own count
    assert not own.hit(now=start + timedelta(seconds=9.9))  # refused, not counted
    assert [own.hit(now=start + timedelta(seconds=10)) for _ in range(3)] == [True, True, False]
    settings.SOCKET_RATE = (5, 10.0)  # read at each call
    assert own.hit(now=start + timedelta(seconds=10))
    # The same windows as the cache's count of the same limit.
    cached = [SOCKET_MESSAGES.hit("tally-check", now=start + timedelta(seconds=s)) for s in (20,)]
    assert cached == [SOCKET_MESSAGES.tally().hit(now=start + timedelta(seconds=20))]


def test_retry_after_is_what_is_left_of_the_window():
    start = T0.replace(second=0, microsecond=0)
    assert THREE_A_MINUTE.retry_after(now=start) == 60
    assert THREE_A_MINUTE.retry_after(now=start + timedelta(seconds=59.2)) == 1
    assert THREE_A_MINUTE.retry_after(now=start + timedelta(seconds=20.5)) == 40
    # Then the action is allowed again.
    for _ in range(3):
        THREE_A_MINUTE.hit("dee", now=start + timedelta(seconds=20.5))
    assert not THREE_A_MINUTE.hit("dee", now=start + timedelta(seconds=59))
    assert THREE_A_MINUTE.hit("dee", now=start + timedelta(seconds=20.5 + 40))


def test_seconds_may_be_posix_time():
    at = T0.timestamp()
    assert [THREE_A_MINUTE.hit("cy", now=at) for _ in range(4)] == [True, True, True, False]
    assert THREE_A_MINUTE.over("cy", now=T0)  # the same window as the datetime


def test_threads_share_the_count():
    limit = Limit("test-threads", 20, 60)
    allowed = []

    def worker():
        allowed.extend(limit.hit("ann", now=T0) for _ in range(10))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 20 and allowed.count(False) == 20


@needs_services
def test_another_process_shares_the_count():
    """A second process (another web process, a worker) sees what this one counted."""
    limit = Limit("test-processes", 5, 60)
    assert all(limit.hit("ann", now=T0) for _ in range(3))
    script = (
        "import django; django.setup()\n"
        "from accounts.limits import Limit\n"
        "from tests.timeshift import T0\n"
        "print([Limit('test-processes', 5, 60).hit('ann', now=T0) for _ in range(3)])\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", **_environment()},
    )
    assert child.stdout.strip() == "[True, True, False]"
    assert limit.over("ann", now=T0)


def _environment():
    import os

    return dict(os.environ)


def test_the_declared_limits_read_their_settings_at_each_call(settings):
    settings.SOCKET_RATE = (2, 10.0)
    settings.VISITOR_SOCKET_RATE = (1, 5.0)
    assert SOCKET_MESSAGES.rate() == (2, 10.0)
    assert VISITOR_SOCKET_MESSAGES.rate() == (1, 5.0)
    assert [SOCKET_MESSAGES.hit("specific.ch!1", now=T0) for _ in range(3)] == [True, True, False]
    assert [VISITOR_SOCKET_MESSAGES.hit("specific.ch!2", now=T0) for _ in range(2)] == [
        True,
        False,
    ]
    settings.SOCKET_RATE = (5, 10.0)  # changed after import: the new figure counts
    assert SOCKET_MESSAGES.hit("specific.ch!1", now=T0)


def test_a_count_alone_in_a_setting_keeps_the_declared_window(settings):
    from games.services.analysis import ANALYSES_ASKED
    from lobby.services.members import LOBBY_ACTIONS

    settings.LOBBY_ACTIONS_PER_MINUTE = 4
    settings.ANALYSIS_PER_HOUR = 7
    assert LOBBY_ACTIONS.rate() == (4, 60.0)
    assert ANALYSES_ASKED.rate() == (7, 3600.0)
    del settings.LOBBY_ACTIONS_PER_MINUTE  # missing: the declared default
    assert not hasattr(django_settings, "LOBBY_ACTIONS_PER_MINUTE")
    assert LOBBY_ACTIONS.rate() == (10, 60.0)
