from datetime import timedelta

import pytest

from games import services
from games.engine import VARIANTS
from games.errors import TableError
from games.models import ChatMessage, Game, Match, Move
from tests.games.conftest import T0, forbidden_colour, legal_colour, position_of
from tests.moves import play_opening

pytestmark = pytest.mark.django_db


def play_greedy(match, members, now=T0):
    """Play the current game to its end with the largest-gain legal colour."""
    from games.diagrams import greedy_colour
    from games.engine.match import MatchState

    while True:
        match.refresh_from_db()
        state = MatchState.from_dict(match.state)
        if match.status != Match.Status.PLAYING:
            return match
        position = state.current.position
        services.move_play(
            match_id=match.pk,
            user=members[position.to_move],
            ply=state.current.ply,
            color=greedy_colour(position),
            received_at=now,
        )


def test_create_starts_the_match_with_the_board_stored(fast_table):
    assert fast_table.status == Match.Status.PLAYING
    assert fast_table.board == VARIANTS["fast"].new_position(7).to_text()
    assert [s.member.username for s in fast_table.seats.all()] == ["alice", "bob"]
    assert Game.objects.get(match=fast_table, number=1).start == fast_table.board
    assert fast_table.version == 1


def test_create_refuses_nonsense(new_table, alice, bob, carol):
    with pytest.raises(TableError):
        new_table("fast", [alice])
    with pytest.raises(TableError):
        new_table("fast", [alice, alice])
    with pytest.raises(TableError):
        new_table("practice", [alice, bob])
    with pytest.raises(TableError):
        new_table("vinco", [alice, bob], rated=True, clock="3+2")  # unrated variant
    with pytest.raises(TableError):
        new_table("fast", [alice, bob], rated=True)  # rated needs a clock
    with pytest.raises(TableError):
        new_table("fast", [alice, bob], clock="7+31")  # an increment over 30 s
    assert not Match.objects.exists()


def test_a_move_is_stored_and_bumps_the_version(fast_table, alice):
    position = position_of(fast_table)
    colour = legal_colour(position)
    gain = position.preview(colour)
    match = services.move_play(
        match_id=fast_table.pk, user=alice, ply=0, color=colour, received_at=T0
    )
    assert match.version == 2
    move = Move.objects.get(game__match=fast_table)
    assert (move.ply, move.seat, move.color) == (1, 0, colour)
    assert move.gained == len(gain)
    after = position_of(fast_table)
    assert after.to_move == 1
    assert after.territory(0) == position.territory(0) | gain


@pytest.mark.parametrize(
    ("who", "ply", "colour", "code"),
    [
        ("bob", 0, "legal", "not_your_turn"),
        ("alice", 3, "legal", "stale"),
        ("alice", 0, "own", "illegal_color"),
        ("alice", 0, "opponent", "illegal_color"),
        ("alice", 0, 9, "illegal_color"),  # fast has 6 colours
        ("carol", 0, "legal", "not_a_player"),
    ],
)
def test_refused_moves_change_nothing(fast_table, alice, bob, carol, who, ply, colour, code):
    position = position_of(fast_table)
    if colour == "legal":
        colour = legal_colour(position)
    elif colour in ("own", "opponent"):
        colour = forbidden_colour(position, colour)
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    with pytest.raises(TableError) as failure:
        services.move_play(match_id=fast_table.pk, user=user, ply=ply, color=colour, received_at=T0)
    assert failure.value.code == code
    fast_table.refresh_from_db()
    assert fast_table.version == 1
    assert position_of(fast_table) == position
    assert not Move.objects.exists()


def test_anonymous_cannot_move(fast_table):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(TableError) as failure:
        services.move_play(
            match_id=fast_table.pk, user=AnonymousUser(), ply=0, color=1, received_at=T0
        )
    assert failure.value.code == "not_a_player"


def test_whole_match_between_games_ready_and_result(fast_table, alice, bob):
    members = [alice, bob]
    match = play_greedy(fast_table, members)
    assert match.status == Match.Status.BETWEEN_GAMES
    game1 = Game.objects.get(match=match, number=1)
    assert game1.finished_at and game1.winners and game1.final
    with pytest.raises(TableError) as failure:
        services.move_play(match_id=match.pk, user=alice, ply=0, color=1, received_at=T0)
    assert failure.value.code == "game_over"

    services.match_ready(match_id=match.pk, user=alice, now=T0)
    match.refresh_from_db()
    assert match.status == Match.Status.BETWEEN_GAMES
    services.match_ready(match_id=match.pk, user=bob, now=T0)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    game2 = Game.objects.get(match=match, number=2)
    assert game2.first_seat == 1  # B at the bottom-left corner moves first
    assert game2.corners == [1, 0]

    match = play_greedy(match, members)
    assert match.status == Match.Status.FINISHED
    assert match.result_reason in {"points", "totals", "drawn"}
    assert match.finished_at is not None


