"""Create the demo members of README.md (idempotent)."""

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.moderation import MODERATORS_GROUP

DEMO_PASSWORD = "filler-demo"
DEMO_MEMBERS = ["alice", "bob", "carol", "dave"]


class Command(BaseCommand):
    help = "Create demo members alice, bob, carol, dave, a moderator and an admin."

    def handle(self, *args, **options) -> None:
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
