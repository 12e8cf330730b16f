"""What a block keeps apart (SPEC §14), silently: the blocked member cannot challenge
the blocker or join their waiting tables, and is refused exactly as anyone else would be;
Play now and arenas never pair the two, either way; the blocker does not see the blocked
member's chat. And what members' pages show of follows: counts to everybody, the lists
to the member only."""

import re

import pytest

from accounts import services as people
from accounts.events import member_group
from accounts.models import Follow
from games import events, selectors, timing
from games import services as table_services
from games.errors import TableError
from games.models import Challenge, ChatMessage, Match
from lobby import services
from tests.lobby.test_arena_play import arena, arena_matches, enter  # noqa: F401 (fixture)
from tests.lobby.test_tables import TABLE, Member, open_table
from tests.moves import play_opening, played
from tests.timeshift import T0, advance

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(make_member):
    return {name: Member(make_member(name)) for name in ("ann", "ben", "cat", "dan")}


@pytest.fixture
def ben_blocks_ann(members):
    people.block(member=members["ben"].user, username="ann")
    return members


# --- challenges --------------------------------------------------------------------------


def challenge_refusal(member: Member, name: str) -> list[str]:
    return member.messages(member.post(f"/@/{name}/challenge/", TABLE))


def test_a_blocked_member_is_refused_a_challenge_as_if_challenges_were_off(ben_blocks_ann):
    ann, ben, cat = (ben_blocks_ann[n] for n in ("ann", "ben", "cat"))
    blocked_refusal = challenge_refusal(ann, "ben")
    blocked_page = ann.client.get("/@/ben/").content.decode()
    assert not Challenge.objects.exists()
    cat.post("/@/ben/challenge/", TABLE)  # anyone else still may
    assert Challenge.objects.get().challenger == cat.user

    # What ann sees is what she would see if ben had turned challenges off.
    people.unblock(member=ben.user, username="ann")
    ben.user.accepts_challenges = False
    ben.user.save()
    assert blocked_refusal == challenge_refusal(ann, "ben")
    assert blocked_refusal == ["This member does not accept challenges."]
    assert "This member does not accept challenges." in blocked_page
    assert 'action="/@/ben/challenge/"' not in blocked_page
    assert "You have blocked" not in blocked_page and "/@/ben/unblock/" not in blocked_page


def test_the_blocker_is_told_they_blocked_the_member_they_challenge(ben_blocks_ann):
    ben = ben_blocks_ann["ben"]
    assert challenge_refusal(ben, "ann") == ["You have blocked this member."]
    page = ben.client.get("/@/ann/").content.decode()
    assert "You have blocked this member." in page
    assert 'action="/@/ann/challenge/"' not in page and 'action="/@/ann/unblock/"' in page
    assert not Challenge.objects.exists()


def test_a_block_ends_the_challenges_waiting_between_the_two(
    members, django_capture_on_commit_callbacks
):
    """Ann challenged ben, and ben ann, before ben blocked her: neither challenge can
    start a match now. Ann's is declined as if ben had declined it (the block stays
    silent), ben's is cancelled; cat's challenge to ben still waits."""
    ann, ben, cat = (members[n] for n in ("ann", "ben", "cat"))
    ann.post("/@/ben/challenge/", TABLE)
    ben.post("/@/ann/challenge/", TABLE)
    cat.post("/@/ben/challenge/", TABLE)
    anns, bens, cats = Challenge.objects.order_by("pk")
    with events.capture() as box, django_capture_on_commit_callbacks(execute=True):
        people.block(member=ben.user, username="ann")
    assert [Challenge.objects.get(pk=c.pk).status for c in (anns, bens, cats)] == [
        Challenge.Status.DECLINED,
        Challenge.Status.CANCELLED,
        Challenge.Status.PENDING,
    ]
    told = [
        (group, message["payload"]) for group, message in box if message["type"] == "member.notify"
    ]
    assert (member_group(ann.user.pk), {"kind": "declined", "by": "ben", "rematch": False}) in told
    assert (member_group(ann.user.pk), {"kind": "challenges"}) in told  # ben's left her list
    assert (member_group(ben.user.pk), {"kind": "challenges"}) in told  # and his other pages'
    response = ben.post(f"/challenges/{anns.pk}/accept/")
    assert any("no longer open" in m for m in ben.messages(response))
    response = ann.post(f"/challenges/{bens.pk}/accept/")
    assert any("no longer open" in m for m in ann.messages(response))
    assert not Match.objects.filter(status="playing").exists()
    ben.post(f"/challenges/{cats.pk}/accept/")
    assert Challenge.objects.get(pk=cats.pk).status == Challenge.Status.ACCEPTED


