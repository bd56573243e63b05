"""Draft and sealed pods: seats, the pure draft state, every pick, and the decks built.

The state of a running draft is the JSON of ``drafting.draft`` stored on the pod row;
every change goes through ``drafting.services``, which locks that row, applies the pure
function and writes the new state together with the ``Pick`` row in one transaction.
The unique constraint on ``Pick`` is the last line of defence against a double pick.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

MIN_SEATS = 2
MAX_SEATS = 12


def new_pod_seed() -> int:
    return secrets.randbits(62)


def default_set_codes() -> list[str]:
    """The field's default (a booster draft of the default game); pods made through
    ``drafting.services`` are given the codes of their own game (the registry's)."""
    from engine.core import registry

    info = registry.default_drafting_system()
    return [info.draft_sets[0]] * info.boosters_per_player


def default_game_system() -> str:
    """A pod's game when none is given: the registry's first game with boosters."""
    from engine.core import registry

    return registry.default_drafting_system().key


# The rarities the games' cards carry (``CardFace.rarity``), for the catalogue: the card
# templates show them translated in the context "rarity".
RARITY_NAMES = (
    pgettext_lazy("rarity", "common"),
    pgettext_lazy("rarity", "uncommon"),
    pgettext_lazy("rarity", "rare"),
    pgettext_lazy("rarity", "legendary"),
)


class Pod(models.Model):
    class Kind(models.TextChoices):
        DRAFT = "draft", _("Booster draft")
        SEALED = "sealed", _("Sealed")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        DRAFTING = "drafting", _("Drafting")
        BUILDING = "building", _("Building decks")
        FINISHED = "finished", _("Finished")

    # The pipeline: a status may only move along these arrows (see ``set_status``).
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.WAITING: (Status.DRAFTING, Status.BUILDING),  # sealed goes straight to building
        Status.DRAFTING: (Status.BUILDING,),
        Status.BUILDING: (Status.FINISHED,),
        Status.FINISHED: (),
    }

    name = models.CharField(_("name"), max_length=120, blank=True)
    event = models.ForeignKey(
        "tournaments.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="pods"
    )
    number = models.PositiveSmallIntegerField(default=1, help_text="Pod number within its event.")
    game_system = models.CharField(_("game"), max_length=40, default=default_game_system)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.DRAFT)
    set_codes = models.JSONField(
        _("boosters"),
        default=default_set_codes,
        help_text="The set code of each booster, in order: the booster rounds of a draft, "
        "or the boosters each player opens in sealed.",
    )
    seats_count = models.PositiveSmallIntegerField(
        _("seats"),
        default=8,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
    )
    seed = models.BigIntegerField(default=new_pod_seed, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    state = models.JSONField(null=True, blank=True, editable=False)

    # Timers. A pick may take base + per card × cards in the pack, at most the cap;
    # 0 in ``pick_max_seconds`` turns the pick timer off.
    pick_base_seconds = models.PositiveSmallIntegerField(_("pick time: base seconds"), default=5)
    pick_seconds_per_card = models.PositiveSmallIntegerField(
        _("pick time: seconds per card in the pack"), default=5
    )
    pick_max_seconds = models.PositiveSmallIntegerField(
        _("pick time: at most (seconds, 0 = no timer)"), default=75
    )
    review_seconds = models.PositiveSmallIntegerField(
        _("review time between boosters (seconds)"), default=20
    )
    build_minutes = models.PositiveSmallIntegerField(
        _("deck-building time (minutes)"),
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(240)],
    )
    abandon_after = models.PositiveSmallIntegerField(
        _("timed-out picks in a row before a bot takes the seat (0 = never)"),
        default=3,
        validators=[MaxValueValidator(60)],
    )
    bot_seconds = models.FloatField(
        default=1.0, help_text="How long a bot seems to think before its pick (task countdown)."
    )
    bots_inline = models.BooleanField(
        default=False,
        help_text="Bots pick inside the request that passes them a pack instead of in a Celery "
        "task (for tests and demos run without a worker).",
    )

    # Cards the organiser supplies, which every player may put in their deck besides their
    # pool (the game's limited kit says which and how many copies, ``engine.core.limited``;
    # for «Восхождение», Cities, AMB-05).
    supplied_cards = models.JSONField(_("supplied cards"), default=list, blank=True)
    # When the pod's pending timer task is due (None: none pending). One task per pod
    # looks at every seat's deadline; see ``drafting.services.picks.run_timers``.
    timers_due = models.DateTimeField(null=True, blank=True, editable=False)
    build_deadline = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"],
                condition=models.Q(event__isnull=False),
                name="unique_pod_number_per_event",
            ),
            models.CheckConstraint(
                condition=models.Q(seats_count__gte=MIN_SEATS, seats_count__lte=MAX_SEATS),
                name="pod_seats_2_to_12",
            ),
        ]

    def __str__(self) -> str:
        if self.name:
            return self.name
        if self.event_id:
            return gettext("%(event)s · pod %(n)d") % {"event": self.event, "n": self.number}
        # A pod of its own is named by its game and format (a quick pod has no other name).
        from engine.core import registry

        try:
            game = registry.get(self.game_system).label(get_language() or "en")
        except (KeyError, LookupError):
            game = self.game_system
        return gettext("%(game)s · %(kind)s · pod %(n)d") % {
            "game": game,
            "kind": self.get_kind_display(),
            "n": self.pk,
        }

    def can_move_to(self, status: str) -> bool:
        return status in self.TRANSITIONS.get(self.status, ())

    def set_status(self, status: str) -> None:
        """Move along the pipeline; anything else is a bug in the caller."""
        if not self.can_move_to(status):
            raise ValueError(f"pod {self.pk}: {self.status} → {status} is not allowed")
        self.status = status

    def pick_seconds(self, cards_in_pack: int) -> int | None:
        """Seconds allowed for a pick from a pack of this size (None: no pick timer)."""
        if not self.pick_max_seconds:
            return None
        return min(
            self.pick_max_seconds,
            self.pick_base_seconds + self.pick_seconds_per_card * cards_in_pack,
        )

    @property
    def is_sealed(self) -> bool:
        return self.kind == self.Kind.SEALED


