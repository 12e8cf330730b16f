"""Create the demo members of README.md and a lobby that is not empty: a few tables
waiting for players and one match being played (idempotent); where the site keeps them
(``HOUSE_TABLE``, ``TV_HOUSE_MATCH``: ``make run``), the table the computer hosts and VOG
TV's match of two computers at once, before beat's first round. The members share a
published password, so the command refuses to run on a site with ``DEBUG`` off unless
told so."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.moderation import MODERATORS_GROUP
from games import services, timing
from games.engine.match import MatchState
from games.models import Match
from lobby import services as lobby_services

DEMO_PASSWORD = "filler-demo"
DEMO_MEMBERS = ["alice", "bob", "carol", "dave"]
# Members who keep the lobby busy (their password is the same).
HOSTS = ["erin", "frank", "grace", "heidi", "ivan", "judy"]
WAITING = [  # host, variant, clock, single game, rated, who else sits down
    ("erin", "fast", "3+2", False, True, []),
    ("frank", "classic", "", False, False, []),
    ("grace", "four", "5+3", False, False, ["heidi"]),
]


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
        hosts = {name: self._member(name) for name in HOSTS}
        self._tables(hosts)
        self._arenas(moderator)
        self._house()
        self.stdout.write(
            f"Demo members: {', '.join(DEMO_MEMBERS)}, moderator, admin "
            f"(password {DEMO_PASSWORD!r})."
        )

    def _tables(self, hosts: dict[str, User]) -> None:
        """Waiting tables and one match under way, unless the demo hosts have some."""
        if Match.objects.filter(created_by__in=hosts.values()).exists():
            return
        now = timing.now()
        for host, variant, clock, single, rated, others in WAITING:
            table = lobby_services.table_open(
                host=hosts[host],
                variant=variant,
                clock=clock,
                single_game=single,
                rated=rated,
                private=False,
                now=now,
            )
            for name in others:
                lobby_services.table_join(member=hosts[name], match_id=table.pk, now=now)
        match = services.match_create(
            variant="hex",
            members=[hosts["ivan"], hosts["judy"]],
            now=now,
            created_by=hosts["ivan"],
        )
        for _ in range(6):  # a few moves, so spectators see a game under way
            state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
            position = state.current.position
            legal = [c for c, why in position.legal_colors().items() if why is None]
            colour = max(legal, key=lambda c: len(position.preview(c)))
            mover = hosts["ivan"] if position.to_move == 0 else hosts["judy"]
            services.move_play(
                match_id=match.pk, user=mover, ply=state.current.ply, color=colour, received_at=now
            )

    def _house(self) -> None:
        """What the site keeps going by itself, at once rather than at beat's first round."""
        now = timing.now()
        if settings.HOUSE_TABLE:
            lobby_services.house_table_keep(now=now)
        if settings.TV_HOUSE_MATCH:
            services.tv_match_keep(now=now)

    def _arenas(self, moderator: User) -> None:
        """One arena running now (the shortest, 20 minutes) and one starting in an hour,
        unless some are running or coming (``make run`` again keeps them). The arenas are
        brought up to date first: those of an earlier run may have ended while the site was
        stopped, with nothing yet to say so."""
        from datetime import timedelta

        from lobby.models import Arena

        now = timing.now()
        lobby_services.arenas_advance(now=now)
        if Arena.objects.filter(status__in=[Arena.Status.UPCOMING, Arena.Status.RUNNING]).exists():
            return
        for variant, clock, starts, minutes in (
            ("fast", "1+1", now, 20),
            ("classic", "3+2", now + timedelta(hours=1), 60),
        ):
            lobby_services.arena_create(
                name="",  # called by its variant and clock in each reader's language
                variant=variant,
                clock=clock,
                starts_at=starts,
                minutes=minutes,
                created_by=moderator,
            )
        lobby_services.arenas_advance(now=now)

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
