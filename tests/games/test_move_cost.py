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
    # Lock the match, read its seats, save the match's changed columns in one UPDATE and
    # store the move, on either database.
    expected = ["BEGIN", "SELECT", "SELECT", "UPDATE", "INSERT", "COMMIT"]
    for ply in range(6):
        queries, _ = play_one(match, members[ply % seats], ply)
        counts.append(len(queries))
        statements = [q["sql"].split()[0] for q in queries.captured_queries]
        assert statements == expected
    assert set(counts) == {len(expected)}


def test_the_state_sent_after_a_move_equals_sync(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    _, box = play_one(match, alice, 0)
    [(group, event)] = [item for item in box if item[1]["type"] == "table.state"]
    assert group == f"table-{match.pk}"
    assert event == selectors.table_event(match.pk, now=T0)  # exactly what sync sends
    sent = json.loads(state.personal(event, 1))
    assert sent["game"]["ply"] == 1 and sent["you"]["seat"] == "B" and sent["you"]["previews"]