class Seat(models.Model):
    class BotReason(models.TextChoices):
        LEFT = "left", _("left the draft")
        ORGANISER = "organiser", _("handed to a bot by the organiser")
        DROPPED = "dropped", _("dropped from the event")
        TIMEOUTS = "timeouts", _("let the timer pick")

    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()  # 0-based: the index in the pure state
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="draft_seats",
    )
    is_bot = models.BooleanField(default=False)
    abandoned = models.BooleanField(default=False, help_text="A player left: a bot picks for them.")
    # Why a bot took over the seat (blank while the player holds it). A seat taken over
    # after ``Pod.abandon_after`` timed-out picks goes back to its player at their next pick.
    bot_reason = models.CharField(max_length=12, choices=BotReason.choices, blank=True)
    timeouts = models.PositiveSmallIntegerField(
        default=0, help_text="Picks in a row the timer made for this player."
    )
    registration = models.ForeignKey(
        "tournaments.Registration",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="draft_seats",
    )
    display_name = models.CharField(max_length=80, blank=True)
    highlighted = models.CharField(max_length=40, blank=True)
    # The pick timer: the deadline of the pick the seat now faces, and which pick it is
    # for ("<round>:<pick>"), so a late or repeated timer task can tell it is stale.
    pick_deadline = models.DateTimeField(null=True, blank=True)
    timer_key = models.CharField(max_length=20, blank=True)
    # Section key -> card ids (the sections of the game's limited kit, engine.core.limited);
    # null until a deck is saved.
    deck = models.JSONField(null=True, blank=True)
    deck_submitted_at = models.DateTimeField(null=True, blank=True)
    deck_by_bot = models.BooleanField(default=False)

    class Meta:
        ordering = ["pod", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["pod", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pod} seat {self.number + 1}: {self.name}"

    @property
    def name(self) -> str:
        if self.display_name:
            return self.display_name
        if self.user_id:
            return self.user.get_username()
        return gettext("Bot %(n)d") % {"n": self.number + 1}

    @property
    def is_human(self) -> bool:
        return not self.is_bot and self.user_id is not None

    @property
    def picked_by_bot(self) -> bool:
        """Bots pick for bot seats and for players who left."""
        return self.is_bot or self.abandoned or self.user_id is None


class Pick(models.Model):
    class Auto(models.TextChoices):
        PLAYER = "player", _("Player")
        TIMER = "timer", _("Timer")
        BOT = "bot", _("Bot")

    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="picks")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="picks")
    booster_round = models.PositiveSmallIntegerField()
    pick_number = models.PositiveSmallIntegerField()
    card_id = models.CharField(max_length=40)
    pack_id = models.CharField(max_length=40)
    pack_cards = models.JSONField(default=list, help_text="The pack as the seat saw it.")
    picked_at = models.DateTimeField(auto_now_add=True)
    auto = models.CharField(max_length=10, choices=Auto.choices, default=Auto.PLAYER)

    class Meta:
        ordering = ["pod", "seat", "booster_round", "pick_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod", "seat", "booster_round", "pick_number"], name="one_pick_per_turn"
            )
        ]

    def __str__(self) -> str:
        return f"{self.seat}: round {self.booster_round} pick {self.pick_number} {self.card_id}"
