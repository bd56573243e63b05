"""Tournament data: events, people, rounds, matches, games, reports, audit.

Models hold data and the small invariants the database can enforce. Every change
of state goes through a module of ``tournaments.services``; the algorithms live in the
pure modules ``swiss``, ``standings`` and ``bracket``. The statuses of events,
registrations, rounds and matches move only along each model's ``TRANSITIONS``
(``StatusPipeline``), as ``Pod`` and ``GameSession`` do in drafting and play.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine.core import registry


def new_event_seed() -> int:
    return secrets.randbits(62)


def game_system_choices() -> list[tuple[str, str]]:
    language = get_language() or "en"
    return [(info.key, info.label(language)) for info in registry.all_systems()]


class StatusError(Exception):
    """A status change the model's ``TRANSITIONS`` do not allow (a bug in the caller)."""


class StatusPipeline:
    """A ``status`` that moves only along the arrows of the model's ``TRANSITIONS``.

    ``set_status`` moves one row in memory (its caller saves it) and refuses any other
    move with ``StatusError``, changing nothing. ``StatusQuerySet.move_to`` moves rows
    in the database by the same table.
    """

    TRANSITIONS: dict[str, tuple[str, ...]] = {}

    def can_move_to(self, status: str) -> bool:
        return status in self.TRANSITIONS.get(self.status, ())

    def set_status(self, status: str) -> None:
        """Move along the pipeline, or raise ``StatusError``."""
        if not self.can_move_to(status):
            raise StatusError(
                f"{self._meta.model_name} {self.pk}: {self.status} → {status} is not allowed"
            )
        self.status = status

    @classmethod
    def statuses_before(cls, status: str) -> list[str]:
        """Every status that may move to ``status``."""
        return [before for before, after in cls.TRANSITIONS.items() if status in after]


class StatusQuerySet(models.QuerySet):
    def move_to(self, status: str, **fields) -> int:
        """Move, in one UPDATE, the rows whose status may move to ``status`` (setting
        ``fields`` too); rows in any other status are left as they are. Returns how many
        moved: a compare-and-set, so of two transactions moving one row one sees 1."""
        before = self.model.statuses_before(status)
        return self.filter(status__in=before).update(status=status, **fields)


