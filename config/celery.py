"""The Celery application. Tasks take ids and JSON, and re-runs are harmless."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("gauntlet")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