def test_next_game_starts_sixty_seconds_after_game_one(fast_table, alice, bob):
    match = play_greedy(fast_table, [alice, bob])
    ended = Game.objects.get(match=match, number=1).finished_at
    assert not services.match_tick(match_id=match.pk, now=ended + timedelta(seconds=59))
    assert services.match_tick(match_id=match.pk, now=ended + timedelta(seconds=60))
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    # Idempotent: a second delivery of the task does nothing.
    assert not services.match_tick(match_id=match.pk, now=ended + timedelta(seconds=61))


def test_resign_game_then_match(fast_table, alice, bob):
    play_opening(fast_table, [alice, bob], now=T0)
    services.game_resign(match_id=fast_table.pk, user=alice, now=T0)
    fast_table.refresh_from_db()
    assert fast_table.status == Match.Status.BETWEEN_GAMES
    game1 = Game.objects.get(match=fast_table, number=1)
    assert (game1.winners, game1.reason) == ([1], "resigned")
    services.match_resign(match_id=fast_table.pk, user=bob, now=T0)
    fast_table.refresh_from_db()
    assert fast_table.status == Match.Status.FINISHED
    assert fast_table.state["winners"] == [0]
    assert fast_table.result_reason == "resigned"


def test_ready_outside_the_break_is_not_allowed(fast_table, alice):
    with pytest.raises(TableError) as failure:
        services.match_ready(match_id=fast_table.pk, user=alice, now=T0)
    assert failure.value.code == "not_allowed"


def test_rematch_needs_everyone_within_sixty_seconds(fast_table, alice, bob):
    play_opening(fast_table, [alice, bob], now=T0)
    services.match_resign(match_id=fast_table.pk, user=alice, now=T0)
    services.rematch_offer(match_id=fast_table.pk, user=alice, now=T0)
    # Bob is too late: the offer lapsed, so his acceptance is a new offer.
    services.rematch_offer(match_id=fast_table.pk, user=bob, now=T0 + timedelta(seconds=61))
    fast_table.refresh_from_db()
    assert fast_table.rematch is None
    assert fast_table.rematch_accepted == [1]
    services.rematch_offer(match_id=fast_table.pk, user=alice, now=T0 + timedelta(seconds=70))
    fast_table.refresh_from_db()
    rematch = fast_table.rematch
    assert rematch is not None and rematch.status == Match.Status.PLAYING
    assert rematch.variant == "fast" and rematch.clock == fast_table.clock
    assert [s.member_id for s in rematch.seats.all()] == [alice.pk, bob.pk]


def test_rematch_before_the_end_is_not_allowed(fast_table, alice):
    with pytest.raises(TableError) as failure:
        services.rematch_offer(match_id=fast_table.pk, user=alice, now=T0)
    assert failure.value.code == "not_allowed"


def test_chat_limits(fast_table, alice, carol):
    message = services.chat_post(match_id=fast_table.pk, user=alice, text=" hi ", now=T0)
    assert message.text == "hi"
    with pytest.raises(TableError) as failure:
        services.chat_post(match_id=fast_table.pk, user=alice, text="x" * 501, now=T0)
    assert failure.value.code == "bad_message"
    for _ in range(5):
        services.chat_post(match_id=fast_table.pk, user=carol, text="go", now=T0)
    with pytest.raises(TableError) as failure:
        services.chat_post(match_id=fast_table.pk, user=carol, text="go", now=T0)
    assert failure.value.code == "rate_limited"
    # The next window is open again.
    services.chat_post(
        match_id=fast_table.pk, user=carol, text="go", now=T0 + timedelta(seconds=10)
    )
    assert ChatMessage.objects.filter(author=carol).count() == 6


def test_spectators_chat_among_themselves_at_rated_tables(new_table, alice, bob, carol):
    match = new_table("fast", [alice, bob], rated=True, clock="3+2")
    spectator = services.chat_post(match_id=match.pk, user=carol, text="nice", now=T0)
    player = services.chat_post(match_id=match.pk, user=alice, text="gl", now=T0)
    assert spectator.audience == "spectators"
    assert player.audience == "all"


def test_muted_member_cannot_chat(fast_table, alice):
    from accounts.services import member_mute

    member_mute(member=alice)
    with pytest.raises(TableError) as failure:
        services.chat_post(match_id=fast_table.pk, user=alice, text="hi", now=T0)
    assert failure.value.code == "not_allowed"