def finished_between(members, *names) -> Match:
    """A finished Fast match of these members (the first resigns it after the opening)."""
    return played([members[name].user for name in names], members[names[0]].user)


def test_a_block_ends_the_rematch_offer_and_no_rematch_starts(members):
    """Ann offered ben a rematch, then ben blocked her: the offer ends at once, ben is
    told he blocked her, and ann is refused a new offer without a word of the block."""
    ann, ben = members["ann"], members["ben"]
    match = finished_between(members, "ann", "ben")
    table_services.rematch_offer(match_id=match.pk, user=ann.user, now=timing.now())
    version = Match.objects.get(pk=match.pk).version
    people.block(member=ben.user, username="ann")
    match.refresh_from_db()
    assert (match.rematch_offered_at, match.rematch_accepted) == (None, [])
    assert match.version > version  # the table no longer shows the offer
    for member, refusal in (
        (ben, "You have blocked a member at this table."),
        (ann, "No rematch is possible at this table."),
    ):
        with pytest.raises(TableError) as refused:
            table_services.rematch_offer(match_id=match.pk, user=member.user, now=timing.now())
        assert (refused.value.code, str(refused.value.message)) == ("not_allowed", refusal)
    match.refresh_from_db()
    assert match.rematch is None and match.rematch_offered_at is None
    assert Match.objects.count() == 1


def test_a_block_between_two_players_of_four_stops_their_rematch(members):
    """At a table of four, dan blocked cat: nobody's offer brings the four back."""
    four = [members[n].user for n in ("ann", "ben", "cat", "dan")]
    match = table_services.match_create(variant="four", members=four, now=T0)
    play_opening(match, four, now=T0)
    for member in four[:3]:  # each leaves; the last one left wins
        table_services.match_resign(match_id=match.pk, user=member, now=T0)
    assert Match.objects.get(pk=match.pk).status == "finished"
    people.block(member=members["dan"].user, username="cat")
    with pytest.raises(TableError) as refused:
        table_services.rematch_offer(match_id=match.pk, user=members["ann"].user, now=T0)
    assert str(refused.value.message) == "No rematch is possible at this table."
    assert Match.objects.get(pk=match.pk).rematch_offered_at is None


def test_a_member_others_blocked_nobody_plays_rematches_as_before(members):
    """No block at the table: the offer and its acceptance start the rematch."""
    ann, ben = members["ann"], members["ben"]
    people.block(member=members["cat"].user, username="ann")  # cat is not at the table
    match = finished_between(members, "ann", "ben")
    table_services.rematch_offer(match_id=match.pk, user=ann.user, now=timing.now())
    table_services.rematch_offer(match_id=match.pk, user=ben.user, now=timing.now())
    match.refresh_from_db()
    assert match.rematch is not None and match.rematch.status == "playing"


# --- waiting tables ----------------------------------------------------------------------


def test_a_blocked_member_finds_the_blockers_table_full(ben_blocks_ann):
    ann, ben, cat = (ben_blocks_ann[n] for n in ("ann", "ben", "cat"))
    table, _ = open_table(ben)
    response = ann.post(f"/tables/{table.pk}/join/")
    assert ann.messages(response) == ["This table is full."]
    table.refresh_from_db()
    assert table.status == "waiting" and table.seats.count() == 1
    cat.post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "playing"


def test_a_blocker_seated_at_a_table_of_four_keeps_the_blocked_member_out(ben_blocks_ann):
    ann, ben, cat = (ben_blocks_ann[n] for n in ("ann", "ben", "cat"))
    table, _ = open_table(cat, variant="four", clock="")
    ben.post(f"/tables/{table.pk}/join/")
    response = ann.post(f"/tables/{table.pk}/join/")
    assert ann.messages(response) == ["This table is full."]
    assert sorted(table.seats.values_list("member__username", flat=True)) == ["ben", "cat"]


def test_the_blocker_does_not_join_the_blocked_members_table(ben_blocks_ann):
    ann, ben = ben_blocks_ann["ann"], ben_blocks_ann["ben"]
    table, _ = open_table(ann)
    response = ben.post(f"/tables/{table.pk}/join/")
    assert ben.messages(response) == ["You have blocked a member at this table."]
    assert table.seats.count() == 1


