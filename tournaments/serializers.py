"""Serializers of the REST API (``tournaments.api``).

They shape data in and out and never save: every change goes through a
``tournaments.services`` function, called by the viewset with the validated data.
What a reader may see is decided here from the ``request`` in the context:

* decklist text only to its owner and the event's organisers and judges
  (``DecklistSerializer`` is only ever used by the decklist endpoint, which checks);
* players' pending result reports only to the match's players and the officials;
* a player's drop reason only to that player and the officials.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import (
    AuditEntry,
    Decklist,
    Event,
    Match,
    MatchSeat,
    Penalty,
    PenaltyType,
    PlayerRating,
    Registration,
    ResultReport,
    Round,
)
from tournaments.services.events import EDITABLE_FIELDS
from tournaments.services.permissions import is_official
from tournaments.standings import RULESETS


class ErrorSerializer(serializers.Serializer):
    """The body of every refusal: 400, 401, 403, 404 and 409."""

    detail = serializers.CharField()


def _user(serializer: serializers.Serializer):
    request = serializer.context.get("request")
    return getattr(request, "user", None)


def _is_official(serializer: serializers.Serializer, event_of: Callable[[], Event]) -> bool:
    # The viewsets put the event in the context, so its staff is looked up once per request.
    event = serializer.context.get("event") or event_of()
    return is_official(_user(serializer), event)


# ---------------------------------------------------------------- events


EVENT_FIELDS = [
    "slug",
    "name",
    "game_system",
    "format",
    "structure",
    "players_per_game",
    "swiss_rounds",
    "top_cut",
    "best_of",
    "grand_final_reset",
    "allow_split_finals",
    "seeding",
    "round_minutes",
    "tiebreaks",
    "starts_at",
    "location",
    "description",
    "max_players",
    "decklist_deadline",
    "auto_advance",
    "is_public",
    "status",
    "phase",
    "player_count",
    "created_at",
    "updated_at",
]


class EventSerializer(serializers.ModelSerializer):
    """An event's settings and state. The slug is made from the name when not given.

    The pairing seed, the bracket's internals and the decklists are not part of it.
    """

    tiebreaks = serializers.ChoiceField(choices=sorted(RULESETS), required=False)
    player_count = serializers.SerializerMethodField(
        help_text=_("Players registered and not dropped.")
    )

    class Meta:
        model = Event
        fields = EVENT_FIELDS
        read_only_fields = ["status", "phase", "created_at", "updated_at"]
        extra_kwargs = {
            "slug": {"required": False},
            # Left out: the registry's first game and that game's first format.
            "game_system": {
                "required": False,
                "help_text": _("A registered game system; default: the first registered."),
            },
            "format": {
                "required": False,
                "help_text": _("One of the game's formats; default: its first."),
            },
        }

    def get_player_count(self, event: Event) -> int:
        count = getattr(event, "player_count", None)
        if count is None:
            count = event.registrations.exclude(status=Registration.Status.DROPPED).count()
        return count


class EventUpdateSerializer(EventSerializer):
    """The settings an organiser may change (``PATCH``); the slug is fixed once created."""

    player_count = None  # not part of the request

    class Meta(EventSerializer.Meta):
        fields = list(EDITABLE_FIELDS)
        read_only_fields: list[str] = []
        extra_kwargs: dict = {}


# ---------------------------------------------------------------- players


class RegistrationSerializer(serializers.ModelSerializer):
    is_me = serializers.SerializerMethodField(
        help_text=_("This registration is the caller's (or the caller's team's).")
    )
    members = serializers.SerializerMethodField(
        help_text=_("A team's members' usernames in seat order; empty for a single player.")
    )
    has_decklist = serializers.SerializerMethodField()
    drop_reason = serializers.SerializerMethodField(
        help_text=_("Shown to the player and the event's organisers and judges only.")
    )
    fixed_table = serializers.SerializerMethodField(
        help_text=_(
            "A table the player always sits at (for access); shown to the player and the "
            "event's organisers and judges only."
        )
    )

    class Meta:
        model = Registration
        fields = [
            "id",
            "display_name",
            "status",
            "first_round",
            "dropped_after_round",
            "drop_reason",
            "fixed_table",
            "is_bot",
            "is_me",
            "members",
            "has_decklist",
            "created_at",
        ]
        read_only_fields = fields

    def _is_own(self, reg: Registration) -> bool:
        uid = getattr(_user(self), "pk", None)
        if uid is None:
            return False
        return reg.user_id == uid or any(m.user_id == uid for m in reg.members.all())

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_members(self, reg: Registration) -> list[str]:
        return [m.user.get_username() for m in reg.members.all()]

    def get_is_me(self, reg: Registration) -> bool:
        return self._is_own(reg)

    def get_has_decklist(self, reg: Registration) -> bool:
        return hasattr(reg, "decklist")

    def get_drop_reason(self, reg: Registration) -> str | None:
        if self._is_own(reg) or _is_official(self, lambda: reg.event):
            return reg.drop_reason
        return None

    def get_fixed_table(self, reg: Registration) -> int | None:
        if self._is_own(reg) or _is_official(self, lambda: reg.event):
            return reg.fixed_table
        return None


class FixedTableSerializer(serializers.Serializer):
    fixed_table = serializers.IntegerField(
        min_value=1,
        max_value=9999,
        allow_null=True,
        help_text=_("The table the player always sits at from the next pairing on; null: none."),
    )


class RegisterSelfSerializer(serializers.Serializer):
    display_name = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text=_("Name shown in pairings; your full name or username when empty."),
    )


class AddPlayerSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text=_("Account of the player, if they have one."),
    )
    display_name = serializers.CharField(max_length=80, required=False, allow_blank=True)

    def validate(self, attrs):
        if (
            not (attrs.get("username") or "").strip()
            and not (attrs.get("display_name") or "").strip()
        ):
            raise serializers.ValidationError(_("Give a username, a display name, or both."))
        return attrs


class ReplaceMemberSerializer(serializers.Serializer):
    member = serializers.CharField(
        max_length=150, help_text=_("The username of the member who leaves the team.")
    )
    replacement = serializers.CharField(
        max_length=150, help_text=_("The username of the player who takes their place.")
    )


class RegisterTeamSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, help_text=_("The team's name in pairings."))
    partners = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        max_length=8,
        help_text=_("Registering your own team: your partners' usernames."),
    )
    members = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        max_length=8,
        help_text=_("Every member's username in seat order (organisers and judges)."),
    )

    def validate(self, attrs):
        if ("partners" in attrs) == ("members" in attrs):
            raise serializers.ValidationError(_("Give either partners or members."))
        return attrs


class DropSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class DecklistProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(
        help_text='The broken rule (e.g. "4.5.1.4"); empty for a problem of the text.'
    )
    message = serializers.CharField()
    line = serializers.IntegerField(
        allow_null=True, help_text="The line of the text, for unreadable lines."
    )
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Card ids concerned."
    )


class DecklistSerializer(serializers.ModelSerializer):
    problems = DecklistProblemSerializer(many=True, read_only=True)

    class Meta:
        model = Decklist
        fields = ["text", "submitted_at", "updated_at", "locked", "is_legal", "problems"]
        read_only_fields = ["submitted_at", "updated_at", "locked", "is_legal", "problems"]
        extra_kwargs = {
            "text": {"max_length": 20000, "trim_whitespace": True},
            "is_legal": {"help_text": "Legal for the event's format; null: not checked."},
        }


class MemberDeckSerializer(serializers.Serializer):
    member = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text=_("The member's username (officials); yourself when empty."),
    )
    text = serializers.CharField(max_length=20000, write_only=True)


class MemberDeckOutSerializer(serializers.Serializer):
    member = serializers.CharField(source="user.username")
    text = serializers.CharField(source="deck")
    is_legal = serializers.BooleanField(source="deck_is_legal", allow_null=True)
    problems = DecklistProblemSerializer(source="deck_problems", many=True)


# ---------------------------------------------------------------- rounds and matches


class RoundSerializer(serializers.ModelSerializer):
    matches = serializers.IntegerField(source="match_count", read_only=True)
    results_missing = serializers.IntegerField(
        source="open_count", read_only=True, help_text=_("Matches without a final result.")
    )

    class Meta:
        model = Round
        fields = [
            "number",
            "kind",
            "title",
            "status",
            "published_at",
            "ends_at",
            "completed_at",
            "matches",
            "results_missing",
        ]
        read_only_fields = fields


class SeatSerializer(serializers.ModelSerializer):
    registration = serializers.IntegerField(source="registration_id", read_only=True)
    name = serializers.CharField(source="registration.display_name", read_only=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "registration", "name", "game_wins", "placement", "score"]
        extra_kwargs = {
            "placement": {
                "help_text": _("Pods: 1 = first; tied players share a placement. Null otherwise.")
            },
            "score": {
                "help_text": _("Pods: the game's own score (e.g. honor), when it keeps one.")
            },
        }
        read_only_fields = fields


class ReportSerializer(serializers.ModelSerializer):
    registration = serializers.IntegerField(source="registration_id", read_only=True)
    games = serializers.ListField(child=serializers.IntegerField(allow_null=True), read_only=True)
    placements = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        allow_null=True,
        help_text=_("Pods: the placement reported for each seat, in seat order; null otherwise."),
    )

    class Meta:
        model = ResultReport
        fields = ["registration", "games", "placements", "created_at"]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    winner = serializers.IntegerField(
        source="winner_id",
        read_only=True,
        allow_null=True,
        help_text=_("Registration id of the match winner; null for a draw or no result yet."),
    )
    seats = SeatSerializer(many=True, read_only=True)
    games = serializers.SerializerMethodField(
        help_text=_("Winner seat of each game played, in order; null for a drawn game.")
    )
    reports = serializers.SerializerMethodField(
        help_text=_(
            "What each player reported. Only the match's players and the event's organisers "
            "and judges see them; null for everyone else."
        )
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "round",
            "table",
            "bracket_code",
            "best_of",
            "is_bye",
            "status",
            "result_source",
            "seats",
            "game_draws",
            "winner",
            "games",
            "reports",
            "finished_at",
            "version",
        ]
        read_only_fields = fields

    @extend_schema_field(
        serializers.ListField(child=serializers.IntegerField(allow_null=True), allow_empty=True)
    )
    def get_games(self, match: Match) -> list[int | None]:
        return [game.winner_seat for game in match.games.all()]

    @extend_schema_field(ReportSerializer(many=True, allow_null=True))
    def get_reports(self, match: Match):
        user = _user(self)
        uid = getattr(user, "pk", None)
        plays = uid is not None and any(
            seat.registration.user_id == uid for seat in match.seats.all()
        )
        if not plays and not _is_official(self, lambda: match.round.event):
            return None
        return ReportSerializer(match.reports.all(), many=True).data


class PairingTableSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=1,
        max_length=2,
        help_text=_("Registration ids: two for a match (seat 0 first), one for a bye."),
    )
    table = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text=_(
            "Table number; left out or null: the lowest number not given to another table."
        ),
    )


class PairingsSerializer(serializers.Serializer):
    """Every table of a draft Swiss round, set by hand."""

    tables = serializers.ListField(
        child=PairingTableSerializer(),
        min_length=1,
        max_length=2048,
        help_text=_(
            "Every player who may play the round, each at exactly one table: "
            '[{"players": [12, 7], "table": 1}, {"players": [3]}] pairs 12 with 7 at table 1 '
            "and gives 3 a bye."
        ),
    )


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(min_value=1, help_text=_("Registration id."))
    second = serializers.IntegerField(min_value=1, help_text=_("Registration id."))


class GamesSerializer(serializers.Serializer):
    games = serializers.ListField(
        child=serializers.IntegerField(allow_null=True, min_value=0),
        max_length=10,
        help_text=_(
            "The seat (0 or 1) of the winner of each game in the order played; null for a drawn "
            "game. A best-of-3 won 2–1 by seat 0 after losing the first game: [1, 0, 0]."
        ),
    )


class PlacementsSerializer(serializers.Serializer):
    placements = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=4),
        min_length=2,
        max_length=4,
        help_text=_(
            "Pods: the placement of each seat in seat order, 1 = first. Tied players share the "
            "better placement and the next is skipped: [2, 1, 1, 4] or [1, 3, 2, 4]."
        ),
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        max_length=4,
        help_text=_(
            "Optional, officials only: each seat's final score (e.g. honor), in seat order."
        ),
    )


class ResultSerializer(serializers.Serializer):
    """The body of a result: ``games`` for a two-player match, ``placements`` for a pod."""

    games = serializers.ListField(
        child=serializers.IntegerField(allow_null=True, min_value=0),
        required=False,
        max_length=10,
        help_text=GamesSerializer().fields["games"].help_text,
    )
    placements = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=4),
        required=False,
        help_text=PlacementsSerializer().fields["placements"].help_text,
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text=PlacementsSerializer().fields["scores"].help_text,
    )


# ---------------------------------------------------------------- standings and audit


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(help_text=_("Registration id."))
    name = serializers.CharField()
    points = serializers.IntegerField(
        help_text=_("Match points; placement points for events with pods.")
    )
    # Two-player events:
    wins = serializers.IntegerField(required=False)
    losses = serializers.IntegerField(required=False)
    draws = serializers.IntegerField(required=False)
    matches = serializers.IntegerField(required=False)
    byes = serializers.IntegerField(required=False)
    mw = serializers.FloatField(required=False, help_text=_("Match-win percentage, 0–1."))
    gw = serializers.FloatField(required=False, help_text=_("Game-win percentage, 0–1."))
    omw = serializers.FloatField(
        required=False, help_text=_("Opponents' match-win percentage, 0–1.")
    )
    ogw = serializers.FloatField(
        required=False, help_text=_("Opponents' game-win percentage, 0–1.")
    )
    oomw = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text=_("Opponents' opponents' match-win percentage (Pokémon)."),
    )
    playoff_finish = serializers.IntegerField(required=False, allow_null=True)
    # Events with pods (ruleset "placement"):
    pods = serializers.IntegerField(required=False, help_text=_("Pods played."))
    firsts = serializers.IntegerField(
        required=False, help_text=_("First places, shared ones included.")
    )
    average_placement = serializers.FloatField(
        required=False, help_text=_("Mean placement, 1 = always first; 0 before the first pod.")
    )
    opponents_average = serializers.FloatField(
        required=False,
        help_text=_("Mean placement points per pod of every player met in a pod."),
    )
    dropped = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField(
        help_text=_(
            "Completed rounds the standings include; the results entered so far in a round "
            "being played are counted too."
        )
    )
    ruleset = serializers.CharField(
        help_text=_(
            "The tiebreak ruleset of a two-player event (rows with match points and tiebreak "
            'percentages), or "placement" for an event with pods of 3-4 players (rows with '
            "placement points: 4/2/1/0, 4/2/0 or 4/0, and the pod columns)."
        )
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    rows = StandingsRowSerializer(many=True)


class RatingSerializer(serializers.ModelSerializer):
    rank = serializers.IntegerField(read_only=True, help_text=_("1 = the best rating."))
    player = serializers.CharField(source="user.username", read_only=True)
    rating = serializers.FloatField(
        source="ordinal",
        read_only=True,
        help_text=_("The conservative estimate mu - 3 sigma, ranked by (OpenSkill)."),
    )

    class Meta:
        model = PlayerRating
        fields = ["rank", "player", "rating", "mu", "sigma", "matches", "updated_at"]
        read_only_fields = fields


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    message = serializers.CharField(
        read_only=True,
        help_text=_(
            "The line's message key: its English text with %(name)s placeholders (the "
            'msgid of the catalogue); "" for entries written before lines were kept so.'
        ),
    )
    params = serializers.JSONField(
        read_only=True,
        help_text=_(
            "The values of the message's placeholders, as data: a name or a number as "
            'it is, a round as {"@round": number, "title": title}, a line within the '
            'line as {"@line": message, "params": {...}}, a term as {"@term": msgid}.'
        ),
    )
    summary = serializers.CharField(
        source="text",
        read_only=True,
        help_text=_(
            "The line in the request's language (Accept-Language, the language cookie); "
            "the English line as it was written for entries without a message."
        ),
    )
    data = serializers.JSONField(read_only=True)

    class Meta:
        model = AuditEntry
        fields = ["id", "created_at", "actor", "action", "message", "params", "summary", "data"]
        read_only_fields = fields


# ---------------------------------------------------------------- penalties


class PenaltyTypeSerializer(serializers.ModelSerializer):
    effect = serializers.ChoiceField(
        choices=PenaltyType.Effect.choices,
        help_text=_(
            "What it does: warning (recorded only), game_loss (the opponent wins a game), "
            "match_loss (the opponent wins the match), disqualification (the player is "
            "dropped)."
        ),
    )

    class Meta:
        model = PenaltyType
        fields = ["id", "name", "effect"]
        read_only_fields = ["id"]
        extra_kwargs = {"name": {"max_length": 60, "validators": []}}


class PenaltySerializer(serializers.ModelSerializer):
    """A penalty of the judge's log, as the event's officials see it."""

    player = serializers.IntegerField(source="registration_id", help_text=_("Registration id."))
    # In the request's language (Accept-Language, the language cookie), as the audit log's
    # lines; the stored English stays on the row (decision 0067).
    outcome = serializers.CharField(
        source="outcome_line",
        read_only=True,
        help_text=_(
            "What the penalty did to the match or the player, in the request's language "
            "(Accept-Language, the language cookie)."
        ),
    )
    revoke_outcome = serializers.CharField(
        source="revoke_outcome_line",
        read_only=True,
        help_text=_(
            "What revoking it put back, or what the organiser must fix, in the request's language."
        ),
    )
    player_name = serializers.CharField(source="registration.display_name")
    penalty_type = serializers.IntegerField(source="penalty_type_id")
    match = serializers.IntegerField(source="match_id", allow_null=True)
    judge = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    revoked_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Penalty
        fields = [
            "id",
            "penalty_type",
            "name",
            "effect",
            "player",
            "player_name",
            "match",
            "round_number",
            "table",
            "judge",
            "reason",
            "outcome",
            "status",
            "created_at",
            "revoked_at",
            "revoked_by",
            "revoke_note",
            "revoke_outcome",
        ]
        read_only_fields = fields


class IssuePenaltySerializer(serializers.Serializer):
    penalty_type = serializers.IntegerField(
        min_value=1, help_text=_("A penalty type of the event's list.")
    )
    player = serializers.IntegerField(min_value=1, help_text=_("Registration id."))
    match = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text=_("The match it happened in; required for a game or match loss."),
    )
    reason = serializers.CharField(max_length=500)


class RevokePenaltySerializer(serializers.Serializer):
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