class Event(StatusPipeline, models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    # The lifecycle: a status only moves along these arrows (see ``set_status``).
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.REGISTRATION: (Status.RUNNING,),  # started
        Status.RUNNING: (Status.FINISHED,),  # its last round completed
        Status.FINISHED: (),
    }

    class Structure(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        SINGLE_ELIMINATION = "single_elim", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elim", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")

    class Phase(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        PLAYOFF = "playoff", _("Playoff")

    TOP_CUT_CHOICES = [(0, _("No top cut")), (2, "2"), (4, "4"), (8, "8"), (16, "16")]
    BEST_OF_CHOICES = [(1, _("Best of 1")), (3, _("Best of 3")), (5, _("Best of 5"))]

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=140, unique=True)
    # The game and one of its formats, as the registry knows them (engine.core.registry);
    # ``services.events.create_event`` fills in the registry's defaults when none is given.
    game_system = models.CharField(_("game"), max_length=40)
    format = models.CharField(_("format"), max_length=20)
    structure = models.CharField(
        _("structure"), max_length=20, choices=Structure.choices, default=Structure.SWISS
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(30)],
        help_text=_("Leave empty to use the recommended number for the number of players."),
    )
    top_cut = models.PositiveSmallIntegerField(_("top cut"), choices=TOP_CUT_CHOICES, default=0)
    best_of = models.PositiveSmallIntegerField(
        _("match length"), choices=BEST_OF_CHOICES, default=3
    )
    grand_final_reset = models.BooleanField(
        _("grand final reset"),
        default=True,
        help_text=_(
            "Double elimination: replay the grand final if the losers' bracket champion wins it."
        ),
    )
    allow_split_finals = models.BooleanField(
        _("allow a split final"),
        default=False,
        help_text=_(
            "Single elimination: the finalists may agree to end the final as an intentional "
            "draw (0-0-3) and share first place."
        ),
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round time (minutes)"),
        default=50,
        validators=[MinValueValidator(5), MaxValueValidator(600)],
    )
    tiebreaks = models.CharField(_("tiebreakers"), max_length=20, default="mtr")
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    location = models.CharField(_("location"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    max_players = models.PositiveIntegerField(_("player cap"), null=True, blank=True)
    decklist_deadline = models.DateTimeField(_("decklist deadline"), null=True, blank=True)
    decklists_locked = models.BooleanField(default=False)
    auto_advance = models.BooleanField(
        _("run itself"),
        default=False,
        help_text=_("Pair and publish the next round as soon as every result of a round is in."),
    )
    players_per_game = models.PositiveSmallIntegerField(
        _("players per game"),
        default=2,
        help_text=_(
            "2: ordinary matches. 3 or 4: Swiss rounds seat players in pods of that many "
            "(a few pods one smaller when the count does not divide) and rank them by "
            "placement points."
        ),
    )
    time_bank_minutes = models.PositiveSmallIntegerField(
        _("time bank (minutes)"),
        default=25,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text=_("Online play: each player's thinking time for a whole match."),
    )
    play_online = models.BooleanField(
        _("play online"),
        default=False,
        help_text=_("Games are played online and decided by the rules engine."),
    )
    is_public = models.BooleanField(_("listed publicly"), default=True)
    decklists_public = models.BooleanField(
        _("publish decklists"),
        default=False,
        help_text=_("Once the event has finished, its decklists are shown on players' profiles."),
    )

    class Seeding(models.TextChoices):
        NONE = "none", _("At random")
        RATING = "rating", _("By rating")

    seeding = models.CharField(
        _("seeding"),
        max_length=10,
        choices=Seeding.choices,
        default=Seeding.NONE,
        help_text=_(
            "By rating: the first Swiss round pairs the top half of the ratings against the "
            "bottom half; brackets, round robins and the seeds within a top cut follow the "
            "ratings."
        ),
    )
    seed = models.BigIntegerField(default=new_event_seed, editable=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    phase = models.CharField(max_length=10, choices=Phase.choices, default=Phase.SWISS)
    bracket = models.JSONField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = StatusQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    @property
    def game_info(self) -> registry.GameSystemInfo:
        return registry.get(self.game_system)

    @property
    def format_info(self) -> registry.Format | None:
        try:
            return self.game_info.format(self.format)
        except registry.UnknownGameSystem:
            return None

    def get_format_display(self) -> str:
        info = self.format_info
        return info.label(get_language() or "en") if info is not None else self.format

    @property
    def uses_pods(self) -> bool:
        """Multiplayer games: pods, placements and placement-point standings."""
        return self.players_per_game > 2

    @property
    def team_size(self) -> int:
        """Players per entrant: more than 1 in a team format (``registry.Format.team_size``)."""
        info = self.format_info
        return info.team_size if info is not None else 1

    @property
    def is_team_event(self) -> bool:
        return self.team_size > 1

    @property
    def is_elimination_only(self) -> bool:
        return self.structure in (
            self.Structure.SINGLE_ELIMINATION,
            self.Structure.DOUBLE_ELIMINATION,
        )


class RoundsRecommendation(models.Model):
    """The recommended number of Swiss rounds by player count (MTR Appendix E), editable by staff."""

    min_players = models.PositiveIntegerField(unique=True)
    max_players = models.PositiveIntegerField(
        null=True, blank=True, help_text="Empty: no upper bound"
    )
    swiss_rounds = models.PositiveSmallIntegerField()
    top_cut = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["min_players"]

    def __str__(self) -> str:
        upper = self.max_players or "+"
        return f"{self.min_players}-{upper}: {self.swiss_rounds} rounds, top {self.top_cut}"


class EventStaff(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        JUDGE = "judge", _("Judge")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_role_per_event")]


class Registration(StatusPipeline, models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")

    # A status only moves along these arrows (see ``set_status``). A late entry is
    # created checked in.
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.REGISTERED: (Status.CHECKED_IN, Status.DROPPED),
        # Checking in again changes nothing (a second check-in; the start checks in
        # every player still in, those checked in already included).
        Status.CHECKED_IN: (Status.CHECKED_IN, Status.DROPPED),
        # Re-added: checked in while the event runs, registered otherwise (before the
        # start, and also after the end).
        Status.DROPPED: (Status.REGISTERED, Status.CHECKED_IN),
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registrations",
    )
    display_name = models.CharField(_("name"), max_length=80)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    first_round = models.PositiveSmallIntegerField(
        default=1,
        help_text="First round the player can be paired in; earlier rounds count as losses.",
    )
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    drop_reason = models.CharField(max_length=200, blank=True)
    # A reason of the site's own (a disqualification, no check-in): its message and
    # parameters, shown in the reader's language (``drop_reason_line``); ``drop_reason``
    # keeps the English, and the whole reason of rows from before (decision 0066).
    drop_message = models.CharField(max_length=200, blank=True, default="")
    drop_params = models.JSONField(blank=True, default=dict)
    is_bot = models.BooleanField(default=False)
    # A table the player always sits at (e.g. for access): the pairing puts their match
    # there (``swiss.assign_tables``). Seen by the player and the officials only.
    fixed_table = models.PositiveIntegerField(
        _("fixed table"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(9999)],
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StatusQuerySet.as_manager()

    class Meta:
        ordering = ["display_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=Q(user__isnull=False),
                name="one_registration_per_user",
            ),
            models.UniqueConstraint(fields=["event", "display_name"], name="unique_name_per_event"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_active(self) -> bool:
        return self.status != self.Status.DROPPED

    @property
    def drop_reason_line(self) -> str:
        """Why the player dropped, in the active language (``drop_reason`` as written when
        it is the player's or an official's own words, or a row from before)."""
        from tournaments.audit_text import render

        return render(self.drop_message, self.drop_params, self.drop_reason)


class TeamMember(models.Model):
    """A player of a team: the team is one ``Registration`` (its ``display_name`` the team's
    name, its ``user`` the member who registered it), paired and ranked as one entrant.

    ``position`` orders the members (0 first): the order of their seats at an online game.
    A player is in at most one team of an event. In a team format each member brings their
    own deck (``deck``, checked like a decklist: ``deck_problems``, ``deck_is_legal``).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_members")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_places"
    )
    position = models.PositiveSmallIntegerField()
    deck = models.TextField(blank=True)
    deck_problems = models.JSONField(default=list, blank=True)
    deck_is_legal = models.BooleanField(null=True, default=None)

    class Meta:
        ordering = ["registration", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_team_per_player"),
            models.UniqueConstraint(
                fields=["registration", "position"], name="unique_team_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.registration}"


class Decklist(models.Model):
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="decklist"
    )
    text = models.TextField()
    submitted_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    locked = models.BooleanField(default=False)
    # What the game's deck checker found when the list was saved: a list of
    # {"rule": "4.5.1.4" or "", "message": ..., "line": n or null, "cards": [ids]}.
    problems = models.JSONField(default=list, blank=True)
    # True: legal for the event's format; False: has problems; None: not checked (no
    # checker or card data for the game, or a limited format whose pool is not known).
    is_legal = models.BooleanField(null=True, default=None)


class Round(StatusPipeline, models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        COMPLETED = "completed", _("Completed")

    # A status only moves along these arrows (see ``set_status``). A draft round that
    # is paired again is deleted and made anew.
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.DRAFT: (Status.PUBLISHED,),
        Status.PUBLISHED: (Status.COMPLETED,),  # every match final
        Status.COMPLETED: (),
    }

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("Elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SWISS)
    title = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StatusQuerySet.as_manager()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        from django.utils.translation import gettext, pgettext

        if self.title:
            return pgettext("round title", self.title)
        return gettext("Round %(n)d") % {"n": self.number}


class Match(StatusPipeline, models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Playing")
        REPORTED = "reported", _("Awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        FINAL = "final", _("Final")

    # A status only moves along these arrows (see ``set_status``). Final: the players'
    # reports agree, or an official, time called, the engine or a bye settled it.
    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.PENDING: (Status.REPORTED, Status.FINAL),
        # A player reports again, or another player of a pod agrees: still waiting.
        Status.REPORTED: (Status.REPORTED, Status.DISPUTED, Status.FINAL),
        # Another report that differs keeps it disputed; in a pod, reports changed to
        # agree while a player has yet to report take it back to waiting.
        Status.DISPUTED: (Status.DISPUTED, Status.REPORTED, Status.FINAL),
        Status.FINAL: (Status.FINAL,),  # an official overrides a final result
    }

    class Source(models.TextChoices):
        NONE = "", "—"
        BYE = "bye", _("Bye")
        CONFIRMED = "confirmed", _("Confirmed by both players")
        ORGANISER = "organiser", _("Entered by an organiser")
        TIME = "time", _("Time called")
        ENGINE = "engine", _("Decided by the rules engine")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    bracket_code = models.CharField(max_length=16, blank=True)
    best_of = models.PositiveSmallIntegerField(default=3)
    is_bye = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    result_source = models.CharField(max_length=20, choices=Source.choices, default="", blank=True)
    game_draws = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    objects = StatusQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="unique_table_per_round")
        ]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        from django.utils.translation import gettext

        return gettext("%(round)s table %(n)s") % {"round": self.round, "n": self.table}

    @property
    def is_final(self) -> bool:
        return self.status == self.Status.FINAL


class MatchSeat(models.Model):
    """One player's place in a match. N seats per match, so multiplayer games fit later."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    game_wins = models.PositiveSmallIntegerField(default=0)
    # Pod matches (events with more than two players per game): 1 = first; players on
    # equal terms share the better placement. Empty for two-player matches.
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)  # the game's own score, if it keeps one

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="unique_seat"),
            models.UniqueConstraint(fields=["round", "registration"], name="one_match_per_round"),
        ]


class Game(models.Model):
    """One game of a match, in order. ``winner_seat`` empty means a drawn game."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_game_number")
        ]


class ResultReport(models.Model):
    """What one player says the result was; the opponent confirms by reporting the same."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    games = models.JSONField(help_text="Winner seat of each game in order; null for a drawn game.")
    # Pod matches: the placement of each seat, in seat order (games is then empty).
    placements = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "registration"], name="one_report_per_player")
        ]


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        CREATE = "create", _("Event created")
        EDIT = "edit", _("Settings changed")
        STAFF = "staff", _("Staff changed")
        REGISTER = "register", _("Player added")
        TEAM = "team", _("Team added")
        LATE_ENTRY = "late_entry", _("Late entry")
        CHECK_IN = "check_in", _("Check-in")
        DROP = "drop", _("Drop")
        READD = "readd", _("Re-added")
        PAIR = "pair", _("Round paired")
        REPAIR = "repair", _("Round re-paired")
        SWAP = "swap", _("Pairing changed")
        PUBLISH = "publish", _("Round published")
        RESULT_OVERRIDE = "override", _("Result entered by organiser")
        DISPUTE = "dispute", _("Result disputed")
        TIME = "time", _("Time called")
        COMPLETE = "complete", _("Round completed")
        TOP_CUT = "top_cut", _("Top cut started")
        FINISH = "finish", _("Event finished")
        DECKLISTS = "decklists", _("Decklists locked")
        PENALTY = "penalty", _("Penalty issued")
        PENALTY_REVOKED = "penalty_revoked", _("Penalty revoked")
        PENALTY_TYPES = "penalty_types", _("Penalty types changed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    summary = models.CharField(max_length=300)  # the line in English, as the API gives it
    # The line as a message translated when shown, and its parameters (``audit_text``);
    # empty for entries written before them, which show their summary.
    message = models.CharField(max_length=300, blank=True, default="")
    params = models.JSONField(default=dict, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    @property
    def text(self) -> str:
        """The line in the reader's language."""
        from tournaments.audit_text import render

        return render(self.message, self.params, self.summary)


class StandingsSnapshot(models.Model):
    """Standings precomputed whenever results change, so public pages read one row."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings_snapshot")
    after_round = models.PositiveSmallIntegerField(default=0)
    ruleset = models.CharField(max_length=20)
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now=True)


class PenaltyType(models.Model):
    """One entry of an event's list of penalties a judge may issue: a name and what it
    does (``effect``). The list starts with the MTR's four (``services.penalties``)."""

    class Effect(models.TextChoices):
        WARNING = "warning", _("Warning: recorded only")
        GAME_LOSS = "game_loss", _("Game loss: the opponent wins a game")
        MATCH_LOSS = "match_loss", _("Match loss: the opponent wins the match")
        DISQUALIFICATION = "disqualification", _("Disqualification: the player is dropped")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalty_types")
    name = models.CharField(_("name"), max_length=60)
    effect = models.CharField(_("effect"), max_length=20, choices=Effect.choices)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_penalty_type_name")
        ]

    def __str__(self) -> str:
        return self.name


class Penalty(StatusPipeline, models.Model):
    """A penalty a judge issued to a player, in the judge's log of the event.

    ``name`` and ``effect`` are copied from the type when issued, so the log keeps what was
    issued whatever happens to the list later. A game or match loss that changed the match's
    result keeps the result it replaced (``result_before``) and the match's ``version``
    after the change (``match_version``): a revocation restores that result only while
    nobody has changed the match since. Seen by the event's officials only.
    """

    class Status(models.TextChoices):
        ISSUED = "issued", _("Issued")
        REVOKED = "revoked", _("Revoked")

    TRANSITIONS: dict[str, tuple[str, ...]] = {
        Status.ISSUED: (Status.REVOKED,),  # by an organiser (the head judge)
        Status.REVOKED: (),
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    penalty_type = models.ForeignKey(
        PenaltyType, on_delete=models.PROTECT, related_name="penalties"
    )
    name = models.CharField(max_length=60)
    effect = models.CharField(max_length=20, choices=PenaltyType.Effect.choices)
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="penalties"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveIntegerField(null=True, blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=500)
    # What the penalty did (and what revoking it did): the English line, and its message
    # and parameters, shown in the reader's language (``outcome_line``); rows from before
    # the messages were kept show the English (decision 0066).
    outcome = models.CharField(max_length=300, blank=True)
    outcome_message = models.CharField(max_length=300, blank=True, default="")
    outcome_params = models.JSONField(blank=True, default=dict)
    result_before = models.JSONField(null=True, blank=True)
    match_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ISSUED)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoke_note = models.CharField(max_length=300, blank=True)
    revoke_outcome = models.CharField(max_length=300, blank=True)
    revoke_message = models.CharField(max_length=300, blank=True, default="")
    revoke_params = models.JSONField(blank=True, default=dict)

    objects = StatusQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.name}: {self.registration}"

    @property
    def is_revoked(self) -> bool:
        return self.status == self.Status.REVOKED

    @property
    def outcome_line(self) -> str:
        """What the penalty did, in the active language (the English of older rows)."""
        from tournaments.audit_text import render

        return render(self.outcome_message, self.outcome_params, self.outcome)

    @property
    def revoke_outcome_line(self) -> str:
        """What revoking it did, in the active language (the English of older rows)."""
        from tournaments.audit_text import render

        return render(self.revoke_message, self.revoke_params, self.revoke_outcome)


