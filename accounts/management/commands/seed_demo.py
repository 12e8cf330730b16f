"""Create the demo members of README.md (idempotent). They share a published password,
so the command refuses to run on a site with ``DEBUG`` off unless told so in words."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.moderation import MODERATORS_GROUP

DEMO_PASSWORD = "filler-demo"
DEMO_MEMBERS = ["alice", "bob", "carol", "dave"]


class Command(BaseCommand):
    help = "Create demo members alice, bob, carol, dave, a moderator and an admin."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--create-members-with-published-password",
            action="store_true",
            dest="force",
            help="Run even with DEBUG off: creates an administrator and members whose "
            "password is printed in README.md.",
        )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "seed_demo creates an administrator whose password is public; it runs only "
                "with DEBUG=1 (or --create-members-with-published-password)."
            )
        for username in DEMO_MEMBERS:
            self._member(username)
        moderator = self._member("moderator", is_staff=True)
        moderator.groups.add(Group.objects.get(name=MODERATORS_GROUP))
        self._member("admin", is_staff=True, is_superuser=True)
        self.stdout.write(
            f"Demo members: {', '.join(DEMO_MEMBERS)}, moderator, admin "
            f"(password {DEMO_PASSWORD!r})."
        )

    def _member(self, username: str, **flags: bool) -> User:
        email = f"{username}@example.com"
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": email, **flags}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        return user
