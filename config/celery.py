"""The Celery application. Tasks take ids and JSON, and re-runs are harmless."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("gauntlet")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect  # each prefork child, after the fork
@worker_ready.connect  # the worker's own process (which runs the tasks of a solo worker)
def _tune_gc(**kwargs) -> None:
    from config.runtime import tune_gc

    tune_gc()