def listed(page: str) -> set[int]:
    """The waiting tables a lobby page (or its lists, as the page fetches them again when
    the site's socket says the lobby changed) lists."""
    return {int(pk) for pk in re.findall(r'<tr data-table="(\d+)"', page)}


def test_a_blocked_members_tables_are_not_listed_for_the_blocker_either_way(ben_blocks_ann, client):
    """Issue 43.4: a table one could only be refused at is not listed. Ben blocked ann:
    neither sees a waiting table the other sits at (ben's own, or cat's table of four
    that ben joined); everybody else sees them all."""
    ann, ben, cat, dan = (ben_blocks_ann[n] for n in ("ann", "ben", "cat", "dan"))
    bens, _ = open_table(ben)
    anns, _ = open_table(ann)
    cats, _ = open_table(cat, variant="four", clock="")
    ben.post(f"/tables/{cats.pk}/join/")
    dans, _ = open_table(dan)
    every = {bens.pk, anns.pk, cats.pk, dans.pk}
    for path in ("/", "/lobby/lists/"):
        assert listed(ann.client.get(path).content.decode()) == {anns.pk, dans.pk}
        assert listed(ben.client.get(path).content.decode()) == {bens.pk, cats.pk, dans.pk}
        assert listed(dan.client.get(path).content.decode()) == every
        assert listed(client.get(path).content.decode()) == every  # a visitor
    # The public API is the same list for everybody, as SPEC §8 has it.
    api = {row["id"] for row in ann.client.get("/api/tables/").json()["tables"]}
    assert api == every == {row["id"] for row in client.get("/api/tables/").json()["tables"]}
    # Unblocked, each sees the other's tables again.
    people.unblock(member=ben.user, username="ann")
    assert listed(ann.client.get("/lobby/lists/").content.decode()) == every
    assert listed(ben.client.get("/lobby/lists/").content.decode()) == every
    # A block between members already seated together leaves each their own table.
    people.block(member=cat.user, username="ben")
    assert cats.pk in listed(cat.client.get("/lobby/lists/").content.decode())
    assert cats.pk in listed(ben.client.get("/lobby/lists/").content.decode())


# --- Play now ------------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["ann", "ben"])
def test_play_now_never_pairs_the_two_either_way(ben_blocks_ann, first):
    second = "ben" if first == "ann" else "ann"
    waiting = ben_blocks_ann[first]
    waiting.post("/play/fast/", {"clock": "3+2"})
    advance(1)
    response = ben_blocks_ann[second].post("/play/fast/", {"clock": "3+2"})
    assert ben_blocks_ann[second].messages(response) == []  # nothing said: a table opened
    tables = Match.objects.filter(status="waiting").order_by("created_at")
    assert [t.created_by.username for t in tables] == [first, second]
    assert all(t.seats.count() == 1 for t in tables)
    advance(1)
    ben_blocks_ann["cat"].post("/play/fast/", {"clock": "3+2"})  # anyone else: the oldest
    assert Match.objects.get(status="playing").created_by.username == first


# --- arenas -------------------------------------------------------------------------------


def test_an_arena_never_pairs_the_two_and_pairs_everybody_else(arena, make_member):  # noqa: F811
    ann, ben, cat, dan = (make_member(n) for n in ("ann", "ben", "cat", "dan"))
    people.block(member=dan, username="cat")  # neighbours in the order: ann-ben, cat-dan
    enter(arena, ann, ben, cat, dan)
    assert services.arenas_pair(now=timing.now()) == 2
    pairs = [{s.member_id for s in m.seats.all()} for m in arena_matches(arena)]
    assert {cat.pk, dan.pk} not in pairs
    assert sorted(member for pair in pairs for member in pair) == sorted(
        [ann.pk, ben.pk, cat.pk, dan.pk]
    )


def test_in_an_arena_a_member_whose_only_partner_is_blocked_waits(arena, make_member):  # noqa: F811
    ann, ben = make_member("ann"), make_member("ben")
    people.block(member=ann, username="ben")  # the other way round
    enter(arena, ann, ben)
    assert services.arenas_pair(now=timing.now()) == 0
    assert arena_matches(arena) == []


# --- chat ---------------------------------------------------------------------------------


