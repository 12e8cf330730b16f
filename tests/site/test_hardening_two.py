"""Hardening II (SPEC §9): ids that are not ASCII digits answer 404, the client's address
from trusted proxies only, login limits per name and address, look-alike and mixed-script
names refused, verified e-mail addresses unique whatever their case, the local mailbox for
loopback only, lobby actions limited per minute, and one challenge toast per pair."""

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from asgiref.sync import async_to_sync
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.events import member_group
from accounts.models import User
from accounts.names import look, looks, mixed_scripts, skeleton
from config.edge import TrustedProxies, client_of
from games import events
from games.errors import TableError
from games.models import Challenge, Match
from lobby import services
from tests.conftest import needs_services
from tests.lobby.test_tables import TABLE, Member
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

# A moment in the middle of a minute, so a run of actions cannot cross into the next one.
FROZEN = T0 + timedelta(seconds=30)


def frozen_clock():
    """``GAME_TIME_SOURCE`` for the tests that count actions within a minute."""
    return FROZEN


# --- 1. ids ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/%C2%B2/",  # ² is a digit to str.isdigit, not to int()
        "/api/matches/" + "9" * 5000 + "/",  # beyond int()'s digits and any database id
        "/api/matches/" + "9" * 30 + "/",
        "/api/matches/" + "9" * 18 + "/",  # the largest id that fits: simply no such match
    ],
)
def test_api_ids_that_are_not_ascii_digits_answer_404_in_json(path):
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/match/%C2%B2/"),
        ("get", "/match/" + "9" * 30 + "/"),
        ("get", "/match/" + "9" * 5000 + "/"),
        ("get", "/match/" + "9" * 30 + "/record.txt"),
        ("get", "/match/" + "9" * 18 + "/"),
        ("post", "/tables/" + "9" * 30 + "/join/"),
        ("post", "/challenges/" + "9" * 30 + "/accept/"),
    ],
)
def test_page_ids_that_do_not_fit_answer_404(make_member, method, path):
    client = Client(raise_request_exception=False)
    client.force_login(make_member("ann"))
    assert getattr(client, method)(path).status_code == 404


# --- 2. the client's address -------------------------------------------------------------


def scope(peer: str, forwarded: str | None = None, proto: str | None = None) -> dict:
    headers = [(b"host", b"filler.example")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    if proto is not None:
        headers.append((b"x-forwarded-proto", proto.encode()))
    return {"type": "http", "scheme": "http", "client": (peer, 50000), "headers": headers}


def test_the_client_is_told_by_trusted_proxies_only(settings):
    settings.TRUSTED_PROXIES = []
    # Nobody is trusted: a forged header changes nothing, whoever connects.
    assert client_of(scope("203.0.113.9", "6.6.6.6", "https")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "6.6.6.6", "https")) == ("10.0.0.5", None)

    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    # The rightmost address not itself a trusted proxy: what our proxy appended, not what
    # the client wrote before it.
    assert client_of(scope("10.0.0.5", "6.6.6.6, 203.0.113.9")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "203.0.113.9, 10.0.0.7")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "203.0.113.9", "https")) == ("203.0.113.9", "https")
    assert client_of(scope("10.0.0.5")) == ("10.0.0.5", None)
    # A peer outside the trusted networks is the client, and its scheme is not believed.
    assert client_of(scope("203.0.113.50", "6.6.6.6", "https")) == ("203.0.113.50", None)

    # The middleware hands Django what client_of found: REMOTE_ADDR and the scheme.
    seen = []

    async def app(scope, receive, send):
        seen.append(scope)

    proxied = scope("10.0.0.5", "6.6.6.6, 203.0.113.9", "https")
    async_to_sync(TrustedProxies(app))(proxied, None, None)
    assert seen[0]["client"] == ("203.0.113.9", 50000) and seen[0]["scheme"] == "https"


def test_a_proxy_on_the_unix_socket_is_trusted_only_when_named(settings):
    """nginx reaches Daphne over a unix socket (docs/deploy.md): no peer address."""
    over_unix = scope("10.0.0.5", "203.0.113.9", "https") | {"client": None}
    settings.TRUSTED_PROXIES = []
    assert client_of(over_unix) == (None, None)
    settings.TRUSTED_PROXIES = ["unix"]
    assert client_of(over_unix) == ("203.0.113.9", "https")
    # What is not an address is not taken for the client (it would reach inet columns).
    garbled = scope("10.0.0.5", "203.0.113.9, unknown") | {"client": None}
    assert client_of(garbled) == (None, None)
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_of(scope("10.0.0.5", "203.0.113.9, unknown")) == ("10.0.0.5", None)


# --- 3. login limits ---------------------------------------------------------------------


