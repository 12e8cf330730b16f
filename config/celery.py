"""The Celery application. Queues: ``clocks`` (flags, aborts, the next game: never behind
anything else), ``bots`` (computer moves) and ``default`` (the rest: ratings, mail).
All are declared here, so a worker started without ``-Q`` consumes every one."""

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

QUEUES = ("clocks", "bots", "default")

app = Celery("vog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = tuple(Queue(name) for name in QUEUES)
app.autodiscover_tasks()