def test_clock_runs_only_after_a_seats_first_move(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    position = position_of(match)
    services.move_play(
        match_id=match.pk, user=alice, ply=0, color=legal_colour(position), received_at=T0
    )
    match.refresh_from_db()
    assert match.clock_state["running"] is None  # B has not moved yet
    position = position_of(match)
    services.move_play(
        match_id=match.pk,
        user=bob,
        ply=1,
        color=legal_colour(position),
        received_at=T0 + timedelta(seconds=9),
    )
    match.refresh_from_db()
    clock = match.clock_state
    assert clock["running"] == 0
    assert clock["remaining_ms"] == [182_000, 182_000]
    position = position_of(match)
    services.move_play(
        match_id=match.pk,
        user=alice,
        ply=2,
        color=legal_colour(position),
        received_at=T0 + timedelta(seconds=14),
    )
    match.refresh_from_db()
    assert match.clock_state["remaining_ms"][0] == 182_000 - 5_000 + 2_000
    assert match.clock_state["running"] == 1


@pytest.mark.parametrize(
    "variant", ["hex", "vinco", "rhombus", "big", "walls", "values", "three", "four", "pairs"]
)
def test_every_table_variant_plays_to_its_end(new_table, make_member, variant):
    members = [make_member(f"p{i}") for i in range(VARIANTS[variant].seats)]
    match = new_table(variant, members)
    match = play_greedy(match, members)
    if match.status == Match.Status.BETWEEN_GAMES:
        for member in members:
            match.refresh_from_db()
            if match.status == Match.Status.BETWEEN_GAMES:
                services.match_ready(match_id=match.pk, user=member, now=T0)
        match = play_greedy(match, members)
    assert match.status == Match.Status.FINISHED
    assert Game.objects.filter(match=match).count() == VARIANTS[variant].games


def test_vinco_swap_through_the_service(new_table, alice, bob):
    match = new_table("vinco", [alice, bob])
    position = position_of(match)
    services.move_play(
        match_id=match.pk, user=alice, ply=0, color=legal_colour(position), received_at=T0
    )
    before = position_of(match)
    services.move_play(match_id=match.pk, user=bob, ply=1, color="swap", received_at=T0)
    after = position_of(match)
    assert after.territory(1) == before.territory(0)
    assert after.to_move == 0
    move = Move.objects.get(game__match=match, ply=2)
    assert move.color is None and move.notation == "swap"


def test_four_players_resign_match_leaves_the_others_playing(new_table, make_member):
    members = [make_member(f"p{i}") for i in range(4)]
    match = new_table("four", members)
    play_opening(match, members, now=T0)
    services.match_resign(match_id=match.pk, user=members[0], now=T0)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert position_of(match).to_move == 1
    assert match.state["out"] == [0]


def test_deleting_an_account_keeps_finished_matches_under_deleted_member(
    fast_table, alice, bob, client
):
    from accounts.services import member_delete

    play_opening(fast_table, [alice, bob], now=T0)
    services.match_resign(match_id=fast_table.pk, user=bob, now=T0)
    member_delete(member=bob)
    fast_table.refresh_from_db()
    seats = list(fast_table.seats.all())
    assert seats[1].member is None
    assert seats[1].display_name == "deleted member"
    response = client.get(f"/match/{fast_table.pk}/")
    assert response.status_code == 200
    assert "deleted member" in response.content.decode()


def test_deleting_an_account_resigns_running_matches(fast_table, alice, bob):
    """A move each first: an unplayed match is aborted instead (SPEC §3)."""
    from accounts.services import member_delete

    for ply, user in enumerate([alice, bob]):
        services.move_play(
            match_id=fast_table.pk,
            user=user,
            ply=ply,
            color=legal_colour(position_of(fast_table)),
            received_at=T0,
        )
    member_delete(member=bob)
    fast_table.refresh_from_db()
    assert fast_table.status == Match.Status.FINISHED
    assert fast_table.result_reason == "resigned"
    assert fast_table.state["winners"] == [0]


def test_lobby_lists_live_tables_with_few_queries(
    client, new_table, make_member, django_assert_max_num_queries
):
    members = [make_member(f"m{i}") for i in range(6)]
    for i in range(0, 6, 2):
        new_table("fast", members[i : i + 2])
    finished = new_table("classic", [make_member("x"), make_member("y")])
    play_opening(finished, [seat.member for seat in finished.seats.order_by("seat")], now=T0)
    services.match_resign(match_id=finished.pk, user=finished.seats.first().member, now=T0)
    with django_assert_max_num_queries(14):
        html = client.get("/").content.decode()
    assert html.count('href="/match/') == 3
    assert 'href="/@/m0/"' in html and 'href="/@/x/"' not in html


def test_profile_lists_the_members_matches(client, fast_table, alice, bob):
    play_opening(fast_table, [alice, bob], now=T0)
    services.match_resign(match_id=fast_table.pk, user=bob, now=T0)
    html = client.get("/@/alice/").content.decode()
    assert f'href="/match/{fast_table.pk}/"' in html
    assert 'href="/@/bob/"' in html


def test_a_closed_socket_stops_counting_and_the_member_was_seen(fast_table, alice):
    from accounts.models import User
    from games.models import Presence

    seat = services.socket_open(channel_name="c-1", member=alice, match_id=fast_table.pk, now=T0)
    assert seat == 0
    services.presence_refresh(match_id=fast_table.pk, now=T0)
    assert fast_table.seats.get(seat=0).connected is True
    later = T0 + timedelta(seconds=7)
    services.socket_close(channel_name="c-1", now=later)
    row = Presence.objects.get(channel_name="c-1")
    assert row.closed is True and row.last_seen == later
    assert User.objects.get(pk=alice.pk).last_seen == later
    services.presence_refresh(match_id=fast_table.pk, now=later)
    seat_row = fast_table.seats.get(seat=0)
    assert seat_row.connected is False and seat_row.absent_since == later
    assert not Presence.objects.filter(channel_name="c-1").exists()  # forgotten once read


def test_a_refresh_reads_every_socket_of_the_table_and_forgets_the_gone_ones(
    fast_table, alice, bob, carol, dave, settings
):
    """Seat A's sockets: one closed, one silent past the expiry; seat B's socket lives;
    one spectator's socket lives and another's closed. (The SQLite pass of ``make test``
    runs the same test on SQLite.)"""
    from games.models import Presence

    expiry = timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    for name, member in [("a-closed", alice), ("a-silent", alice), ("b", bob)]:
        services.socket_open(channel_name=name, member=member, match_id=fast_table.pk, now=T0)
    for name, member in [("c", carol), ("d", dave)]:
        services.socket_open(channel_name=name, member=member, match_id=fast_table.pk, now=T0)
    assert services.presence_refresh(match_id=fast_table.pk, now=T0) is True
    assert fast_table.seats.get(seat=0).connected and fast_table.seats.get(seat=1).connected

    now = T0 + expiry + timedelta(seconds=5)
    services.socket_close(channel_name="a-closed", now=T0 + timedelta(seconds=4))
    services.socket_close(channel_name="d", now=T0 + timedelta(seconds=2))
    Presence.objects.filter(channel_name="a-silent").update(last_seen=T0 + timedelta(seconds=3))
    for name in ("b", "c"):
        services.socket_seen(channel_name=name, now=now)
    assert services.presence_refresh(match_id=fast_table.pk, now=now) is True

    a, b = fast_table.seats.get(seat=0), fast_table.seats.get(seat=1)
    assert (a.connected, a.absent_since) == (False, T0 + timedelta(seconds=4))
    assert (b.connected, b.absent_since) == (True, None)
    fast_table.refresh_from_db()
    assert fast_table.spectators == 1
    assert set(Presence.objects.values_list("channel_name", flat=True)) == {"b", "c"}
    assert services.presence_refresh(match_id=fast_table.pk, now=now) is False


def test_a_socket_opening_is_counted_against_both_caps(fast_table, alice, settings):
    """A member holds at most ``SOCKETS_PER_TABLE`` sockets at one table and
    ``SOCKETS_PER_MEMBER`` in all; each opening stores the socket and sees the member."""
    from accounts.models import User
    from games.errors import TableError
    from games.models import Presence

    settings.SOCKETS_PER_MEMBER, settings.SOCKETS_PER_TABLE = 3, 2

    def opening(name, match_id):
        try:
            services.socket_open(channel_name=name, member=alice, match_id=match_id, now=T0)
        except TableError as refused:
            assert refused.code == "too_many_sockets"
            return False
        return True

    assert opening("a-1", fast_table.pk) is True
    assert opening("a-2", fast_table.pk) is True
    assert opening("a-3", fast_table.pk) is False  # two at this table
    assert opening("a-4", None) is True  # a third elsewhere
    assert opening("a-5", None) is False  # three in all
    rows_ = Presence.objects.filter(member=alice).order_by("channel_name")
    assert [(p.channel_name, p.match_id, p.seat) for p in rows_] == [
        ("a-1", fast_table.pk, 0),
        ("a-2", fast_table.pk, 0),
        ("a-4", None, None),
    ]
    assert all(p.last_seen == T0 == p.opened_at and not p.closed for p in rows_)
    assert User.objects.get(pk=alice.pk).last_seen == T0
