"""``manage.py recalculate_ratings [scale]``: recompute one scale (or all) from scratch."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ratings import services
from ratings.models import Scale

BAR = 30


class Command(BaseCommand):
    help = "Recompute the ratings of one scale (or every scale) from its first rated match."

    def add_arguments(self, parser):
        parser.add_argument(
            "scale", nargs="?", choices=Scale.values, help="the scale (default: all)"
        )

    def handle(self, *args, scale: str | None = None, **options) -> None:
        for key in [scale] if scale else Scale.values:
            started = time.perf_counter()
            label = str(Scale(key).label)

            def progress(done: int, total: int, label: str = label) -> None:
                filled = BAR * done // total if total else BAR
                self.stdout.write(
                    f"\r{label}: [{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}", ending=""
                )
                self.stdout.flush()

            rated = services.scale_recalculate(scale=key, progress=progress)
            seconds = time.perf_counter() - started
            if rated:
                self.stdout.write("")
            self.stdout.write(f"{label}: {rated} matches rated in {seconds:.1f} s")
