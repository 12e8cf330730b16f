"""Safe defaults: redirects stay on the site, production settings refuse to start without
a secret, error pages hide passwords, the admin's login is rate-limited, demo members need
DEBUG, reserved names, who may sanction whom, and the security headers."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts import services
from accounts.models import User
from accounts.services import NotAllowed
from config.headers import SecretsHidingFilter

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "status", "location"),
    [
        ("//evil.example/", 302, "/bg/"),
        ("//evil.example/rules/", 302, "/bg/rules/"),
        ("/\\evil.example/", 404, None),
    ],
)
def test_the_language_redirect_stays_on_this_site(client, path, status, location):
    client.cookies["django_language"] = "bg"
    response = client.get(path)
    assert response.status_code == status
    assert response.get("Location") == location


def test_production_refuses_to_start_without_a_secret_key_in_one_line():
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "Refusing to start: SECRET_KEY is required when DEBUG=0"
        " (set it, or DEBUG=1 for a local run)."
    ]


def test_error_pages_never_show_the_database_or_redis_passwords(settings):
    settings.DATABASES = {
        **settings.DATABASES,
        "replica": {"ENGINE": "x", "HOST": "db", "NAME": "vog", "USER": "vog", "PASSWORD": "pw1"},
    }
    settings.CHANNEL_LAYERS = {"default": {"CONFIG": {"hosts": ["redis://:pw2@redis:6379/0"]}}}
    settings.CACHES = {"default": {"LOCATION": "redis://:pw3@redis:6379/1"}}
    settings.CELERY_BROKER_URL = "redis://:pw4@redis:6379/0"
    shown = repr(SecretsHidingFilter().get_safe_settings())
    for secret in ("pw1", "pw2", "pw3", "pw4", settings.SECRET_KEY):
        assert secret not in shown
    assert "database_url" not in dir(settings) and "redis_url" not in dir(settings)


def test_the_admin_login_is_the_sites_and_is_rate_limited(client, make_member, password):
    admin = make_member("root_admin", is_staff=True, is_superuser=True)
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    for _ in range(12):
        client.post(reverse("account_login"), {"login": admin.username, "password": "wrong"})
    response = client.post(
        reverse("account_login"), {"login": admin.username, "password": password}
    )
    # Even the right password is refused while the limit lasts: the form comes back with
    # the reason, and nobody is logged in.
    assert response.status_code == 200
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302


def test_a_logged_in_member_without_staff_rights_is_told_so(client, make_member):
    client.force_login(make_member("zed"))
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 403
    assert "Only moderators and administrators" in response.content.decode()


def test_seed_demo_needs_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG=1"):
        call_command("seed_demo")
    assert not User.objects.filter(username="admin").exists()
    call_command("seed_demo", create_members_with_published_password=True)
    assert User.objects.get(username="admin").is_superuser


def test_seed_demo_with_debug_creates_the_readme_members(settings):
    settings.DEBUG = True
    call_command("seed_demo")
    alice = User.objects.get(username="alice")
    assert alice.check_password("filler-demo")


@pytest.mark.parametrize("name", ["admin", "Admin", "MODERATOR", "staff", "support", "vog"])
def test_reserved_names_cannot_sign_up(client, name, password):
    response = client.post(
        reverse("account_signup"),
        {"username": name, "email": "x@example.com", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username__iexact=name, email="x@example.com").exists()


def test_moderators_sanction_ordinary_members_only(make_member, moderator):
    other_moderator = make_member("mod2", is_staff=True)
    superuser = make_member("boss", is_staff=True, is_superuser=True)
    member = make_member("pat")
    for target in (other_moderator, superuser, moderator):
        with pytest.raises(NotAllowed):
            services.member_ban(member=target, by=moderator, reason="no")
        with pytest.raises(NotAllowed):
            services.member_mute(member=target, by=moderator)
    services.member_ban(member=member, by=moderator, reason="spam")
    assert User.objects.get(pk=member.pk).is_banned()
    # A superuser may sanction a moderator, but never another superuser.
    services.member_mute(member=other_moderator, by=superuser)
    with pytest.raises(NotAllowed):
        services.member_ban(
            member=make_member("boss2", is_superuser=True), by=superuser, reason="x"
        )


def test_the_admin_action_leaves_moderators_and_superusers_out(client, make_member, moderator):
    superuser = make_member("boss", is_staff=True, is_superuser=True)
    member = make_member("pat")
    client.force_login(moderator)
    client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban_members",
            "_selected_action": [superuser.pk, member.pk, moderator.pk],
            "apply": "1",
            "reason": "testing",
        },
    )
    assert User.objects.get(pk=member.pk).is_banned()
    assert not User.objects.get(pk=superuser.pk).is_banned()
    assert not User.objects.get(pk=moderator.pk).is_banned()


@pytest.mark.parametrize("url", ["/", "/rules/", "/accounts/login/"])
def test_pages_carry_a_strict_content_security_policy(client, url):
    response = client.get(url)
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src")[0]
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]
    assert "<script>" not in response.content.decode()


def test_large_bodies_are_refused(client):
    response = client.post(reverse("account_login"), {"login": "x" * (300 * 1024), "password": "y"})
    assert response.status_code == 400
