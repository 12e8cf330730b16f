"""The Celery application. Queues: ``clocks`` (flags, aborts, the next game: never behind
anything else), ``bots`` (computer moves), ``default`` (the rest: ratings, mail), and the
computer's reviews: ``analysis`` (whole matches) and ``analysis_try`` (a colour tried in a
replay), each with a worker of its own (one process, one task at a time) so that no
analysis ever delays a flag and no quick try waits behind a whole match. All are declared
here, so a worker started without ``-Q`` consumes every one."""

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

QUEUES = ("clocks", "bots", "default", "analysis", "analysis_try")

app = Celery("vog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = tuple(Queue(name) for name in QUEUES)
app.autodiscover_tasks()
