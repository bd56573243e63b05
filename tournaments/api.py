"""REST API of the tournaments app (Django REST framework), mounted under ``/api/``.

Every change goes through one ``tournaments.services`` function, which checks who
may act; the viewsets only parse, look up and serialise. Endpoints (``<slug>`` is
the event's address, see ``tournaments.api_urls``)::

    POST  /api/token/                                    username + password -> token
    GET   /api/events/                                   public events (+ those you staff)
    POST  /api/events/                                   create; you become its organiser
    GET   /api/events/<slug>/
    PATCH /api/events/<slug>/                            organisers: change settings
    POST  /api/events/<slug>/start/                      organisers: close registration
    GET   /api/events/<slug>/standings/                  the precomputed standings
    GET   /api/events/<slug>/printouts/<kind>/           a PDF (tournaments.printouts)
    GET   /api/events/<slug>/audit/                      organisers: the audit log
    GET   /api/events/<slug>/registrations/              the players
    POST  /api/events/<slug>/registrations/              register yourself
    POST  /api/events/<slug>/registrations/add/          organisers/judges: add a player
    POST  /api/events/<slug>/registrations/team/         a team format: register a team
    GET   /api/events/<slug>/registrations/<id>/
    PATCH /api/events/<slug>/registrations/<id>/         organisers: {"fixed_table": 5}
    POST  /api/events/<slug>/registrations/<id>/check-in/
    POST  /api/events/<slug>/registrations/<id>/drop/
    POST  /api/events/<slug>/registrations/<id>/readd/   organisers/judges
    GET   /api/events/<slug>/registrations/<id>/decklist/  the player and officials only
    PUT   /api/events/<slug>/registrations/<id>/decklist/
    GET   /api/events/<slug>/registrations/<id>/decks/   a team's members' own decks
    PUT   /api/events/<slug>/registrations/<id>/decks/   a member's own deck
    POST  /api/events/<slug>/registrations/<id>/replace-member/  organisers, before the start
    GET   /api/events/<slug>/rounds/                     rounds with their status
    POST  /api/events/<slug>/rounds/                     organisers: pair the next round
    GET   /api/events/<slug>/rounds/<number>/
    POST  /api/events/<slug>/rounds/<number>/publish/    organisers
    POST  /api/events/<slug>/rounds/<number>/repair/     organisers: pair a draft again
    POST  /api/events/<slug>/rounds/<number>/call-time/  organisers/judges
    GET   /api/events/<slug>/rounds/<number>/pairings/   matches with seats and scores
    PUT   /api/events/<slug>/rounds/<number>/pairings/   organisers: set a draft round's tables
    PATCH /api/events/<slug>/rounds/<number>/pairings/   organisers: swap two players' seats
    GET   /api/events/<slug>/matches/<id>/
    POST  /api/events/<slug>/matches/<id>/report/        a player: {"games": [0, 1, null]}
    POST  /api/events/<slug>/matches/<id>/confirm/       the opponent agrees
    POST  /api/events/<slug>/matches/<id>/result/        organisers/judges: enter/override
    GET   /api/events/<slug>/penalty-types/              organisers/judges: the penalty list
    POST  /api/events/<slug>/penalty-types/              organisers: add a penalty to it
    DELETE /api/events/<slug>/penalty-types/<id>/        organisers: remove one never issued
    GET   /api/events/<slug>/penalties/                  organisers/judges: the judge's log
    POST  /api/events/<slug>/penalties/                  organisers/judges: issue a penalty
    GET   /api/events/<slug>/penalties/<id>/             organisers/judges
    POST  /api/events/<slug>/penalties/<id>/revoke/      organisers
    GET   /api/ratings/<game>/                           a game's leaderboard (OpenSkill)

Hidden information: draft rounds (and their pairings and matches) are seen by the
event's organisers and judges only; decklists by their owner and the officials;
pending result reports by the match's players and the officials; penalties by the
officials only.

Errors always have the body ``{"detail": "<message>"}`` (field errors of a request
body keep DRF's ``{"field": ["message"]}`` form). :func:`exception_handler` maps
the service errors (``tournaments.services.errors``), so the viewsets need no
``try``/``except``:

* ``errors.NotAllowed`` -> **403** (**401** when nobody is logged in);
* ``results.ResultError`` -> **400**: the games sent cannot have happened
  (``[0, 0, 0]`` in a best-of-3);
* ``errors.PairingError`` -> **400**: pairings sent by hand that cannot be used (a player
  missing or seated twice, a table number used twice);
* ``errors.TournamentError`` -> **409 Conflict** for the actions listed in the
  viewset's ``conflict_actions``: there the request itself was checked before the
  service was called (or carries nothing to check), so a refusal can only come
  from the state of the event, e.g. pairing while the round "still has 2
  result(s) missing", reporting a match that "already has a final result",
  publishing a round twice, registering for a full event;
* ``errors.TournamentError`` elsewhere (creating or editing an event) -> **400**;
* an unknown event, round, match or player -> **404**; malformed JSON -> **400**
  (DRF's ``ParseError``); a missing login for a change -> **401**.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from engine.core import registry
from tournaments.models import (
    AuditEntry,
    Decklist,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Penalty,
    PenaltyType,
    PlayerRating,
    Registration,
    Round,
    StandingsSnapshot,
)
from tournaments.results import ResultError, check_placements, evaluate
from tournaments.serializers import (
    AddPlayerSerializer,
    AuditEntrySerializer,
    DecklistSerializer,
    DropSerializer,
    ErrorSerializer,
    EventSerializer,
    EventUpdateSerializer,
    FixedTableSerializer,
    GamesSerializer,
    IssuePenaltySerializer,
    MatchSerializer,
    MemberDeckOutSerializer,
    MemberDeckSerializer,
    PairingsSerializer,
    PenaltySerializer,
    PenaltyTypeSerializer,
    PlacementsSerializer,
    RatingSerializer,
    RegisterSelfSerializer,
    RegisterTeamSerializer,
    RegistrationSerializer,
    ReplaceMemberSerializer,
    ResultSerializer,
    RevokePenaltySerializer,
    RoundSerializer,
    StandingsSerializer,
    SwapSerializer,
)
from tournaments.services import ratings
from tournaments.services.brackets import split_allowed
from tournaments.services.decklists import submit_decklist, submit_member_deck
from tournaments.services.errors import NotAllowed, PairingError, TournamentError
from tournaments.services.events import create_event, update_event
from tournaments.services.pairing import (
    pair_next_round,
    publish_round,
    repair_round,
    set_fixed_table,
    set_pairings,
    swap_players,
)
from tournaments.services.penalties import (
    add_penalty_type,
    issue_penalty,
    penalties_of,
    penalty_types,
    remove_penalty_type,
    revoke_penalty,
)
from tournaments.services.permissions import (
    check_official,
    check_organiser,
    is_official,
    plays_for,
)
from tournaments.services.placements import enter_placements, report_placements
from tournaments.services.players import check_in, drop, readd, register
from tournaments.services.results import (
    call_time,
    check_recorded_games,
    confirm_result,
    enter_result,
    report_result,
)
from tournaments.services.standings import PLACEMENT_RULESET
from tournaments.services.starting import start_event
from tournaments.services.teams import find_player, register_team, replace_member

# ---------------------------------------------------------------- errors


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the event."
    default_code = "conflict"


class Refused(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "The request cannot be carried out."
    default_code = "invalid"


def exception_handler(exc, context):
    """DRF's handler, plus the service errors mapped to statuses (see the module docstring)."""
    view = context.get("view")
    request = context.get("request")
    if isinstance(exc, NotAllowed):
        user = getattr(request, "user", None)
        if user is not None and not user.is_authenticated:
            exc = exceptions.NotAuthenticated()
            header = view.get_authenticate_header(request) if view is not None else None
            if header:
                exc.auth_header = header
            else:
                exc.status_code = status.HTTP_403_FORBIDDEN
        else:
            exc = exceptions.PermissionDenied(str(exc))
    elif isinstance(exc, ResultError | PairingError):
        exc = Refused(str(exc))
    elif isinstance(exc, TournamentError):
        action_name = getattr(view, "action", None)
        if action_name is not None and action_name in getattr(view, "conflict_actions", ()):
            exc = Conflict(str(exc))
        else:
            exc = Refused(str(exc))
    return drf_exception_handler(exc, context)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "Invalid request, or the result cannot have happened.",
        401: "Not logged in.",
        403: "Not allowed for this user.",
        404: "No such event (or round, match, player).",
        409: "Refused in the current state of the event.",
    }
    return {
        code: OpenApiResponse(response=ErrorSerializer, description=descriptions[code])
        for code in codes
    }


