"""The site's PostgreSQL connections read times with psycopg's compiled loader, and read
the same aware UTC datetimes as Django's own loader."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import connection

from games.database import UtcTimestampLoader
from games.models import Match

pytestmark = pytest.mark.django_db


def test_times_read_back_exactly_and_in_utc(fast_table):
    written = datetime(2026, 12, 1, 15, 4, 5, 123456, tzinfo=timezone(timedelta(hours=2)))
    Match.objects.filter(pk=fast_table.pk).update(deadline=written, turn_started_at=None)
    read = Match.objects.values_list("deadline", "turn_started_at").get(pk=fast_table.pk)
    assert read == (written, None)
    assert read[0].tzinfo is UTC and read[0].hour == 13 and read[0].microsecond == 123456
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz", ["2026-02-28 23:59:59.5-01:30"])
        assert cursor.fetchone()[0] == datetime(2026, 3, 1, 1, 29, 59, 500000, tzinfo=UTC)


def test_the_connection_uses_the_compiled_loader(db):
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(1184, 0)  # timestamptz, text
    assert loader is UtcTimestampLoader
    with connection.cursor() as cursor:  # Django's cursor keeps it (the zones agree)
        assert cursor.cursor.adapters.get_loader(1184, 0) is UtcTimestampLoader
