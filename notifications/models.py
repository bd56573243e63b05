"""What a player is told, and how they like to be told.

A ``Notice`` is one piece of news for one user: its ``kind`` (what happened), ``key``
(which object it is about: a round, a report, a deadline) and the ``data`` its text is
written from, in the reader's language when it is read or mailed. One notice per user,
kind and key (a unique constraint): a task that runs twice makes no second notice, and
the e-mail of a notice is sent at most once (``mail`` moves from pending to sent under
the row's lock, ``services.mail_notice``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notice(models.Model):
    class Kind(models.TextChoices):
        ROUND_PUBLISHED = "round_published", _("A round is published")
        RESULT_TO_CONFIRM = "result_to_confirm", _("A result to confirm")
        DECKLIST_DUE = "decklist_due", _("A decklist deadline approaches")

    class Mail(models.TextChoices):
        NONE = "", _("Not mailed")
        PENDING = "pending", _("To be mailed")
        SENT = "sent", _("Mailed")
        FAILED = "failed", _("Mailing failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    key = models.CharField(max_length=120)
    event = models.ForeignKey(
        "tournaments.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    # Shown on the site (the list, the live notice); False: the reader wants it by e-mail only.
    in_browser = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mail = models.CharField(max_length=10, choices=Mail.choices, default="", blank=True)
    mail_attempts = models.PositiveSmallIntegerField(default=0)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "key"], name="one_notice_per_user_kind_object"
            )
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notice_user_recent"),
            models.Index(
                fields=["created_at"], name="notice_mail_pending", condition=Q(mail="pending")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} for {self.user_id}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class Preferences(models.Model):
    """A user's choices: which kinds they do not want on which channel, and the language
    their e-mails are written in.

    ``muted`` holds ``"<kind>:<channel>"`` strings (channels: ``browser``, ``email``).
    ``language`` is the one they chose; empty, the one they last used the site in
    (``last_language``, recorded at log-in and by the notices' socket), else the site's
    ``LANGUAGE_CODE``.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences"
    )
    muted = models.JSONField(default=list, blank=True)
    language = models.CharField(max_length=8, blank=True)
    last_language = models.CharField(max_length=8, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notice preferences of {self.user_id}"
