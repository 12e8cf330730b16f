"""``python manage.py arena_create --variant fast --clock 1+1 --minutes 30
[--starts-in SECONDS] [--name NAME]``: a new arena; prints its id."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from games import timing
from games.errors import TableError
from lobby import services


class Command(BaseCommand):
    help = "Create an arena (SPEC §12) and print its id."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--variant", required=True)
        parser.add_argument("--clock", required=True)
        parser.add_argument("--minutes", type=int, required=True)
        parser.add_argument("--starts-in", type=float, default=0, help="seconds from now")
        parser.add_argument("--name", default="")

    def handle(self, *args, **options) -> None:
        try:
            arena = services.arena_create(
                name=options["name"],
                variant=options["variant"],
                clock=options["clock"],
                minutes=options["minutes"],
                starts_at=timing.now() + timedelta(seconds=options["starts_in"]),
            )
        except TableError as failure:
            raise CommandError(str(failure.message)) from failure
        self.stdout.write(str(arena.pk))
