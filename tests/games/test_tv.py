"""VOG TV (games.services.house, games.selectors.tv_match): the site keeps one match of two
computers in play, never two however many callers start one at once; /tv/ shows the
highest-rated public match of members before it; its computers wait 2–4 s a move on their
own clocks, and the deserted rule never ends it."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from games import events, services, timing
from games.engine.clock import Clock
from games.engine.match import MatchState
from games.models import Match, Seat
from games.selectors import tv_board, tv_match
from tests.conftest import needs_services
from tests.games.conftest import T0
from tests.games.table_sockets import fresh
from tests.moves import play_opening

pytestmark = pytest.mark.django_db(transaction=True)


def house() -> Match:
    return services.tv_match_keep(now=T0)


def computer_move(match: Match, *, at) -> bool:
    """The ``bots`` worker's task for the turn as it stands, run at ``at``."""
    game = MatchState.from_dict(fresh(match).state).current
    return services.bot_turn(match_id=match.pk, game=game.number, ply=game.ply, now=lambda: at)


def test_the_site_keeps_one_match_of_two_computers_in_play():
    tv = house()
    assert tv.house == Match.House.TV and tv.status == Match.Status.PLAYING
    assert not tv.rated and not tv.private and not tv.practice and tv.clock
    seats = list(Seat.objects.filter(match=tv))
    assert len(seats) == 2
    assert all(seat.member_id is None and seat.bot_level in (1, 2) for seat in seats)
    assert house().pk == tv.pk  # asked again: the same match
    assert Match.objects.filter(house=Match.House.TV).count() == 1

    services.match_abort(match_id=tv.pk, now=T0)  # it ended: the next call starts another
    again = house()
    assert again.pk != tv.pk and again.status == Match.Status.PLAYING


def test_a_second_match_of_two_computers_is_refused_by_the_database():
    tv = house()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(
            variant="fast", format="match", seed=1, board=tv.board, house=Match.House.TV
        )


@needs_services
def test_callers_at_the_same_moment_start_one_match_between_them():
    """Beat and pages asking at once (each on its own connection): the unique index lets
    one in, and the others get that one."""
    import threading

    from django.db import connections

    barrier = threading.Barrier(6)
    found: list[int] = []

    def ask() -> None:
        barrier.wait()
        try:
            found.append(house().pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 6 and len(set(found)) == 1
    assert Match.objects.filter(house=Match.House.TV).count() == 1


def test_old_matches_of_the_computers_are_forgotten_unless_someone_chatted(alice):
    from games.models import ChatMessage

    quiet, chatted = house(), None
    services.match_abort(match_id=quiet.pk, now=T0)
    chatted = house()
    ChatMessage.objects.create(match=chatted, author=alice, text="hello", created_at=T0)
    services.match_abort(match_id=chatted.pk, now=T0)
    later = T0 + timedelta(days=3)
    services.tv_match_keep(now=later)
    assert not Match.objects.filter(pk=quiet.pk).exists()
    assert Match.objects.filter(pk=chatted.pk).exists()


def test_tv_shows_the_best_rated_public_match_of_members_first(
    new_table, alice, bob, carol, make_member
):
    assert tv_match() is None  # nothing in play, and nothing started by a read
    tv = house()
    assert tv_match().pk == tv.pk
    dave, erin, frank = (make_member(n) for n in ("dave", "erin", "frank"))
    low = new_table("fast", [alice, bob])
    high = new_table("fast", [carol, dave])
    unrated = new_table("fast", [erin, frank])  # provisional players: after rated ones
    hidden = new_table("fast", [make_member("gina"), make_member("hal")], private=True)
    practice = services.practice_start(
        member=make_member("ivy"), board="fast", level=1, member_starts=True, clock="", now=T0
    )
    Seat.objects.filter(match=low).update(rating=1600)
    Seat.objects.filter(match=high).update(rating=1800)
    Seat.objects.filter(match__in=[hidden, practice], member__isnull=False).update(rating=2500)
    left = new_table("fast", [make_member("jo"), make_member("kim")])  # its players left
    Seat.objects.filter(match=left).update(rating=2400, connected=False)
    Seat.objects.exclude(match=left).update(connected=True)  # the others are at their tables
    assert tv_match().pk == high.pk
    Seat.objects.filter(match=high, seat=1).update(connected=False)  # one player is away
    assert tv_match().pk == low.pk
    Seat.objects.filter(match=high).update(connected=True)
    assert tv_match().pk == high.pk
    services.match_abort(match_id=high.pk, now=T0)
    assert tv_match().pk == low.pk
    services.match_abort(match_id=low.pk, now=T0)
    assert tv_match().pk == unrated.pk
    services.match_abort(match_id=unrated.pk, now=T0)
    assert tv_match().pk == tv.pk  # the computers, when no member's match is on


def test_the_live_board_is_read_in_a_fixed_number_of_queries(
    django_assert_max_num_queries,
):
    house()
    with django_assert_max_num_queries(4):
        board = tv_board(now=T0)
    assert board.match.house == Match.House.TV
    assert [seat["lettered"] for seat in board.seats] == [True, True]
    assert 'class="board' in board.svg


def test_the_computers_on_tv_wait_two_to_four_seconds_a_move(monkeypatch, alice, settings):
    """Their move task is queued with a pause; a practice table's computer answers at once."""
    queued = []
    monkeypatch.setattr(
        events, "bot_turn", lambda match_id, game, ply, pause=0: queued.append(pause)
    )
    house()
    assert len(queued) == 1 and 2 <= queued[0] <= 4
    services.practice_start(
        member=alice, board="fast", level=1, member_starts=False, clock="", now=T0
    )
    assert queued[1] == 0


def test_the_pause_goes_with_the_task(monkeypatch):
    from celery import current_app

    sent = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, countdown=None: sent.append((name, countdown))
    )
    events.bot_turn(3, 1, 0, 2.5)
    events.bot_turn(3, 1, 0)
    assert sent == [("games.tasks.bot_move", 2.5), ("games.tasks.bot_move", None)]


