import os
import subprocess
import sys

from django.conf import settings

from tests.conftest import SERVICES, needs_services


def test_check_deploy_passes_with_production_settings():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "-production-secret-with-enough-entropy-" + "y" * 20,
        "ALLOWED_HOSTS": "filler.example.org",
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://vog@127.0.0.1:5432/vog"),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "EMAIL_HOST": "smtp.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": ""}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@needs_services
def test_suite_runs_on_postgresql_and_redis():
    from channels.layers import get_channel_layer
    from django.db import connection

    from config.celery import app

    assert SERVICES
    assert connection.vendor == "postgresql"
    layer = get_channel_layer()
    assert type(layer).__module__.startswith("channels_redis.")
    assert app.conf.broker_url.startswith("redis://")


def test_a_worker_started_without_q_consumes_every_queue():
    """docs/deploy.md names the queues of every worker because a worker without ``-Q``
    takes them all: every queue a task is routed to is declared and consumed by default."""
    from config.celery import QUEUES

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    routed.add(settings.CELERY_TASK_DEFAULT_QUEUE)
    assert routed == set(QUEUES)
    # In a fresh process: this one's in-thread test workers narrow the app's queues.
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from config.celery import app;"
            " print(','.join(sorted(app.amqp.queues.consume_from)))",
        ],
        cwd=settings.BASE_DIR,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().split(",") == sorted(QUEUES)


def test_beat_makes_the_folder_of_its_schedule(tmp_path):
    from celery import signals

    from config.celery import app

    saved = app.conf.beat_schedule_filename
    app.conf.beat_schedule_filename = str(tmp_path / "var" / "celerybeat-schedule")
    try:
        signals.beat_init.send(sender=None)
    finally:
        app.conf.beat_schedule_filename = saved
    assert (tmp_path / "var").is_dir()


def test_every_task_beat_schedules_is_one_the_worker_knows():
    from config.celery import app

    app.loader.import_default_modules()  # the worker's autodiscovery
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert "lobby.tasks.bot_names_refresh" in {entry["task"] for entry in schedule.values()}
    unknown = [entry["task"] for entry in schedule.values() if entry["task"] not in app.tasks]
    assert unknown == []
