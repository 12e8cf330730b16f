"""Tables never wait for someone who is gone, and expiry is heard (SPEC §10): a member's
other waiting tables and challenges go when their match starts; a host gone from the site
loses their waiting tables; a challenge that expires or is declined, and a rematch offer
that lapses, are told to the member who made it. The worker and beat do it by themselves;
time is injected."""

from datetime import timedelta

import pytest

from accounts.events import member_group
from games import services as games_services
from games.models import Challenge, Match
from lobby import services
from lobby.selectors import members_waiting
from tests import timeshift
from tests.concurrency import at_once
from tests.conftest import needs_services, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

CHALLENGE = dict(variant="fast", clock="3+2", single_game=False, rated=False)
TABLE = dict(CHALLENGE, private=False)


def finish(match, members, now) -> None:
    """A move each, then A resigns: a finished, played match."""
    from tests.games.conftest import legal_colour, position_of

    for ply in range(2):
        games_services.move_play(
            match_id=match.pk,
            user=members[ply],
            ply=ply,
            color=legal_colour(position_of(match)),
            received_at=now,
        )
    games_services.match_resign(match_id=match.pk, user=members[0], now=now)


def notices(listener, kind, count=1):
    return [
        listener.next(lambda m: m.get("payload", {}).get("kind") == kind)["payload"]
        for _ in range(count)
    ]


def test_a_match_that_starts_withdraws_the_members_other_tables_and_challenges(
    make_member, listen, settings
):
    settings.WAITING_PER_MEMBER = 4
    ann, ben, cat, dan = (make_member(name) for name in ("ann", "ben", "cat", "dan"))
    now = timeshift.now()
    own = services.table_open(host=ann, now=now, **{**TABLE, "variant": "four"})
    services.table_join(member=dan, match_id=own.pk, now=now)  # dan waits at ann's table
    other = services.table_open(host=cat, now=now, **{**TABLE, "variant": "four"})
    services.table_join(member=ann, match_id=other.pk, now=now)  # ann sits at cat's
    challenge = services.challenge_send(challenger=ann, challenged=cat, now=now, **CHALLENGE)
    ann_hears, dan_hears = listen(member_group(ann.pk)), listen(member_group(dan.pk))
    bens = services.table_open(host=ben, now=now, **TABLE)
    started = services.table_join(member=ann, match_id=bens.pk, now=now)  # ann plays now
    assert Match.objects.get(pk=started.pk).status == Match.Status.PLAYING
    assert not Match.objects.filter(pk=own.pk).exists()
    assert not Match.objects.get(pk=other.pk).seats.filter(member=ann).exists()
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    [told] = notices(ann_hears, "withdrawn")
    assert (told["reason"], told["count"]) == ("started_elsewhere", 3)
    [guest] = notices(dan_hears, "withdrawn")
    assert guest["what"] == "table"


def test_who_has_something_waiting_is_found_in_one_read(make_member, django_assert_num_queries):
    """What a match's start reads first: of its members, who hosts or sits at a waiting
    table or sent a challenge that waits (the others cost nothing more)."""
    ann, ben, cat, dan, eve = (make_member(name) for name in ("ann", "ben", "cat", "dan", "eve"))
    now = timeshift.now()
    table = services.table_open(host=ann, now=now, **{**TABLE, "variant": "four"})
    services.table_join(member=cat, match_id=table.pk, now=now)  # cat sits, ann hosts
    services.challenge_send(challenger=ben, challenged=eve, now=now, **CHALLENGE)
    played = services.table_open(host=dan, now=now, **TABLE)
    services.table_join(member=eve, match_id=played.pk, now=now)  # dan and eve play now
    members = [ann.pk, ben.pk, cat.pk, dan.pk, eve.pk]
    with django_assert_num_queries(1):
        assert members_waiting(members) == {ann.pk, ben.pk, cat.pk}


