"""Practice against the computer through the socket, with a real worker on the ``bots``
queue; hints and takebacks (refused at normal tables); empty seats filled by the computer."""

from dataclasses import replace

import pytest
from asgiref.sync import sync_to_async
from celery.contrib.testing.worker import start_worker

from config.celery import QUEUES, app
from games import services, timing
from games.engine import Position
from games.engine.match import MatchState
from games.errors import TableError
from games.models import Match, Move
from lobby import services as lobby_services
from tests.conftest import needs_services
from tests.engine.test_blocking import BLOCK
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bots_worker():
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["bots"]):
        yield


def greedy(state: dict) -> int:
    position = Position.from_text(state["game"]["position"])
    legal = [int(c) for c, why in state["you"]["legal"].items() if why is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def test_every_queue_a_task_is_routed_to_is_declared():
    from django.conf import settings

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed <= set(QUEUES) and "bots" in QUEUES
    assert {queue.name for queue in app.conf.task_queues} == set(QUEUES)


def test_a_practice_table(alice):
    match = services.practice_start(
        member=alice, board="classic", level=3, member_starts=False, clock="", now=T0
    )
    seats = list(match.seats.order_by("seat"))
    assert seats[0].bot_level == 3 and seats[0].member is None
    assert seats[1].member == alice
    assert match.practice and not match.rated and match.format == "single"
    with pytest.raises(TableError):
        services.practice_start(
            member=alice, board="four", level=3, member_starts=True, clock="", now=T0
        )
    with pytest.raises(TableError):
        services.practice_start(
            member=alice, board="fast", level=5, member_starts=True, clock="", now=T0
        )


@needs_services
def test_eight_practice_tables_asked_at_once_open_at_most_the_limit(alice, settings):
    """Eight requests at the same moment (each on its own connection) once opened eight
    tables with a limit of two: the member's row lock makes them take turns."""
    import threading

    from django.db import connections

    settings.PRACTICE_TABLES_PER_MEMBER = 2
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def ask() -> None:
        barrier.wait()
        try:
            services.practice_start(
                member=alice, board="fast", level=1, member_starts=True, clock="", now=T0
            )
            outcomes.append("opened")
        except TableError as refused:
            outcomes.append(refused.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["limit"] * 6 + ["opened"] * 2
    assert Match.objects.filter(practice=True, seats__member=alice).count() == 2


@needs_services
async def test_a_practice_game_to_its_end_with_the_computer_answering(bots_worker, connect, alice):
    match = await sync_to_async(services.practice_start)(
        member=alice, board="fast", level=2, member_starts=True, clock="", now=timing.now()
    )
    socket = await connect(match, alice)
    state = socket.state
    moves = 0
    while state["match"]["status"] == "playing":
        if state["game"]["to_move"] == "A":
            await socket.send({"type": "move", "color": greedy(state), "ply": state["game"]["ply"]})
            moves += 1
        state = await socket.state_where(
            lambda s, ply=state["game"]["ply"]: (
                s["game"]["ply"] > ply or s["match"]["status"] != "playing"
            ),
            timeout=20,
        )
    assert state["match"]["status"] == "finished"
    stored = await sync_to_async(Move.objects.filter(game__match_id=match.pk).count)()
    assert stored == state["game"]["ply"] and stored > moves  # the computer moved too


@needs_services
async def test_hint_and_takeback_over_the_socket(bots_worker, connect, alice):
    match = await sync_to_async(services.practice_start)(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=timing.now()
    )
    socket = await connect(match, alice)
    await socket.send({"type": "hint"})
    hint = await socket.receive_type("hint")
    position = Position.from_text(socket.state["game"]["position"])
    assert position.legal_colors()[hint["color"]] is None
    assert hint["cells"] == sorted(position.preview(hint["color"]))
    assert hint["gained"] == len(hint["cells"])
    assert ("denies" in hint) == (hint["gained"] == 0)
    await socket.send({"type": "move", "color": hint["color"], "ply": 0})
    await socket.state_where(lambda s: s["game"]["ply"] == 2, timeout=20)  # the answer
    await socket.send({"type": "takeback"})
    back = await socket.state_where(lambda s: s["game"]["ply"] == 0)
    assert back["game"]["position"] == position.to_text()
    assert await sync_to_async(Move.objects.filter(game__match_id=match.pk).count)() == 0


def test_a_hint_that_takes_nothing_says_what_it_keeps_from_the_opponent(alice):
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T0
    )
    # Her turn in a constructed position: 4 takes three cells, 3 none; but 3 bars the
    # three cells B would take with it next, and the strongest level sees that.
    position = Position.from_text(BLOCK)
    state = MatchState.from_dict(match.state)
    state = replace(state, games=(replace(state.current, position=position),))
    Match.objects.filter(pk=match.pk).update(state=state.to_dict())
    match.refresh_from_db()
    hint = services.hint_work(match_id=match.pk, version=match.version)
    assert hint == {
        "type": "hint",
        "color": 3,
        "cells": [],
        "gained": 0,
        "denies": {"color": 3, "cells": 3},
    }


async def test_hints_and_takebacks_are_refused_at_normal_tables(connect, fast_table, alice):
    socket = await connect(fast_table, alice)
    for kind in ("hint", "takeback"):
        await socket.send({"type": kind})
        error = await socket.receive_type("error")
        assert error["code"] == "not_allowed"
        assert "practice" in error["message"]


def test_a_takeback_before_the_computer_answered_undoes_one_move(alice):
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T0
    )
    position = MatchState.from_dict(Match.objects.get(pk=match.pk).state).current.position
    colour = next(c for c, why in position.legal_colors().items() if why is None)
    services.move_play(match_id=match.pk, user=alice, ply=0, color=colour, received_at=T0)
    services.practice_takeback(match_id=match.pk, user=alice, now=T0)
    state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
    assert state.current.ply == 0 and state.current.position == position
    with pytest.raises(TableError):  # nothing of hers left to take back
        services.practice_takeback(match_id=match.pk, user=alice, now=T0)


