"""The site as it was at an earlier commit, served next to today's in the same run, for
``bench/ws_load.py --before REV``: a baseline on the machine of the day, since these
machines differ by a factor of two or more from one day to the next.

The commit's files come from ``git archive`` into the benchmark's scratch directory; its
own migrations build its own database on the same PostgreSQL, and its members, sessions
and matches are made by its own code in a subprocess. Its Daphne processes serve its own
``config.asgi`` on the same Redis (other database numbers for its cache and Celery).

The default commit, ``HOT_PATH``, is main just before the hot path was rewritten with
public APIs only and its modules split by job; ``ISSUE_9``, main before the throughput
work (one Daphne process played 40-80 Fast moves a second there, at 11-18 ms of CPU a
move, on the machine of that day).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ISSUE_9 = "4b5871c"  # main before the throughput work: 11-18 ms of CPU a move
HOT_PATH = "3a77d98"  # main before the hot path was rewritten with public APIs, by job

#: Run by the commit's own code (cwd: its files): ``count`` Fast matches between members
#: ``load-a<i>`` and ``load-b<i>``, printed as JSON rows (match id, cookie A, cookie B).
_TABLES = """
import json, sys
import django
django.setup()
from django.test import Client
from django.utils import timezone
from accounts.models import User
from games import services
rows = []
for index in range(int(sys.argv[1])):
    cookies, members = [], []
    for side in "ab":
        name = f"load-{side}{index}"
        member, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@x"})
        client = Client()
        client.force_login(member)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        members.append(member)
    match = services.match_create(variant="fast", members=members, now=timezone.now())
    rows.append((match.pk, *cookies))
print(json.dumps(rows))
"""


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _with_redis_db(url: str, number: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


class Before:
    """The site at ``revision``, checked out, migrated and ready to serve."""

    def __init__(self, root: Path, revision: str, scratch: Path) -> None:
        import psycopg

        self.revision = revision
        self.root = scratch / f"before-{revision}"
        if not self.root.exists():
            self.root.mkdir(parents=True)
            archive = subprocess.run(
                ["git", "-C", str(root), "archive", revision],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(self.root)], input=archive, check=True)
        # The project is installed in editable mode: its finder would hand the earlier
        # site a module of today's that the commit does not have (``lobby.admin``).
        (self.root / "sitecustomize.py").write_text(
            "import sys\n"
            "sys.meta_path[:] = [f for f in sys.meta_path\n"
            "    if not getattr(f, '__module__', '').startswith('__editable__')]\n"
        )
        database = f"vog_before_{revision}"
        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}"')
            connection.execute(f'CREATE DATABASE "{database}"')
        redis = os.environ["REDIS_URL"]
        self.env = {
            "DATABASE_URL": _with_database(os.environ["DATABASE_URL"], database),
            "REDIS_URL": _with_redis_db(redis, 2),
            "REDIS_CACHE_URL": _with_redis_db(redis, 3),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(self.root),
        }
        self._run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"])

    def layer_setting(self, name: str, path: str) -> str:
        """``CHANNEL_LAYER_BACKEND`` as the commit's settings take it: the layer's name
        (``pubsub``, ``core``) today, its class's dotted path before that."""
        settings = (self.root / "config" / "settings.py").read_text()
        return name if "CHANNEL_LAYER_CLASSES" in settings else path

    def _run(self, command: list[str]) -> str:
        env = {**os.environ, "DEBUG": "1", **self.env}
        done = subprocess.run(
            command, cwd=self.root, env=env, check=True, capture_output=True, text=True
        )
        return done.stdout

    def tables(self, count: int) -> list[tuple[int, str, str]]:
        """``count`` fresh Fast matches made by the commit's own code."""
        rows = json.loads(self._run([sys.executable, "-c", _TABLES, str(count)]))
        return [tuple(row) for row in rows]