def test_a_host_gone_from_the_site_loses_the_waiting_tables(beat, make_member, listen):
    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    gone = services.table_open(host=ann, now=now, **TABLE)
    kept = services.table_open(host=ben, now=now, **TABLE)
    games_services.socket_open(channel_name="ben-lobby", member=ben, match_id=None, now=now)
    hears = listen(member_group(ann.pk))
    timeshift.advance(119)
    games_services.socket_seen(channel_name="ben-lobby", now=timeshift.now())
    assert services.hosts_gone_withdraw(now=timeshift.now()) == 0
    timeshift.advance(2)
    assert wait_for(lambda: not Match.objects.filter(pk=gone.pk).exists())
    [told] = notices(hears, "withdrawn")
    assert told["reason"] == "host_gone"
    assert Match.objects.get(pk=kept.pk).status == Match.Status.WAITING  # ben is there


def test_a_challenge_that_expires_is_told_to_its_challenger(beat, make_member, listen):
    ann, ben = make_member("ann"), make_member("ben")
    challenge = services.challenge_send(
        challenger=ann, challenged=ben, now=timeshift.now(), **CHALLENGE
    )
    ann_hears, ben_hears = listen(member_group(ann.pk)), listen(member_group(ben.pk))
    timeshift.advance(121)
    [told] = notices(ann_hears, "expired")
    assert told == {"kind": "expired", "id": challenge.pk, "to": "ben"}
    notices(ben_hears, "challenges")  # ben's lobby drops it
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.EXPIRED


def test_a_declined_challenge_is_told_to_its_challenger(make_member, listen):
    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    challenge = services.challenge_send(challenger=ann, challenged=ben, now=now, **CHALLENGE)
    hears = listen(member_group(ann.pk))
    services.challenge_decline(challenge_id=challenge.pk, member=ben, now=now)
    [told] = notices(hears, "declined")
    assert told == {"kind": "declined", "by": "ben", "rematch": False}


def rematch_asked_of_a_bot(ann, robo, now):
    """ann's finished match against the bot account robo, and the challenge through which
    ann's rematch offer asks robo's program."""
    robo.is_bot = True
    robo.save(update_fields=["is_bot"])
    match = games_services.match_create(variant="fast", members=[ann, robo], now=now)
    finish(match, [ann, robo], now)
    games_services.rematch_offer(match_id=match.pk, user=ann, now=now)
    return match, Challenge.objects.get(rematch_of=match)


def test_a_bot_declining_a_rematch_is_told_as_a_declined_rematch(make_member, listen):
    """A rematch offered to a bot account reaches its program as a challenge: its refusal
    is told as the rematch's, not as a challenge the member never sent."""
    ann, robo = make_member("ann"), make_member("robo")
    now = timeshift.now()
    _match, asked = rematch_asked_of_a_bot(ann, robo, now)
    hears = listen(member_group(ann.pk))
    services.challenge_decline(challenge_id=asked.pk, member=robo, now=now)
    [told] = notices(hears, "declined")
    assert told == {"kind": "declined", "by": "robo", "rematch": True}


def test_a_match_started_elsewhere_ends_a_rematch_offered_to_a_bot(make_member, listen):
    """The rematch's challenge to a bot account is withdrawn with the rest when its sender's
    next match starts, and so is the offer: no "rematch expired" a minute into that match."""
    ann, ben, robo = make_member("ann"), make_member("ben"), make_member("robo")
    now = timeshift.now()
    match, asked = rematch_asked_of_a_bot(ann, robo, now)
    hears = listen(member_group(ann.pk))
    games_services.match_create(variant="fast", members=[ann, ben], now=now)
    asked.refresh_from_db()
    match.refresh_from_db()
    assert asked.status == Challenge.Status.CANCELLED
    assert match.rematch_offered_at is None and match.rematch_accepted == []
    later = now + timedelta(seconds=61)
    assert not games_services.rematch_lapse(match_id=match.pk, now=later)
    [told] = notices(hears, "withdrawn")
    assert told["reason"] == "started_elsewhere"