def test_the_blockers_chat_history_leaves_out_the_blocked_members_lines(make_member):
    ann, ben, cat = (make_member(n) for n in ("ann", "ben", "cat"))
    match = table_services.match_create(variant="fast", members=[ann, ben], now=T0)
    for author, text in ((ann, "hello"), (cat, "good luck"), (ann, "you are slow")):
        table_services.chat_post(match_id=match.pk, user=author, text=text, now=T0)
    gone = ChatMessage.objects.create(match=match, author=None, text="deleted's", created_at=T0)
    people.block(member=ben, username="ann")

    def history(member) -> list[str]:
        lines = selectors.chat_history(match.pk, player=True, viewer=member.pk)
        return [line["text"] for line in lines]

    assert history(ben) == ["good luck", gone.text]
    assert history(cat) == ["hello", "good luck", "you are slow", gone.text]
    assert history(ann) == history(cat)  # blocking hides the blocked's lines, not the blocker's


def test_a_chat_line_names_its_author_for_the_sockets_to_hide(
    make_member, django_capture_on_commit_callbacks
):
    from games import events

    ann, ben = make_member("ann"), make_member("ben")
    match = table_services.match_create(variant="fast", members=[ann, ben], now=T0)
    sent = []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table_services.chat_post(match_id=match.pk, user=ann, text="hi", now=T0)
    for callback in callbacks:
        if getattr(callback, "func", None) is events.chat_posted:
            with events.capture() as box:
                callback()
            sent += [message for _, message in box]
    (message,) = sent
    assert message["type"] == "table.chat" and message["author"] == ann.pk
    assert "author" not in message["message"]  # what the browser gets is unchanged


# --- members' pages: counts for everybody, lists for the member only ------------------------


def test_a_stranger_sees_counts_only_and_the_member_their_lists(members, client):
    ann, ben, cat = (members[n] for n in ("ann", "ben", "cat"))
    ann.post("/@/ben/follow/")
    cat.post("/@/ben/follow/")
    ben.post("/@/cat/follow/")

    stranger = client.get("/@/ben/").content.decode()
    assert '<dd id="followers-count">2</dd>' in stranger
    assert '<dd id="following-count">1</dd>' in stranger
    assert 'id="people"' not in stranger and "/follow/" not in stranger

    to_ann = ann.client.get("/@/ben/").content.decode()
    assert '<dd id="followers-count">2</dd>' in to_ann and 'id="people"' not in to_ann
    assert 'action="/@/ben/unfollow/"' in to_ann and 'action="/@/ben/block/"' in to_ann
    to_dan = members["dan"].client.get("/@/ben/").content.decode()
    assert 'action="/@/ben/follow/"' in to_dan and 'action="/@/ben/unfollow/"' not in to_dan

    own = ben.client.get("/@/ben/").content.decode()
    assert 'id="people"' in own and "/@/ben/follow/" not in own
    followed, followers = own.split('class="followed"')[1].split('class="followers"')
    assert 'href="/@/cat/"' in followed and 'href="/@/ann/"' not in followed
    assert 'href="/@/ann/"' in followers and 'href="/@/cat/"' in followers
    assert 'action="/@/cat/unfollow/"' in followed


def test_the_blockers_page_of_the_blocked_member_offers_unblock_only(ben_blocks_ann):
    ben = ben_blocks_ann["ben"]
    page = ben.client.get("/@/ann/").content.decode()
    assert 'action="/@/ann/unblock/"' in page
    assert 'action="/@/ann/follow/"' not in page and 'action="/@/ann/block/"' not in page
    response = ben.post("/@/ann/follow/")
    assert ben.messages(response) == ["You have blocked this member."]


def test_a_blocked_member_who_follows_the_blocker_is_refused_and_nothing_changes(
    ben_blocks_ann,
):
    """Issue 43.4: once the follow answered "You follow ben." while nothing happened."""
    ann = ben_blocks_ann["ann"]
    response = ann.post("/@/ben/follow/")
    assert ann.messages(response) == ["You cannot follow ben."]
    assert '<dd id="followers-count">0</dd>' in response.content.decode()
    assert not Follow.objects.exists()
    answer = ann.client.post(
        "/@/ben/follow/", HTTP_ACCEPT="application/json", HTTP_X_CSRFTOKEN=ann.token
    )
    assert answer.status_code == 403
    assert answer.json() == {"error": "not_allowed", "message": "You cannot follow ben."}
    assert not Follow.objects.exists()