def test_the_host_fills_empty_seats_with_the_computer(make_member):
    host, guest = make_member("host"), make_member("guest")
    table = lobby_services.table_open(
        host=host,
        variant="four",
        clock="",
        single_game=False,
        rated=False,
        private=False,
        now=T0,
    )
    lobby_services.table_join(member=guest, match_id=table.pk, now=T0)
    with pytest.raises(TableError):
        lobby_services.table_fill_bots(member=guest, level=2, match_id=table.pk, now=T0)
    lobby_services.table_fill_bots(member=host, level=2, match_id=table.pk, now=T0)
    table.refresh_from_db()
    assert table.status == "playing"
    seats = list(table.seats.order_by("seat"))
    assert [s.member.username if s.member else s.bot_level for s in seats] == [
        "host",
        "guest",
        2,
        2,
    ]
    rated = lobby_services.table_open(
        host=make_member("other"),
        variant="four",
        clock="5+3",
        single_game=False,
        rated=True,
        private=False,
        now=T0,
    )
    with pytest.raises(TableError):
        lobby_services.table_fill_bots(member=rated.created_by, level=2, match_id=rated.pk, now=T0)


def test_a_practice_table_without_a_clock_ends_only_as_deserted(alice, bob, settings):
    """SPEC §3, issue 43.2: the first-move rule spares a practice table without a clock
    (its member may read the rules first); with a clock it applies as anywhere."""
    from datetime import timedelta

    from games import selectors, tasks
    from tests import timeshift

    lone = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T0
    )
    timed = services.practice_start(
        member=bob, board="fast", level=1, member_starts=True, clock="3+2", now=T0
    )
    lone.refresh_from_db()
    assert lone.deadline is None  # nothing is due by itself
    assert selectors.table_state(lone.pk, now=T0)["match"]["abort_at"] is None  # no countdown
    assert selectors.table_state(timed.pk, now=T0)["match"]["abort_at"] is not None

    later = T0 + timedelta(seconds=settings.GAME_ABORT_SECONDS + 10)
    assert not services.match_tick(match_id=lone.pk, now=later)
    timeshift.set_now(later)
    tasks.clocks_sweep()
    assert Match.objects.get(pk=lone.pk).status == Match.Status.PLAYING  # still playing
    assert Match.objects.get(pk=timed.pk).status == Match.Status.ABORTED  # the rule applies
    # Her first move comes when she is ready; the table plays on.
    position = services_position(lone)
    colour = next(c for c, why in position.legal_colors().items() if why is None)
    services.move_play(match_id=lone.pk, user=alice, ply=0, color=colour, received_at=later)
    assert MatchState.from_dict(Match.objects.get(pk=lone.pk).state).current.ply >= 1


def services_position(match) -> Position:
    return MatchState.from_dict(Match.objects.get(pk=match.pk).state).current.position
