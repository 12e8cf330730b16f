"""Members acting at the same moment: each call runs on its own connection and is held,
once it has saved the row that shows it took its first lock, until every other call has
too, so the race a test is about happens every time rather than now and then."""

import contextlib
import threading

from django.db import connections
from django.db.models.signals import post_save

from games.errors import TableError


def at_once(calls: dict, held) -> dict:
    """Run ``calls`` (name → function) together. ``held(row, created)`` says when a
    call's saved row means it holds its first lock; it then waits for the others (once,
    not again at a later save or when the call runs again). Returns each call's outcome:
    "done", a ``TableError``'s code, or any other failure's name and message."""
    all_hold = threading.Barrier(len(calls), timeout=5)
    waited: set[int] = set()

    def saved(sender, instance, created, **kwargs):
        if held(instance, created) and threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            with contextlib.suppress(threading.BrokenBarrierError):
                all_hold.wait()

    outcomes: dict[str, str] = {}

    def run(name, call) -> None:
        try:
            call()
            outcomes[name] = "done"
        except TableError as refused:
            outcomes[name] = refused.code
        except Exception as failure:  # what these tests are about: no other failure
            outcomes[name] = f"{type(failure).__name__}: {failure}"
        finally:
            connections.close_all()

    post_save.connect(saved, weak=False)
    try:
        threads = [threading.Thread(target=run, args=item) for item in calls.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        post_save.disconnect(saved)
    return outcomes