def log_in(address: str, login: str, password: str) -> tuple[Client, object]:
    client = Client(REMOTE_ADDR=address)
    return client, client.post(reverse("account_login"), {"login": login, "password": password})


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_failures_from_one_address_do_not_lock_the_member_out_elsewhere(make_member, password):
    make_member("alice")
    for _ in range(5):  # under allauth's 10 a minute per address
        client, _response = log_in("198.51.100.1", "alice", "wrong")
        assert not logged_in(client)
    client, response = log_in("198.51.100.1", "alice", password)
    assert not logged_in(client)
    assert "Too many failed login attempts" in response.content.decode()
    # The member, from another address, with the right password.
    client, response = log_in("203.0.113.9", "alice", password)
    assert response.status_code == 302
    assert logged_in(client)


def test_failures_for_one_name_from_many_addresses_meet_a_higher_ceiling(make_member, password):
    make_member("alice")
    make_member("bob")
    for host in range(10):  # 5 each: no single address reaches a limit of its own
        for _ in range(5):
            log_in(f"198.51.100.{host + 1}", "ALICE", "wrong")  # the name in any case
    client, response = log_in("203.0.113.9", "alice", password)
    assert not logged_in(client)
    assert "Too many failed login attempts" in response.content.decode()
    client, _response = log_in("203.0.113.9", "bob", password)  # other names are not
    assert logged_in(client)


# --- 4. names ----------------------------------------------------------------------------


def sign_up(client: Client, username: str, email: str, password: str):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


LOOKS_LIKE_A_MEMBER = "This name looks too much like a member's name. Please choose another."
MIXES = "A name may not mix alphabets (Latin and Cyrillic letters, say)."
RESERVED = "This name is reserved. Please choose another."
COMPATIBILITY = "Write the name with ordinary letters and digits."


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("ALİCE", LOOKS_LIKE_A_MEMBER),  # U+0130, Latin capital I with a dot
        ("alicé", LOOKS_LIKE_A_MEMBER),
        ("aIice", LOOKS_LIKE_A_MEMBER),  # a capital I for the l
        ("AIice", LOOKS_LIKE_A_MEMBER),
        ("\u0430lice", MIXES),  # a Cyrillic а
        ("ａｄｍｉｎ", COMPATIBILITY),  # full width
        ("\u0430dmin", MIXES),  # a Cyrillic а
        ("ädmin", RESERVED),
    ],
)
def test_look_alike_and_mixed_script_names_are_refused(client, make_member, password, name, error):
    make_member("alice")
    response = sign_up(client, name, "newcomer@example.com", password)
    assert response.status_code == 200
    assert error in response.context["form"].errors["username"]
    assert not User.objects.filter(email="newcomer@example.com").exists()
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["мария", "μαρία"])
def test_names_written_in_one_other_script_are_welcome(client, make_member, password, name):
    make_member("alice")
    response = sign_up(client, name, "newcomer@example.com", password)
    assert response.status_code == 302
    assert User.objects.get(email="newcomer@example.com").username == name


def test_skeletons_fold_case_width_marks_and_look_alikes():
    assert skeleton("ALİCE") == skeleton("alice") == skeleton("\u0430lice") == skeleton("alicé")
    assert skeleton("ａｄｍｉｎ") == skeleton("admin") == skeleton("\u0430dmin")
    assert skeleton("alice") != skeleton("alina")
    # Letter by letter before case: a capital I is an l (Unicode's confusables).
    assert look("aIice") == look("alice") == look("a1ice") != look("alina")
    assert looks("AIice") & looks("alice")
    assert mixed_scripts("\u0430lice") and mixed_scripts("mαria")
    assert not any(mixed_scripts(name) for name in ("alice", "мария", "μαρία", "ann_42"))
    # Kept on the member row, and refreshed with the name.
    member = User.objects.create_user(username="Zoë", email="zoe@example.com")
    assert member.name_skeleton == skeleton("zoe")
    assert member.name_look == look("Zoë")


# --- 5. e-mail addresses -----------------------------------------------------------------


def test_another_members_address_in_another_case_makes_no_second_account(
    client, make_member, password, mailoutbox
):
    make_member("alice")
    fresh = sign_up(Client(), "newcomer", "newcomer@example.com", password)
    mailoutbox.clear()
    response = sign_up(client, "alicia", "ALICE@Example.com", password)
    # Answered as any sign-up is (nobody learns the address is taken)...
    assert response.status_code == 302 and response["Location"] == fresh["Location"]
    # ... but no account, and the owner of the address is the one told.
    assert not User.objects.filter(username="alicia").exists()
    assert EmailAddress.objects.filter(email__iexact="alice@example.com").count() == 1
    [told] = mailoutbox
    assert told.to == ["alice@example.com"]
    assert "already exists" in told.body and "confirm-email" not in told.body