# ---------------------------------------------------------------- base


class ApiMixin:
    # Token first: an anonymous change is then answered 401 with "WWW-Authenticate: Token".
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    conflict_actions: frozenset[str] = frozenset()


class EventScopedMixin(ApiMixin):
    """Views under ``/api/events/<event_slug>/``."""

    def get_event(self) -> Event:
        if not hasattr(self, "_event"):
            self._event = _event_or_404(self.kwargs["event_slug"])
        return self._event

    def is_official(self) -> bool:
        return is_official(self.request.user, self.get_event())

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "event_slug" in getattr(self, "kwargs", {}):
            context["event"] = self.get_event()
        return context


def _no_event(slug: str) -> exceptions.NotFound:
    return exceptions.NotFound(_("There is no event at the address %(slug)s.") % {"slug": slug})


def _event_or_404(slug: str) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise _no_event(slug)
    return event


def _fake(view) -> bool:
    """True while drf-spectacular builds the schema (no URL arguments then)."""
    return getattr(view, "swagger_fake_view", False)


# ---------------------------------------------------------------- events


@extend_schema_view(
    list=extend_schema(summary="List events", description="Public events, and those you staff."),
    retrieve=extend_schema(summary="An event", responses={200: EventSerializer, **_errors(404)}),
)
class EventViewSet(
    ApiMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = EventSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"
    http_method_names = ["get", "post", "patch", "head", "options"]
    conflict_actions = frozenset({"start"})

    def get_queryset(self):
        events = Event.objects.annotate(
            player_count=Count(
                "registrations", filter=~Q(registrations__status=Registration.Status.DROPPED)
            )
        ).order_by("-created_at", "pk")
        if self.action == "list":
            user = self.request.user
            visible = Q(is_public=True)
            if user.is_authenticated:
                staffed = EventStaff.objects.filter(user=user).values("event_id")
                visible |= Q(pk__in=staffed)
            events = events.filter(visible)
        return events

    def get_object(self) -> Event:
        slug = self.kwargs["slug"]
        event = self.get_queryset().filter(slug=slug).first()
        if event is None:
            raise _no_event(slug)
        return event

    @extend_schema(
        summary="Create an event",
        description="Any logged-in user; they become its organiser.",
        request=EventSerializer,
        responses={201: EventSerializer, **_errors(400, 401)},
    )
    def create(self, request, *args, **kwargs):
        serializer = EventSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        event = create_event(request.user, **serializer.validated_data)
        return Response(self._out(event), status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change an event's settings",
        description="Organisers only. Some settings are frozen once the event has started.",
        request=EventUpdateSerializer,
        responses={200: EventSerializer, **_errors(400, 401, 403, 404)},
    )
    def partial_update(self, request, *args, **kwargs):
        event = self.get_object()
        check_organiser(request.user, event)  # 403 before any validation
        serializer = EventUpdateSerializer(
            event, data=request.data, partial=True, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        event = update_event(request.user, event, **serializer.validated_data)
        return Response(self._out(event))

    @extend_schema(
        summary="Start the event",
        description=(
            "Organisers only. Closes registration; if anyone checked in, players who did "
            "not are dropped."
        ),
        request=None,
        responses={200: EventSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def start(self, request, *args, **kwargs):
        event = start_event(request.user, self.get_object())
        return Response(self._out(event))

    def _out(self, event: Event) -> dict:
        fresh = Event.objects.annotate(
            player_count=Count(
                "registrations", filter=~Q(registrations__status=Registration.Status.DROPPED)
            )
        ).get(pk=event.pk)
        return EventSerializer(fresh, context=self.get_serializer_context()).data


class StandingsView(ApiMixin, APIView):
    @extend_schema(
        summary="Standings",
        description=(
            "The standings after the last completed round, with every tiebreak figure of "
            "the event's ruleset. Empty rows before the event starts."
        ),
        responses={200: StandingsSerializer, **_errors(404)},
    )
    def get(self, request, event_slug: str):
        event = _event_or_404(event_slug)
        snapshot = StandingsSnapshot.objects.filter(event=event).first()
        if snapshot is None:
            ruleset = PLACEMENT_RULESET if event.uses_pods else event.tiebreaks
            data = {"after_round": 0, "ruleset": ruleset, "computed_at": None, "rows": []}
        elif snapshot.ruleset == PLACEMENT_RULESET:
            data = {
                "after_round": snapshot.after_round,
                "ruleset": snapshot.ruleset,
                "computed_at": snapshot.computed_at,
                "rows": snapshot.rows,
            }
        else:
            data = {
                "after_round": snapshot.after_round,
                "ruleset": snapshot.ruleset,
                "computed_at": snapshot.computed_at,
                "rows": [{"oomw": None, "playoff_finish": None, **row} for row in snapshot.rows],
            }
        return Response(StandingsSerializer(data).data)


@extend_schema_view(
    list=extend_schema(
        summary="A game's leaderboard",
        description=(
            "Players' ratings in one game system (its registry key), best first: OpenSkill "
            "(Plackett-Luce) over every final match, ranked by mu - 3 sigma."
        ),
        responses={200: RatingSerializer(many=True), **_errors(404)},
    )
)
class RatingViewSet(ApiMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = RatingSerializer

    def get_queryset(self):
        if _fake(self):
            return PlayerRating.objects.none()
        game_system = self.kwargs["game_system"]
        try:
            registry.get(game_system)
        except registry.UnknownGameSystem:
            raise exceptions.NotFound(
                _("There is no game %(game)s.") % {"game": game_system}
            ) from None
        return ratings.leaderboard(game_system).annotate(
            rank=Window(RowNumber(), order_by=ratings.LEADERBOARD_ORDER)
        )


@extend_schema_view(
    list=extend_schema(
        summary="Audit log",
        description=(
            "Organisers only; newest first. Each line comes as its message key and "
            "parameters and as ``summary``, rendered in the request's language "
            "(``Accept-Language``, the language cookie); entries written before lines "
            "were kept as messages give their English line."
        ),
        parameters=[
            OpenApiParameter(
                "Accept-Language",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description='The language of ``summary``: "en" (the default) or "ru".',
            )
        ],
        responses={200: AuditEntrySerializer(many=True), **_errors(401, 403, 404)},
    )
)
class AuditViewSet(EventScopedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = AuditEntrySerializer

    def get_queryset(self):
        if _fake(self):
            return AuditEntry.objects.none()
        event = self.get_event()
        check_organiser(self.request.user, event)
        return event.audit.select_related("actor").order_by("-created_at", "-pk")


# ---------------------------------------------------------------- players


@extend_schema_view(
    list=extend_schema(summary="Players of an event", responses={200: RegistrationSerializer}),
    retrieve=extend_schema(
        summary="A player", responses={200: RegistrationSerializer, **_errors(404)}
    ),
)
class RegistrationViewSet(
    EventScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = RegistrationSerializer
    lookup_value_converter = "int"
    conflict_actions = frozenset(
        {
            "create",
            "add",
            "team",
            "check_in",
            "drop",
            "readd",
            "decklist",
            "decks",
            "replace_member",
        }
    )

    def get_queryset(self):
        if _fake(self):
            return Registration.objects.none()
        return (
            self.get_event()
            .registrations.select_related("decklist")
            .prefetch_related("members__user")
            .order_by("display_name", "pk")
        )

    def _out(self, reg: Registration, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=reg.pk)
        return Response(self.get_serializer(fresh).data, status=code)

    @extend_schema(
        summary="Register yourself",
        request=RegisterSelfSerializer,
        responses={201: RegistrationSerializer, **_errors(400, 401, 404, 409)},
    )
    def create(self, request, *args, **kwargs):
        body = RegisterSelfSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reg = register(
            self.get_event(),
            user=request.user,
            display_name=body.validated_data.get("display_name", ""),
        )
        return self._out(reg, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Add a player",
        description=(
            "Organisers and judges. With a username the registration belongs to that "
            "account; without one it is a guest entry. During the Swiss this is a late entry."
        ),
        request=AddPlayerSerializer,
        responses={201: RegistrationSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=False, methods=["post"])
    def add(self, request, *args, **kwargs):
        event = self.get_event()
        check_official(request.user, event)
        body = AddPlayerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        username = (body.validated_data.get("username") or "").strip()
        player = None
        if username:
            player = get_user_model().objects.filter(username=username).first()
            if player is None:
                raise exceptions.ValidationError(
                    {"username": [_("No user is called %(u)s.") % {"u": username}]}
                )
        reg = register(
            event,
            user=player,
            display_name=body.validated_data.get("display_name", ""),
            actor=request.user,
        )
        return self._out(reg, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Register a team",
        description=(
            "An event in a team format takes teams. A player registers their own team with "
            "`partners` (their partners' usernames); an organiser or judge names all "
            "`members` in seat order (also a late entry during the Swiss). Every member is a "
            "user and plays in at most one team of the event."
        ),
        request=RegisterTeamSerializer,
        responses={201: RegistrationSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=False, methods=["post"])
    def team(self, request, *args, **kwargs):
        event = self.get_event()
        if not request.user.is_authenticated:
            raise NotAllowed(_("Log in to register."))
        body = RegisterTeamSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if "members" in data:
            names = data["members"]
        else:
            names = [request.user.get_username(), *data["partners"]]
        members = []
        for name in names:
            try:
                members.append(find_player(name))
            except TournamentError as exc:
                raise exceptions.ValidationError({"members": [str(exc)]}) from None
        reg = register_team(event, name=data["name"], members=members, actor=request.user)
        return self._out(reg, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Replace a team member",
        description=(
            "Organisers, before the event starts: the `member` named (a username) leaves "
            "the team and `replacement` takes their place, with their own deck to submit. "
            "Audited. 400 for a member not in the team or an unknown user; 409 once the "
            "event has started or when the replacement already plays in a team of it."
        ),
        request=ReplaceMemberSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="replace-member")
    def replace_member(self, request, *args, **kwargs):
        reg = self.get_object()
        check_organiser(request.user, reg.event)
        body = ReplaceMemberSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        name = body.validated_data["member"].strip()
        leaving = reg.members.select_related("user").filter(user__username__iexact=name).first()
        if leaving is None:
            raise exceptions.ValidationError(
                {"member": [_("No member of this team is called %(u)s.") % {"u": name}]}
            )
        try:
            newcomer = find_player(body.validated_data["replacement"])
        except TournamentError as exc:
            raise exceptions.ValidationError({"replacement": [str(exc)]}) from None
        replace_member(request.user, reg, leaving.user, newcomer)
        return self._out(reg)

    @extend_schema(
        methods=["GET"],
        summary="A team's decks",
        description="Each member's own deck: the team's members and the officials only.",
        responses={200: MemberDeckOutSerializer(many=True), **_errors(401, 403, 404)},
    )
    @extend_schema(
        methods=["PUT"],
        summary="Submit a team member's deck",
        description=(
            "A member submits their own deck (until decklists lock); an organiser or judge "
            "names the `member`. Checked under the format's deck rules and saved even if "
            "illegal."
        ),
        request=MemberDeckSerializer,
        responses={200: MemberDeckOutSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["get", "put"])
    def decks(self, request, *args, **kwargs):
        reg = self.get_object()
        own = plays_for(request.user, reg)
        if request.method == "GET":
            if not (own or self.is_official()):
                self.permission_denied(
                    request,
                    message=_("Only the team and the event's organisers and judges can see them."),
                )
            members = reg.members.select_related("user").order_by("position")
            return Response(MemberDeckOutSerializer(members, many=True).data)
        body = MemberDeckSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        name = (body.validated_data.get("member") or "").strip()
        members = reg.members.select_related("user", "event")
        member = (
            members.filter(user__username__iexact=name).first()
            if name
            else members.filter(user_id=request.user.pk).first()
        )
        if member is None:
            if not (own or self.is_official()):
                self.permission_denied(request, message=_("You are not in this team."))
            raise exceptions.NotFound(_("No member of this team is called %(u)s.") % {"u": name})
        member = submit_member_deck(request.user, member, body.validated_data["text"])
        member = reg.members.select_related("user").get(pk=member.pk)
        return Response(MemberDeckOutSerializer(member).data)

    @extend_schema(
        summary="Set a player's fixed table",
        description=(
            "Organisers. A table the player always sits at from the next pairing on (for "
            "access); null for none. Two players fixed to one table: the pairing seats the "
            "first there and the other at the nearest free table."
        ),
        request=FixedTableSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 401, 403, 404)},
    )
    def partial_update(self, request, *args, **kwargs):
        body = FixedTableSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reg = set_fixed_table(request.user, self.get_object(), body.validated_data["fixed_table"])
        return self._out(reg)

    @extend_schema(
        summary="Check in",
        description="The player themself, or an organiser or judge.",
        request=None,
        responses={200: RegistrationSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, *args, **kwargs):
        reg = check_in(request.user, self.get_object())
        return self._out(reg)

    @extend_schema(
        summary="Drop",
        description=(
            "The player themself, or an organiser or judge. A player leaving before the "
            "event starts is simply removed: the answer is then 204 with no body."
        ),
        request=DropSerializer,
        responses={
            200: RegistrationSerializer,
            204: OpenApiResponse(description="Registration withdrawn before the start."),
            **_errors(400, 401, 403, 404, 409),
        },
    )
    @action(detail=True, methods=["post"])
    def drop(self, request, *args, **kwargs):
        body = DropSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reg = self.get_object()
        drop(request.user, reg, body.validated_data["reason"])
        if not Registration.objects.filter(pk=reg.pk).exists():
            return Response(status=status.HTTP_204_NO_CONTENT)
        return self._out(reg)

    @extend_schema(
        summary="Re-add a dropped player",
        description="Organisers and judges.",
        request=None,
        responses={200: RegistrationSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def readd(self, request, *args, **kwargs):
        reg = readd(request.user, self.get_object())
        return self._out(reg)

    @extend_schema(
        methods=["GET"],
        summary="A player's decklist",
        description="Only the player and the event's organisers and judges may read it.",
        responses={200: DecklistSerializer, **_errors(401, 403, 404)},
    )
    @extend_schema(
        methods=["PUT"],
        summary="Submit a decklist",
        description=(
            "The player (until decklists lock), or an organiser or judge. The list is "
            "checked against the event's format and saved even if illegal: `is_legal` and "
            "`problems` (each with its rule number, or the line of the text) say what is wrong."
        ),
        request=DecklistSerializer,
        responses={200: DecklistSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["get", "put"])
    def decklist(self, request, *args, **kwargs):
        reg = self.get_object()
        own = plays_for(request.user, reg)
        if request.method == "GET":
            if not (own or self.is_official()):
                self.permission_denied(
                    request,
                    message=_("Only the player and the event's organisers and judges can see it."),
                )
            deck = Decklist.objects.filter(registration=reg).first()
            if deck is None:
                raise exceptions.NotFound(_("No decklist has been submitted."))
            return Response(DecklistSerializer(deck).data)
        body = DecklistSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = submit_decklist(request.user, reg, body.validated_data["text"])
        deck.refresh_from_db()
        return Response(DecklistSerializer(deck).data)


# ---------------------------------------------------------------- rounds and matches


def _matches_of(queryset):
    seats = MatchSeat.objects.select_related("registration").order_by("seat")
    return queryset.select_related("round").prefetch_related(
        Prefetch("seats", queryset=seats), "games", "reports"
    )


@extend_schema_view(
    list=extend_schema(
        summary="Rounds of an event",
        description="Draft rounds are listed for the event's organisers and judges only.",
    ),
    retrieve=extend_schema(summary="A round", responses={200: RoundSerializer, **_errors(404)}),
)
class RoundViewSet(
    EventScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = RoundSerializer
    lookup_field = "number"
    lookup_value_converter = "int"
    pagination_class = None
    conflict_actions = frozenset({"create", "publish", "repair", "call_time", "pairings"})
    _reading = frozenset({"list", "retrieve", "pairings"})

    def get_queryset(self):
        if _fake(self):
            return Round.objects.none()
        rounds = (
            self.get_event()
            .rounds.annotate(
                match_count=Count("matches", distinct=True),
                open_count=Count(
                    "matches", filter=~Q(matches__status=Match.Status.FINAL), distinct=True
                ),
            )
            .order_by("number")
        )
        if self.action in self._reading and not self.is_official():
            rounds = rounds.exclude(status=Round.Status.DRAFT)
        return rounds

    def _out(self, rnd: Round, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=rnd.pk)
        return Response(self.get_serializer(fresh).data, status=code)

    @extend_schema(
        summary="Pair the next round",
        description=(
            "Organisers only. Creates the next round as a draft for review; publish it to "
            "start play. 409 while the current round has results missing."
        ),
        request=None,
        responses={201: RoundSerializer, **_errors(401, 403, 404, 409)},
    )
    def create(self, request, *args, **kwargs):
        rnd = pair_next_round(request.user, self.get_event())
        return self._out(rnd, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Publish a draft round",
        description="Organisers only. Players see their pairings and the clock starts.",
        request=None,
        responses={200: RoundSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def publish(self, request, *args, **kwargs):
        rnd = publish_round(request.user, self.get_object())
        return self._out(rnd)

    @extend_schema(
        summary="Pair a draft round again",
        description="Organisers only; the round must not be published yet.",
        request=None,
        responses={200: RoundSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def repair(self, request, *args, **kwargs):
        rnd = repair_round(request.user, self.get_object())
        return self._out(rnd)

    @extend_schema(
        summary="Call time",
        description=(
            "Organisers and judges, Swiss rounds only: every unfinished match is settled "
            "with a drawn game; disputed matches stay open."
        ),
        request=None,
        responses={200: RoundSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="call-time")
    def call_time(self, request, *args, **kwargs):
        rnd = self.get_object()
        call_time(request.user, rnd)
        return self._out(rnd)

    @extend_schema(
        methods=["GET"],
        summary="Pairings of a round",
        description="Every match of the round by table, with seats, players and game wins.",
        responses={200: MatchSerializer(many=True), **_errors(404)},
    )
    @extend_schema(
        methods=["PUT"],
        summary="Set a draft round's pairings by hand",
        description=(
            "Organisers only, Swiss rounds not yet published: replaces every table. Each "
            "player who may play the round sits at exactly one table; a table of one player "
            "is a bye; table numbers are kept as given. Written to the audit log with the "
            "pairings before and after (and the number of rematches). 400 for pairings that "
            "cannot be used, 409 once the round is published or for a bracket round."
        ),
        request=PairingsSerializer,
        responses={200: MatchSerializer(many=True), **_errors(400, 401, 403, 404, 409)},
    )
    @extend_schema(
        methods=["PATCH"],
        summary="Swap two players' seats",
        description=(
            "Organisers only, Swiss rounds not yet published: the two players exchange their "
            "seats (a bye moves with its seat), as the console's swap form does. Written to "
            "the audit log."
        ),
        request=SwapSerializer,
        responses={200: MatchSerializer(many=True), **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["get", "put", "patch"])
    def pairings(self, request, *args, **kwargs):
        if request.method == "PUT":
            check_organiser(request.user, self.get_event())  # 401/403 before anything else
            body = PairingsSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            tables = [(t["players"], t.get("table")) for t in body.validated_data["tables"]]
            set_pairings(request.user, self.get_object(), tables)
        elif request.method == "PATCH":
            self._swap(request)
        return self._pairings_out(self.get_object())

    def _swap(self, request) -> None:
        event = self.get_event()
        check_organiser(request.user, event)  # 401/403 before anything else
        body = SwapSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        rnd = self.get_object()
        wanted = [body.validated_data["first"], body.validated_data["second"]]
        found = {reg.pk: reg for reg in event.registrations.filter(pk__in=wanted)}
        for pk in wanted:
            if pk not in found:
                raise PairingError(
                    _("Player %(id)s is not registered for this event.") % {"id": pk}
                )
        swap_players(request.user, rnd, found[wanted[0]], found[wanted[1]])

    def _pairings_out(self, rnd: Round) -> Response:
        matches = _matches_of(Match.objects.filter(round=rnd)).order_by("table")
        return Response(
            MatchSerializer(matches, many=True, context=self.get_serializer_context()).data
        )


@extend_schema_view(
    retrieve=extend_schema(summary="A match", responses={200: MatchSerializer, **_errors(404)})
)
class MatchViewSet(EventScopedMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = MatchSerializer
    lookup_value_converter = "int"
    conflict_actions = frozenset({"report", "confirm", "result"})

    def get_queryset(self):
        if _fake(self):
            return Match.objects.none()
        matches = _matches_of(Match.objects.filter(round__event=self.get_event()))
        if self.action != "result" and not self.is_official():
            matches = matches.exclude(round__status=Round.Status.DRAFT)
        return matches

    def _out(self, match: Match) -> Response:
        fresh = self.get_queryset().get(pk=match.pk)
        return Response(self.get_serializer(fresh).data)

    def _games(self, match: Match) -> list[int | None]:
        """The games sent, checked against the match (``ResultError`` -> 400)."""
        body = GamesSerializer(data=self.request.data)
        body.is_valid(raise_exception=True)
        games = body.validated_data["games"]
        evaluate(
            games, match.best_of, seats=len(match.seats.all()), allow_draw=split_allowed(match)
        )
        return games

    def _placements(self, match: Match) -> tuple[list[int], list[int | None] | None]:
        """A pod's placements (and scores) sent, checked against the match (-> 400)."""
        body = PlacementsSerializer(data=self.request.data)
        body.is_valid(raise_exception=True)
        placements = list(
            check_placements(body.validated_data["placements"], len(match.seats.all()))
        )
        scores = body.validated_data.get("scores")
        if scores is not None and len(scores) != len(placements):
            raise ResultError(_("Give one score per seat, or none at all."))
        return placements, scores

    def _plays(self, match: Match) -> bool:
        uid = self.request.user.pk
        return any(seat.registration.user_id == uid for seat in match.seats.all())

    @extend_schema(
        summary="Report a result",
        description=(
            "A player of the match reports the winner seat of each game, in order (null for "
            "a drawn game). The opponent's identical report makes the result final; a "
            "different one marks the match disputed for an official to settle. In an event "
            "with pods (players_per_game 3 or 4) a player reports ``placements`` instead, "
            "one per seat; the pod is final once every player reported the same."
        ),
        request=ResultSerializer,
        responses={200: MatchSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def report(self, request, *args, **kwargs):
        match = self.get_object()
        # Anyone else is refused by the service (403), whatever they send.
        if self.get_event().uses_pods:
            placements = self._placements(match)[0] if self._plays(match) else []
            report_placements(request.user, match, placements)
            return self._out(match)
        games = self._games(match) if self._plays(match) else []
        report_result(request.user, match, games)
        return self._out(match)

    @extend_schema(
        summary="Confirm the opponent's report",
        request=None,
        responses={200: MatchSerializer, **_errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request, *args, **kwargs):
        match = self.get_object()
        confirm_result(request.user, match)
        return self._out(match)

    @extend_schema(
        summary="Enter or override a result",
        description=(
            "Organisers and judges; recorded in the audit log. Pods: ``placements`` (and "
            "optionally ``scores``) instead of ``games``."
        ),
        request=ResultSerializer,
        responses={200: MatchSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def result(self, request, *args, **kwargs):
        match = self.get_object()
        check_official(request.user, self.get_event())  # 403 before validation
        if self.get_event().uses_pods:
            placements, scores = self._placements(match)
            enter_placements(request.user, match, placements, scores)
            return self._out(match)
        games = self._games(match)
        if match.status != Match.Status.FINAL:  # a judge's game loss begins the result
            check_recorded_games(match, games)
        enter_result(request.user, match, games)
        return self._out(match)


# ---------------------------------------------------------------- penalties


@extend_schema_view(
    list=extend_schema(
        summary="The event's penalty list",
        description=(
            "Organisers and judges. Every event starts with the Magic Tournament Rules' four: "
            "warning, game loss, match loss, disqualification."
        ),
        responses={200: PenaltyTypeSerializer(many=True), **_errors(401, 403, 404)},
    ),
    create=extend_schema(
        summary="Add a penalty to the list",
        description="Organisers only: a name and what it does (its effect).",
        request=PenaltyTypeSerializer,
        responses={201: PenaltyTypeSerializer, **_errors(400, 401, 403, 404)},
    ),
    destroy=extend_schema(
        summary="Remove a penalty from the list",
        description="Organisers only; a penalty already issued stays (409).",
        responses={204: None, **_errors(401, 403, 404, 409)},
    ),
)
class PenaltyTypeViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = PenaltyTypeSerializer
    lookup_value_converter = "int"
    pagination_class = None
    conflict_actions = frozenset({"destroy"})

    def get_queryset(self):
        if _fake(self):
            return PenaltyType.objects.none()
        event = self.get_event()
        check_official(self.request.user, event)
        penalty_types(event)
        return PenaltyType.objects.filter(event=event)

    def create(self, request, *args, **kwargs):
        event = self.get_event()
        check_organiser(request.user, event)  # 401/403 before validation
        body = PenaltyTypeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        kind = add_penalty_type(
            request.user, event, body.validated_data["name"], body.validated_data["effect"]
        )
        return Response(PenaltyTypeSerializer(kind).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, **kwargs):
        check_organiser(request.user, self.get_event())
        remove_penalty_type(request.user, self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(
        summary="The judge's log",
        description=(
            "Organisers and judges only, newest first; ``?player=<registration id>`` for one "
            "player's penalties. Never shown to players or the public. ``outcome`` and "
            "``revoke_outcome`` are in the request's language (``Accept-Language``, the "
            "language cookie)."
        ),
        responses={200: PenaltySerializer(many=True), **_errors(401, 403, 404)},
    ),
    retrieve=extend_schema(
        summary="A penalty",
        description="Organisers and judges only.",
        responses={200: PenaltySerializer, **_errors(401, 403, 404)},
    ),
)
class PenaltyViewSet(
    EventScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = PenaltySerializer
    lookup_value_converter = "int"
    conflict_actions = frozenset({"revoke"})

    def get_queryset(self):
        if _fake(self):
            return Penalty.objects.none()
        event = self.get_event()
        check_official(self.request.user, event)
        log = penalties_of(event).order_by("-created_at", "-pk")
        player = self.request.query_params.get("player")
        if self.action == "list" and player is not None:
            if not (player.isascii() and player.isdigit()) or len(player) > 12:
                raise exceptions.ValidationError({"player": [_("A registration id.")]})
            log = log.filter(registration_id=int(player))
        return log

    @extend_schema(
        summary="Issue a penalty",
        description=(
            "Organisers and judges. A game or match loss names the match and changes its "
            "result through the results service (standings follow); a game loss that does "
            "not decide a match being played at a table is recorded as its next game, which "
            "the players' report must begin with; in a pod either loss puts the player last. "
            "A disqualification first loses the player's match in progress (the match "
            "named, or with none named their match being played) as a match loss does, then "
            "drops the player with the reason. 400, changing nothing, for "
            "an unknown penalty type, player or match, a player not in that match, a match of "
            "another event or of an unpublished round, a match already decided or already "
            "reported (a game loss), or a bye."
        ),
        request=IssuePenaltySerializer,
        responses={201: PenaltySerializer, **_errors(400, 401, 403, 404)},
    )
    def create(self, request, *args, **kwargs):
        event = self.get_event()
        check_official(request.user, event)  # 401/403 before validation
        body = IssuePenaltySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        kind = PenaltyType.objects.filter(event=event, pk=data["penalty_type"]).first()
        if kind is None:
            raise exceptions.ValidationError(
                {
                    "penalty_type": [
                        _("This event's list has no penalty %(id)s.") % {"id": data["penalty_type"]}
                    ]
                }
            )
        reg = event.registrations.filter(pk=data["player"]).first()
        if reg is None:
            raise exceptions.ValidationError(
                {
                    "player": [
                        _("No player %(id)s is registered for this event.") % {"id": data["player"]}
                    ]
                }
            )
        match = None
        if data.get("match") is not None:
            match = Match.objects.filter(round__event=event, pk=data["match"]).first()
            if match is None:
                raise exceptions.ValidationError(
                    {"match": [_("This event has no match %(id)s.") % {"id": data["match"]}]}
                )
        penalty = issue_penalty(request.user, kind, reg, data["reason"], match)
        out = self.get_serializer(penalties_of(event).get(pk=penalty.pk))
        return Response(out.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Revoke a penalty",
        description=(
            "Organisers only (the head judge). A game or match loss that changed a result "
            "puts that result back while the match is as the penalty left it and the result "
            "was final; otherwise ``revoke_outcome`` says what the organiser must fix. 409 "
            "if it was revoked already."
        ),
        request=RevokePenaltySerializer,
        responses={200: PenaltySerializer, **_errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request, *args, **kwargs):
        check_organiser(request.user, self.get_event())
        body = RevokePenaltySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        penalty = revoke_penalty(request.user, self.get_object(), body.validated_data["note"])
        return Response(self.get_serializer(penalties_of(self.get_event()).get(pk=penalty.pk)).data)


__all__ = [
    "AuditViewSet",
    "EventViewSet",
    "MatchViewSet",
    "PenaltyTypeViewSet",
    "PenaltyViewSet",
    "RegistrationViewSet",
    "RoundViewSet",
    "StandingsView",
    "exception_handler",
]
