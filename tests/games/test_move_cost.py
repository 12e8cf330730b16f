"""A move is one short transaction with a fixed, small number of SQL statements, and the
state it sends is exactly what ``sync`` returns."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import events, selectors, services, state
from tests.games.conftest import T0, legal_colour, position_of

pytestmark = pytest.mark.django_db(transaction=True)


def play_one(match, user, ply):
    colour = legal_colour(position_of(match))
    with CaptureQueriesContext(connection) as queries, events.capture() as box:
        services.move_play(match_id=match.pk, user=user, ply=ply, color=colour, received_at=T0)
    return queries, box


@pytest.mark.parametrize("variant", ["fast", "four"])
def test_a_move_runs_a_fixed_number_of_statements(new_table, make_member, variant):
    members = [make_member(name) for name in ("ann", "ben", "cat", "dan")]
    seats = 4 if variant == "four" else 2
    match = new_table(variant, members[:seats], clock="3+2")
    counts = []
    for ply in range(6):
        queries, _ = play_one(match, members[ply % seats], ply)
        counts.append(len(queries))
        statements = [q["sql"].split()[0] for q in queries.captured_queries]
        # lock the match and read the seats (with BEGIN: one round trip), store the move
        # with the match's changed columns (with COMMIT: the second; games.pipeline)
        assert statements == ["BEGIN", "SELECT", "WITH", "COMMIT"]
    assert set(counts) == {4}


def test_the_state_sent_after_a_move_equals_sync(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    _, box = play_one(match, alice, 0)
    [(group, event)] = [item for item in box if item[1]["type"] == "table.state"]
    assert group == f"table-{match.pk}"
    # The group event carries the table for the other processes (rows.heard); the rest is
    # exactly what sync sends.
    assert {k: v for k, v in event.items() if k != "kept"} == selectors.table_event(
        match.pk, now=T0
    )
    sent = json.loads(state.personal(event, 1))
    assert sent["game"]["ply"] == 1 and sent["you"]["seat"] == "B" and sent["you"]["previews"]


def test_the_lock_reads_the_state_only_when_the_process_does_not_keep_it(new_table, alice, bob):
    """The lock leaves the state column out when this process committed that version;
    when the row moved on elsewhere (a worker, another process), it is read again."""
    from django.db import transaction

    from games import rows
    from games.models import Match

    def lock():
        with transaction.atomic():
            return rows.match_and_seats_locked(match.pk, session_key=None, now=T0)[0]

    match = new_table("fast", [alice, bob], clock="3+2")
    play_one(match, alice, 0)  # this process committed it: the state is kept
    match.refresh_from_db()
    version, kept, stored, table = rows._committed[match.pk]
    assert version == match.version and kept.to_dict() == stored == match.state
    # A marker kept at the same version shows the row's state column was not read.
    marker = kept.play(1, legal_colour(position_of(match)))
    rows._committed[match.pk] = (version, marker, marker.to_dict(), table)
    assert lock().state == marker.to_dict() != match.state
    # Another process stores a newer version: the state is read from the row again.
    Match.objects.filter(pk=match.pk).update(version=version + 1)
    locked = lock()
    assert locked.version == version + 1 and locked.state == match.state
    assert rows.engine_state(locked) == kept