def test_the_computers_on_tv_think_on_their_clocks_through_the_pause():
    """Their clocks run as a player's would: the seconds between the turn and the move
    are charged (a practice table's computer is charged only from when the worker began:
    tests/games/test_computer_queue.py)."""
    tv = house()
    assert computer_move(tv, at=T0) and computer_move(tv, at=T0)  # both moved: clocks run
    bank = Clock.from_dict(fresh(tv).clock_state).remaining_ms[0]
    assert computer_move(tv, at=T0 + timedelta(seconds=3))
    clock = Clock.from_dict(fresh(tv).clock_state)
    assert clock.remaining_ms[0] == bank - 3_000 + clock.increment_ms


def test_the_deserted_rule_never_ends_the_match_on_tv(settings):
    """Nobody sits there to desert it: even without a clock (which would otherwise lose it
    for the seat to move) it plays on, where the same match of computers that is not the
    site's ends."""
    settings.GAME_DESERTED_SECONDS = 600
    tv = services.match_create(
        variant="fast", members=[], bots={0: 2, 1: 2}, now=T0, house=Match.House.TV
    )
    other = services.match_create(variant="fast", members=[], bots={0: 2, 1: 2}, now=T0)
    for match in (tv, other):
        computer_move(match, at=T0)
        computer_move(match, at=T0)
    later = T0 + timedelta(minutes=11)
    assert services.deserted_end(now=later) == 1
    assert fresh(tv).status == Match.Status.PLAYING
    assert fresh(other).status == Match.Status.FINISHED


def test_the_beat_task_starts_it_only_where_the_site_keeps_one(settings):
    from games.tasks import tv_match_keep

    settings.TV_HOUSE_MATCH = False
    assert tv_match_keep() is None
    assert not Match.objects.exists()
    settings.TV_HOUSE_MATCH = True
    started = tv_match_keep()
    assert Match.objects.get(house=Match.House.TV).pk == started
    assert tv_match_keep() == started


def test_the_tv_page_starts_the_match_when_nothing_is_on(client, settings, alice, bob):
    settings.TV_HOUSE_MATCH = False
    response = client.get("/tv/")
    assert response.status_code == 200
    assert b'id="tv-empty"' in response.content
    settings.TV_HOUSE_MATCH = True
    response = client.get("/tv/")
    tv = Match.objects.get(house=Match.House.TV)
    assert f'data-match="{tv.pk}"'.encode() in response.content
    assert b"VOG TV" in response.content

    members = services.match_create(variant="fast", members=[alice, bob], now=timing.now())
    play_opening(members, [alice, bob], now=timing.now())
    Seat.objects.filter(match=members).update(connected=True)  # both at the table
    response = client.get("/tv/")  # a match of members comes first
    assert f'data-match="{members.pk}"'.encode() in response.content
    response = client.get("/tv/board/")  # the home page's live board alone
    assert f'data-match="{members.pk}"'.encode() in response.content
    assert f'data-ws-path="/ws/table/{members.pk}/"'.encode() in response.content
