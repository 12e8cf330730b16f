"""The Celery application: queues ``clocks`` (clock expiry) and ``default`` (the rest)."""

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("vog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("clocks"), Queue("default"))
app.autodiscover_tasks()