def test_a_verified_address_belongs_to_one_member_whatever_its_case(make_member):
    make_member("alice")
    bob = make_member("bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        EmailAddress.objects.create(user=bob, email="ALICE@Example.com", verified=True)
    # The index covers verified addresses only: claiming one (not yet proven) is allowed.
    EmailAddress.objects.create(user=bob, email="ALICE@Example.com", verified=False)
    assert EmailAddress.objects.filter(email__iexact="alice@example.com").count() == 2


# --- 6. the local mailbox ----------------------------------------------------------------


def test_the_local_mailbox_answers_this_machine_only_and_only_when_on(settings, tmp_path):
    settings.LOCAL_MAILBOX = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    (tmp_path / "20261129-120000-1.log").write_text(
        "Subject: Confirm\n\nhttp://testserver/accounts/confirm-email/SECRETKEY/\n"
    )
    for address in ("127.0.0.1", "::1"):
        response = Client(REMOTE_ADDR=address).get("/dev/mail/")
        assert response.status_code == 200
        assert "confirm-email/SECRETKEY/" in response.content.decode()
    response = Client(REMOTE_ADDR="203.0.113.9").get("/dev/mail/")
    assert response.status_code == 404
    assert "SECRETKEY" not in response.content.decode()
    settings.LOCAL_MAILBOX = False
    assert Client(REMOTE_ADDR="127.0.0.1").get("/dev/mail/").status_code == 404


# --- 7. lobby actions per minute ---------------------------------------------------------


def test_the_eleventh_lobby_action_in_a_minute_is_refused(make_member, settings):
    settings.GAME_TIME_SOURCE = f"{__name__}.frozen_clock"
    ann, ben = Member(make_member("ann")), make_member("ben")
    for _ in range(4):  # 8 actions: tables opened and cancelled
        ann.post("/tables/", TABLE)
        table = Match.objects.get(created_by=ann.user)
        ann.post(f"/tables/{table.pk}/cancel/")
    ann.post("/@/ben/challenge/", TABLE)  # 9 and 10: a challenge, cancelled
    challenge = Challenge.objects.get()
    ann.post(f"/challenges/{challenge.pk}/cancel/")
    assert Challenge.objects.get().status == "cancelled"

    slow_down = "Slow down: at most 10 tables and challenges a minute."
    response = ann.post("/tables/", TABLE)
    assert slow_down in ann.messages(response)
    assert not Match.objects.exists()
    response = ann.post("/@/ben/challenge/", TABLE)
    assert slow_down in ann.messages(response)
    assert Challenge.objects.count() == 1

    table_settings = dict(variant="fast", clock="3+2", single_game=False, rated=False)
    with pytest.raises(TableError) as refused:
        services.table_open(host=ann.user, private=False, now=FROZEN, **table_settings)
    assert refused.value.code == "rate_limited"
    # A new minute, a new allowance.
    next_minute = T0 + timedelta(minutes=1)
    services.table_open(host=ann.user, private=False, now=next_minute, **table_settings)
    services.challenge_send(challenger=ann.user, challenged=ben, now=next_minute, **table_settings)
    assert Match.objects.filter(created_by=ann.user).count() == 1
    assert Challenge.objects.filter(status="pending").count() == 1


def test_the_lobby_limit_is_told_in_the_members_language(make_member, settings):
    settings.GAME_TIME_SOURCE = f"{__name__}.frozen_clock"
    settings.LOBBY_ACTIONS_PER_MINUTE = 2
    ana = Member(make_member("ana"), language="es")
    ana.post("/tables/", TABLE)
    ana.post(f"/tables/{Match.objects.get().pk}/cancel/")
    response = ana.post("/tables/", TABLE)
    assert "Más despacio: como mucho 2 mesas y desafíos por minuto." in ana.messages(response)
    assert not Match.objects.exists()


# --- 8. one challenge toast per pair -----------------------------------------------------


@needs_services
def test_repeated_challenges_to_a_member_make_one_toast(
    make_member, listen, django_capture_on_commit_callbacks
):
    ann, ben = make_member("ann"), make_member("ben")
    hears = listen(member_group(ben.pk))
    table = dict(variant="fast", clock="3+2", single_game=False, rated=False)
    sent = []
    with django_capture_on_commit_callbacks(execute=True):
        for round_ in range(3):
            now = T0 + timedelta(seconds=round_)
            sent.append(services.challenge_send(challenger=ann, challenged=ben, now=now, **table))
            if round_ < 2:
                services.challenge_cancel(challenge_id=sent[-1].pk, member=ann, now=now)
    events.member_notify(ben.pk, {"kind": "end of the test"})  # after every notice above
    notices = []
    while (payload := hears.next()["payload"])["kind"] != "end of the test":
        notices.append(payload)
    # Every challenge and cancel refreshes ben's lobby; one toast only, the first one.
    assert len(notices) == 5
    toasts = [notice for notice in notices if notice["kind"] == "challenge"]
    assert [(toast["id"], toast["from"]) for toast in toasts] == [(sent[0].pk, "ann")]
    assert all(notice == {"kind": "challenges"} for notice in notices if notice not in toasts)