def test_a_match_started_elsewhere_takes_back_the_members_rematch_offer(make_member):
    """ann offers ben a rematch, then starts a match with cat: her offer no longer waits,
    so ben's press makes an offer of his own instead of seating ann in a second match. A
    rematch that starts is not taken back by its own start."""
    ann, ben, cat = make_member("ann"), make_member("ben"), make_member("cat")
    now = timeshift.now()
    match = games_services.match_create(variant="fast", members=[ann, ben], now=now)
    finish(match, [ann, ben], now)
    games_services.rematch_offer(match_id=match.pk, user=ann, now=now)
    games_services.match_create(variant="fast", members=[ann, cat], now=now)
    match.refresh_from_db()
    assert match.rematch_offered_at is None and match.rematch_accepted == []
    games_services.rematch_offer(match_id=match.pk, user=ben, now=now)
    match.refresh_from_db()
    assert match.rematch_id is None and match.rematch_accepted == [1]

    again = games_services.match_create(variant="fast", members=[ben, cat], now=now)
    finish(again, [ben, cat], now)
    for member in (ben, cat):
        games_services.rematch_offer(match_id=again.pk, user=member, now=now)
    again.refresh_from_db()
    assert again.rematch_id is not None and sorted(again.rematch_accepted) == [0, 1]


def test_a_rematch_offer_that_lapses_is_told_to_who_made_it(beat, make_member, listen):
    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    match = games_services.match_create(variant="fast", members=[ann, ben], now=now)
    finish(match, [ann, ben], now)
    games_services.rematch_offer(match_id=match.pk, user=ben, now=now)
    hears = listen(member_group(ben.pk))
    timeshift.advance(61)
    [told] = notices(hears, "rematch_lapsed")
    assert told["match"] == match.pk
    assert wait_for(lambda: Match.objects.get(pk=match.pk).rematch_offered_at is None)
    assert Match.objects.get(pk=match.pk).rematch is None


def test_nothing_lapses_before_its_time(make_member):
    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    match = games_services.match_create(variant="fast", members=[ann, ben], now=now)
    finish(match, [ann, ben], now)
    games_services.rematch_offer(match_id=match.pk, user=ben, now=now)
    assert games_services.rematches_lapse(now=now + timedelta(seconds=59)) == 0
    assert not games_services.rematch_lapse(match_id=match.pk, now=now + timedelta(seconds=59))
    assert games_services.rematches_lapse(now=now + timedelta(seconds=61)) == 1


def test_two_tables_of_one_host_joined_at_once_start_one_match(make_member):
    """ben and cat join two of ann's waiting tables at the same moment. Each join locks
    its table, and the match's start then withdraws ann's other table, which the other
    join holds: PostgreSQL ends one of the two, which runs again and is told the table is
    gone. One match starts; nobody gets a server error."""
    from games.models import Seat

    ann, ben, cat = (make_member(name) for name in ("ann", "ben", "cat"))
    now = timeshift.now()
    first, second = (services.table_open(host=ann, now=now, **TABLE) for _ in range(2))
    outcomes = at_once(
        {
            "ben": lambda: services.table_join(member=ben, match_id=first.pk, now=now),
            "cat": lambda: services.table_join(member=cat, match_id=second.pk, now=now),
        },
        held=lambda row, created: (
            created and isinstance(row, Seat) and row.member_id in (ben.pk, cat.pk)
        ),
    )
    assert sorted(outcomes.values()) == ["done", "not_found"], outcomes
    assert Match.objects.filter(seats__member=ann, status=Match.Status.PLAYING).count() == 1
    assert not Match.objects.filter(seats__member=ann, status=Match.Status.WAITING).exists()


