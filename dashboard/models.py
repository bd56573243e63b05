"""Errors kept for the staff dashboard.

``ErrorRecord`` rows are written by the logging handler in ``dashboard.errors``
through ``dashboard.services.record_error``: ERROR records of failed requests and
Celery tasks (and of the project's own ``gauntlet`` loggers). The same error
repeated within a few minutes adds to ``count`` instead of adding a row, and only
the newest rows are kept (``DASHBOARD_ERROR_RECORDS_KEEP``, default 500).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ErrorRecord(models.Model):
    class Source(models.TextChoices):
        REQUEST = "request", _("Request")
        TASK = "task", _("Celery task")
        OTHER = "other", _("Other")

    source = models.CharField(max_length=10, choices=Source.choices, default=Source.OTHER)
    logger = models.CharField(max_length=200)
    level = models.CharField(max_length=20, default="ERROR")
    message = models.TextField()
    exception = models.CharField(
        max_length=300, blank=True, help_text="Type and text of the exception."
    )
    traceback = models.TextField(blank=True)
    # Same error (logger, exception type, unformatted message, place in the code): one row.
    fingerprint = models.CharField(max_length=64, db_index=True)
    count = models.PositiveIntegerField(default=1)
    first_seen = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now, db_index=True)
    # Requests
    method = models.CharField(max_length=10, blank=True)
    path = models.CharField(max_length=500, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    username = models.CharField(max_length=150, blank=True)
    # Celery tasks
    task_name = models.CharField(max_length=200, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    task_args = models.CharField(max_length=500, blank=True)
    hostname = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-last_seen", "-pk"]
        verbose_name = _("error")
        verbose_name_plural = _("errors")

    def __str__(self) -> str:
        return f"{self.last_seen:%Y-%m-%d %H:%M:%S} {self.logger}: {self.message[:80]}"

    @property
    def where(self) -> str:
        """The request or the task the error happened in."""
        if self.source == self.Source.REQUEST:
            return f"{self.method} {self.path}".strip()
        if self.source == self.Source.TASK:
            return self.task_name
        return self.logger
