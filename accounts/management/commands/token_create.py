"""``python manage.py token_create <username> --scopes bot:play,challenge:write
[--description TEXT]``: a new personal API token of that member (SPEC §15); the token is
the last word printed, and never shown again."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from accounts import services
from accounts.errors import Refusal
from accounts.selectors import member_by_username


class Command(BaseCommand):
    help = "Make a personal API token for a member and print it (its last word)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--scopes", required=True, help="comma-separated: bot:play, challenge:write"
        )
        parser.add_argument("--description", default="made with token_create")

    def handle(self, *args, **options) -> None:
        member = member_by_username(options["username"])
        if member is None:
            raise CommandError(f"No member is called {options['username']!r}.")
        try:
            token, raw = services.token_create(
                member=member,
                description=options["description"],
                scopes=options["scopes"].split(","),
                now=timezone.now(),
            )
        except Refusal as refusal:
            raise CommandError(str(refusal.message)) from refusal
        scopes = ",".join(token.scopes)
        self.stdout.write(f"Token for {member.username} ({scopes}): {raw}")