def test_a_bot_taking_a_rematch_as_the_members_table_fills_starts_one_match(make_member):
    """robo's program accepts ann's rematch while dan joins ann's waiting table. Each holds
    its own row (the challenge, the table) and then needs the other's to withdraw it: one
    is ended by PostgreSQL, runs again, and is refused as a moment later. ann plays one
    match."""
    from games.models import Seat

    ann, dan, robo = make_member("ann"), make_member("dan"), make_member("robo")
    now = timeshift.now()
    _finished, asked = rematch_asked_of_a_bot(ann, robo, now)
    table = services.table_open(host=ann, now=now, **TABLE)
    outcomes = at_once(
        {
            "dan": lambda: services.table_join(member=dan, match_id=table.pk, now=now),
            "robo": lambda: services.challenge_accept(challenge_id=asked.pk, member=robo, now=now),
        },
        held=lambda row, created: (
            (created and isinstance(row, Seat) and row.member_id == dan.pk)
            or (isinstance(row, Challenge) and row.status == Challenge.Status.ACCEPTED)
        ),
    )
    assert sorted(outcomes.values()) in (
        ["done", "not_allowed"],  # dan's table started; the challenge was withdrawn
        ["done", "not_found"],  # the rematch started; ann's table was withdrawn
    ), outcomes
    assert Match.objects.filter(seats__member=ann, status=Match.Status.PLAYING).count() == 1


@pytest.mark.parametrize("joined", ["first", "last"])
def test_a_ban_as_a_table_of_the_members_fills_leaves_them_in_no_match(
    make_member, moderator, joined
):
    """A moderator bans ann as ben joins one of her two waiting tables. The ban's
    withdrawal waits for the table the join holds; once the join has started the match,
    the ban ends it as it ends ann's others. Where ben joined her last table, the join's
    own withdrawal of her first meets the ban's, and whichever PostgreSQL ends runs
    again: the moderator never gets a server error."""
    from accounts.services import member_ban
    from games.models import Seat

    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    tables = [services.table_open(host=ann, now=now, **TABLE) for _ in range(2)]
    table = tables[0] if joined == "first" else tables[-1]
    outcomes = at_once(
        {
            "ben": lambda: services.table_join(member=ben, match_id=table.pk, now=now),
            "ban": lambda: member_ban(member=ann, by=moderator, reason="spam", now=now),
        },
        held=lambda row, created: (
            (created and isinstance(row, Seat) and row.member_id == ben.pk)
            or (created and type(row).__name__ == "AuditEntry")
        ),
    )
    assert outcomes["ban"] == "done", outcomes
    assert outcomes["ben"] in ("done", "not_found", "not_allowed"), outcomes
    assert not Match.objects.filter(
        seats__member=ann, status__in=[Match.Status.WAITING, Match.Status.PLAYING]
    ).exists()


def test_a_block_as_the_rematch_is_accepted_leaves_one_answer(make_member):
    """ann blocks ben at the moment ben accepts her rematch, while her challenge to him
    waits. The block holds both members and the challenge and then needs the finished
    match; the rematch holds the finished match and then needs the challenge to withdraw
    it: PostgreSQL ends one, which runs again. Either the rematch started first (the block
    then finds nothing open), or the block came first (no rematch, ben refused without a
    word of the block); nobody gets a server error."""
    from accounts.models import Block
    from accounts.services import block

    ann, ben = make_member("ann"), make_member("ben")
    now = timeshift.now()
    finished = games_services.match_create(variant="fast", members=[ann, ben], now=now)
    finish(finished, [ann, ben], now)
    games_services.rematch_offer(match_id=finished.pk, user=ann, now=now)
    challenge = services.challenge_send(challenger=ann, challenged=ben, now=now, **CHALLENGE)
    outcomes = at_once(
        {
            "block": lambda: block(member=ann, username="ben"),
            "rematch": lambda: games_services.rematch_offer(
                match_id=finished.pk, user=ben, now=now
            ),
        },
        held=lambda row, created: (
            (created and isinstance(row, Block))
            or (created and isinstance(row, Match) and row.pk != finished.pk)
        ),
    )
    finished.refresh_from_db()
    assert outcomes["block"] == "done", outcomes
    assert Block.objects.filter(blocker=ann, blocked=ben).exists()
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    if outcomes["rematch"] == "done":
        assert finished.rematch.status == Match.Status.PLAYING
    else:
        assert outcomes["rematch"] == "not_allowed", outcomes
        assert finished.rematch is None and finished.rematch_offered_at is None
        assert not Match.objects.filter(status=Match.Status.PLAYING).exists()
