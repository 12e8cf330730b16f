"""Personal API tokens (SPEC §15): kept as digests, shown once, revoked; the one check
every API call makes (401 for no token, an unknown or revoked one, a banned or inactive
member; 403 for a missing scope); the management commands."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts import services
from accounts.errors import Refusal
from accounts.models import ApiToken
from accounts.services.tokens import bearer

pytestmark = pytest.mark.django_db


def make_token(member, scopes=("bot:play",), description="my bot"):
    return services.token_create(
        member=member, description=description, scopes=list(scopes), now=timezone.now()
    )


def test_a_token_is_kept_as_its_digest_with_its_first_characters(make_member):
    alice = make_member("alice")
    token, raw = make_token(alice, ["challenge:write", "bot:play"])
    assert raw.startswith("vog_") and len(raw) >= 40
    row = ApiToken.objects.get(pk=token.pk)
    assert row.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert row.prefix == raw[:10]
    assert raw not in {row.prefix, row.digest, row.description}
    assert row.scopes == ["bot:play", "challenge:write"]  # a fixed order


@pytest.mark.parametrize(
    ("description", "scopes"),
    [("", ["bot:play"]), ("x" * 101, ["bot:play"]), ("ok", []), ("ok", ["admin"])],
)
def test_a_token_needs_a_description_and_known_scopes(make_member, description, scopes):
    alice = make_member("alice")
    with pytest.raises(Refusal) as refused:
        make_token(alice, scopes, description)
    assert refused.value.code == "invalid"
    assert not ApiToken.objects.exists()


def test_a_member_holds_a_limited_number_of_tokens(make_member, settings):
    settings.API_TOKENS_PER_MEMBER = 2
    alice = make_member("alice")
    first, _raw = make_token(alice)
    make_token(alice)
    with pytest.raises(Refusal) as refused:
        make_token(alice)
    assert refused.value.code == "limit"
    services.token_revoke(token=first, member=alice, now=timezone.now())
    make_token(alice)  # a revoked token no longer counts


def test_the_check_of_every_call(make_member):
    alice = make_member("alice")
    token, raw = make_token(alice, ["bot:play"])
    now = timezone.now()
    assert services.token_authenticate(raw=raw, scope="bot:play", now=now).member == alice
    for raw_sent, scope, status, code in [
        (None, "bot:play", 401, "unauthorized"),
        ("", "bot:play", 401, "unauthorized"),
        ("vog_" + "x" * 40, "bot:play", 401, "unauthorized"),
        (raw + "x", "bot:play", 401, "unauthorized"),
        (raw, "challenge:write", 403, "missing_scope"),
    ]:
        with pytest.raises(services.TokenRefused) as refused:
            services.token_authenticate(raw=raw_sent, scope=scope, now=now)
        assert (refused.value.status, refused.value.code) == (status, code)
    # Its last use is kept (at most once a minute).
    token.refresh_from_db()
    assert token.last_used_at == now


def test_a_banned_or_inactive_members_token_and_a_revoked_one_answer_401(make_member, moderator):
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    tokens = {m.username: make_token(m)[1] for m in (alice, bob, carol)}
    services.member_ban(member=alice, by=moderator, reason="abuse")
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    carols = ApiToken.objects.get(member=carol)
    services.token_revoke(token=carols, member=carol, now=timezone.now())
    for name in ("alice", "bob", "carol"):
        with pytest.raises(services.TokenRefused) as refused:
            services.token_authenticate(raw=tokens[name], scope="bot:play", now=timezone.now())
        assert refused.value.status == 401
        assert not services.token_still_valid(
            token_id=ApiToken.objects.get(member__username=name).pk, now=timezone.now()
        )


def test_a_member_revokes_only_their_own_tokens(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    token, _raw = make_token(alice)
    with pytest.raises(Refusal) as refused:
        services.token_revoke(token=token, member=bob, now=timezone.now())
    assert refused.value.code == "not_found"
    token.refresh_from_db()
    assert token.active


def test_the_bearer_header():
    assert bearer("Bearer vog_abc") == "vog_abc"
    assert bearer("bearer   vog_abc ") == "vog_abc"
    assert bearer("Basic vog_abc") is None
    assert bearer("Bearer") is None
    assert bearer("Bearer " + "x" * 500) is None
    assert bearer(None) is None


def test_the_commands_make_and_revoke_a_token(make_member):
    alice = make_member("alice")
    out = StringIO()
    call_command("token_create", "alice", "--scopes", "bot:play,challenge:write", stdout=out)
    raw = out.getvalue().split()[-1]
    token = services.token_authenticate(raw=raw, scope="challenge:write", now=timezone.now())
    assert token.member == alice and token.scopes == ["bot:play", "challenge:write"]
    call_command("token_revoke", raw, stdout=StringIO())
    with pytest.raises(services.TokenRefused):
        services.token_authenticate(raw=raw, scope="bot:play", now=timezone.now())
    with pytest.raises(CommandError):
        call_command("token_revoke", "vog_nonsense", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("token_create", "nobody", "--scopes", "bot:play", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("token_create", "alice", "--scopes", "root", stdout=StringIO())


def test_the_open_api_checks_a_token_only_when_one_is_sent(client, make_member):
    alice = make_member("alice")
    _token, raw = make_token(alice)
    assert client.get("/api/users/alice/").status_code == 200
    ok = client.get("/api/users/alice/", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert ok.status_code == 200
    bad = client.get("/api/users/alice/", HTTP_AUTHORIZATION="Bearer vog_unknown")
    assert bad.status_code == 401
    assert bad.json()["error"] == "unauthorized"
    # In the request's language when no member is known.
    greek = client.get(
        "/api/variants/", HTTP_AUTHORIZATION="Bearer vog_unknown", HTTP_ACCEPT_LANGUAGE="el"
    )
    assert greek.status_code == 401
    assert greek.json() == {
        "error": "unauthorized",
        "message": "Αυτό το διακριτικό είναι άγνωστο ή έχει ανακληθεί.",
    }


def test_the_tokens_page_shows_a_new_token_once(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    page = client.post(
        "/account/tokens/", {"description": "my bot", "scopes": ["bot:play", "challenge:write"]}
    )
    assert page.status_code == 200
    token = ApiToken.objects.get(member=alice)
    raw = page.context["made"]["raw"]
    assert raw.encode() in page.content and token.prefix.encode() in page.content
    again = client.get("/account/tokens/")
    assert raw.encode() not in again.content and token.prefix.encode() in again.content
    assert client.post(f"/account/tokens/{token.pk}/revoke/").status_code == 302
    token.refresh_from_db()
    assert not token.active


def test_the_last_use_is_written_at_most_once_a_minute(make_member):
    alice = make_member("alice")
    token, raw = make_token(alice)
    first = timezone.now()
    services.token_authenticate(raw=raw, scope=None, now=first)
    services.token_authenticate(raw=raw, scope=None, now=first + timedelta(seconds=30))
    token.refresh_from_db()
    assert token.last_used_at == first
    services.token_authenticate(raw=raw, scope=None, now=first + timedelta(seconds=61))
    token.refresh_from_db()
    assert token.last_used_at == first + timedelta(seconds=61)
