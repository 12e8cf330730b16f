"""``python manage.py token_revoke <token>``: revoke a personal API token (SPEC §15);
every call with it answers 401 from then on, and its open streams end."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from accounts import services
from accounts.services.tokens import token_by_raw


class Command(BaseCommand):
    help = "Revoke a personal API token (given whole)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("token")

    def handle(self, *args, **options) -> None:
        token = token_by_raw(options["token"].strip())
        if token is None:
            raise CommandError("There is no such token.")
        already = token.revoked_at is not None
        token = services.token_revoke(token=token, now=timezone.now())
        state = "was already revoked" if already else "is revoked"
        self.stdout.write(f"The token {token.prefix}… of {token.member.username} {state}.")
