"""The Celery application. Queues: ``clocks`` (flags, aborts, the next game: never behind
anything else), ``bots`` (computer moves), ``default`` (the rest: ratings, mail), and the
computer's reviews: ``analysis`` (whole matches) and ``analysis_try`` (a colour tried in a
replay), each with a worker of its own (one process, one task at a time) so that no
analysis ever delays a flag and no quick try waits behind a whole match. All are declared
here, so a worker started without ``-Q`` consumes every one."""

import os
from pathlib import Path

from celery import Celery, signals
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

QUEUES = ("clocks", "bots", "default", "analysis", "analysis_try")

app = Celery("vog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = tuple(Queue(name) for name in QUEUES)
app.autodiscover_tasks()


@signals.beat_init.connect
@signals.beat_embedded_init.connect
def beat_schedule_folder(**_kwargs) -> None:
    """Beat keeps its schedule under ``VOG_VAR_DIR``; the settings create no folder."""
    Path(app.conf.beat_schedule_filename).parent.mkdir(parents=True, exist_ok=True)
