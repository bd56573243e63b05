"""Online game sessions: one row per game, the seats at it, and every action applied.

The engine state of a running game is the JSON stored on the ``GameSession`` row;
``seq`` counts the actions applied to it. ``play.tasks.apply_action`` locks the row,
applies one action through the engine and writes the new state, ``seq + 1`` and the
``ActionLog`` row in one transaction. The unique constraint on ``(session, seq)`` is the
last line of defence against an action applied twice; replaying the log from the seed
rebuilds the stored state exactly.

A concession or a clock run out takes the seat out through the engine
(``GameSystem.leave``) and is logged like an action (``{"type": "@leave"}``), so the
log rebuilds it too; ``end_reason`` says how a game ended.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from engine.core.rng import SEED_BITS, new_seed


def new_game_seed() -> int:
    """128 random bits (``engine.core.rng.new_seed``): nobody rebuilds a game's hidden
    order by trying seeds."""
    return new_seed(secrets.randbits(SEED_BITS))


# The bots every engine offers (``BOTS`` of its bots module), as the pages name them.
BOT_NAMES = {
    "random": pgettext_lazy("bot", "random"),
    "heuristic": pgettext_lazy("bot", "heuristic"),
}


def bot_label(key: str) -> str:
    """A bot's name in the page's language (its key for a bot not named here)."""
    return str(BOT_NAMES.get(key, key))


class SeedField(models.CharField):
    """A whole number too wide for a 64-bit column (a game's seed), stored as its digits
    (exact in every database: SQLite would round a wide NUMERIC), read back as an int."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 48)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value, expression, connection):
        return None if value is None else int(value)

    def to_python(self, value):
        if value is None or isinstance(value, int):
            return value
        return int(value)

    def get_prep_value(self, value):
        return None if value is None else str(int(value))


class SessionStatusError(Exception):
    """A status change the session pipeline does not allow (a bug in the caller)."""


class GameSession(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        RUNNING = "running", _("Being played")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class EndReason(models.TextChoices):
        NONE = "", "—"
        RULES = "rules", _("Decided by the rules")
        TIME = "time", _("Out of time")
        CONCEDE = "concede", _("Conceded")
        ABORTED = "aborted", _("Aborted")

    # The pipeline: a status only moves along these arrows (see ``set_status``).
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.WAITING: (Status.RUNNING, Status.ABORTED),
        Status.RUNNING: (Status.FINISHED, Status.ABORTED),
        Status.FINISHED: (),
        Status.ABORTED: (),
    }

    system = models.CharField(_("game"), max_length=40)
    match = models.ForeignKey(
        "tournaments.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="play_sessions",
    )
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    config = models.JSONField(default=dict, blank=True)
    decks = models.JSONField(default=list, blank=True)
    seed = SeedField(default=new_game_seed, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    seq = models.PositiveIntegerField(default=0, help_text="Number of actions applied.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    result = models.JSONField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, choices=EndReason.choices, default="", blank=True)
    # Seconds each player has for the whole game (casual) or match (tournament); None: untimed.
    time_bank = models.PositiveIntegerField(null=True, blank=True)
    invite_token = models.CharField(max_length=40, null=True, blank=True, unique=True)
    # A casual table: the format its creator's deck was checked in (a pasted list's
    # chosen format, or the limited format a deck was built for; empty: no deck), and
    # where that deck came from ({"kind": "paste"}, {"kind": "starter", "key": ...}, or
    # a built deck's origin with its owner and pool; "bots": what the bots play).
    deck_format = models.CharField(_("deck format"), max_length=40, blank=True)
    deck_origin = models.JSONField(default=dict, blank=True)
    # The request a table was made for (a deck sent from the deck builder): a second
    # post of the same request finds this table instead of making another.
    origin_key = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "game_number"],
                condition=Q(match__isnull=False),
                name="one_session_per_match_game",
            )
        ]

    def __str__(self) -> str:
        if self.match_id:
            return f"{self.system} game {self.game_number} of match {self.match_id}"
        return f"{self.system} game #{self.pk}"

    def set_status(self, status: str) -> None:
        """Move along the pipeline, or raise ``SessionStatusError``."""
        if status not in self.TRANSITIONS[self.status]:
            raise SessionStatusError(
                f"game session {self.pk}: {self.status} → {status} is not allowed"
            )
        self.status = status

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class SessionSeat(models.Model):
    """One seat at a game: a person, an empty place waiting for one, or a bot."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="play_seats",
    )
    is_bot = models.BooleanField(default=False)
    bot_name = models.CharField(max_length=40, blank=True)
    match_seat = models.ForeignKey(
        "tournaments.MatchSeat", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # The clock: seconds left in the bank, and when the bank runs out while this seat acts.
    time_left = models.FloatField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # When the clock task queued for this seat is due (None: none queued). A running
    # clock needs a new task only if none is due by its deadline
    # (``play.services.clocks.run_clocks``).
    clock_check_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A move of this seat the server took at this moment and a worker has not yet applied
    # (set only near the deadline, ``services.queue_move``): the clock check does not flag
    # a seat whose move was made in time but is still on its way (``services.flag_time``).
    pending_move_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_session_seat"),
            models.UniqueConstraint(
                fields=["session", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_user_per_session",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.session_id}"

    @property
    def label(self) -> str:
        if self.is_bot:
            return gettext("Bot (%(name)s)") % {"name": bot_label(self.bot_name)}
        if self.user_id is None:
            return str(_("Open seat"))
        return self.user.get_username()


class ActionLog(models.Model):
    """One engine action, in order: ``seq`` is the session's ``seq`` before it was applied."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list, blank=True)
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="one_action_per_seq")
        ]