class PlayerRating(models.Model):
    """A player's OpenSkill rating in one game system (``tournaments.ratings``): ``mu`` and
    ``sigma``, and ``ordinal`` (``mu - 3 sigma``) that is shown and ranked by."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game_system = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_system", "-ordinal", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game_system"], name="one_rating_per_game")
        ]
        indexes = [models.Index(fields=["game_system", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} {self.game_system}: {self.ordinal:.1f}"


class RatedMatch(models.Model):
    """A final match whose result is in the ratings: one row per match, so a match is never
    counted twice (a second run of the rating task finds the row and changes nothing)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="rated")
    game_system = models.CharField(max_length=40)
    rated_at = models.DateTimeField(auto_now_add=True)


class Series(models.Model):
    """A season or league: several events whose finishes add up to one table
    (``tournaments.seasons``). ``points`` is the points table: ``places`` a list of
    ``[last place, points]`` in order (e.g. ``[[1, 10], [2, 7], [4, 5], [8, 3]]``) and
    ``participation`` the points for any other finish. Its creator manages it
    (``services.series``), adding only events they organise."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=140, unique=True)
    description = models.TextField(_("description"), blank=True)
    points = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    events = models.ManyToManyField(Event, through="SeriesEvent", related_name="series")

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "added_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="one_entry_per_series_event")
        ]


class SeriesAuditEntry(models.Model):
    """Who changed a series, when and how (created, edited, an event added or removed)."""

    class Action(models.TextChoices):
        CREATE = "create", _("Series created")
        EDIT = "edit", _("Series changed")
        ADD_EVENT = "add_event", _("Event added")
        REMOVE_EVENT = "remove_event", _("Event removed")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    summary = models.CharField(max_length=300)  # the line in English
    message = models.CharField(max_length=300, blank=True, default="")  # as ``AuditEntry``
    params = models.JSONField(default=dict, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "series audit entries"

    @property
    def text(self) -> str:
        """The line in the reader's language."""
        from tournaments.audit_text import render

        return render(self.message, self.params, self.summary)
