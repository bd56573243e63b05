"""REST API of players across events and of series (mounted under ``/api/``, see
``tournaments.api_urls``; errors as in ``tournaments.api``)::

    GET    /api/players/<username>/                  a player's profile (?vs=<username>)
    GET    /api/series/                              every series
    POST   /api/series/                              create; you become its organiser
    GET    /api/series/<slug>/                       a series with its season table
    PATCH  /api/series/<slug>/                       its organiser: name, description, points
    POST   /api/series/<slug>/events/                its organiser: {"event": "<event slug>"}
    DELETE /api/series/<slug>/events/<event slug>/   its organiser: remove an event

A profile shows a decklist only once its event has finished and publishes its decklists.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import ApiMixin, _errors, _event_or_404
from tournaments.models import Series
from tournaments.services.profiles import find_user, player_profile
from tournaments.services.series import (
    add_event,
    create_series,
    remove_event,
    season_rows,
    series_events,
    update_series,
)


class RecordSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class ProfileEntrySerializer(serializers.Serializer):
    event = serializers.CharField(source="event.slug")
    name = serializers.CharField(source="event.name")
    game_system = serializers.CharField(source="event.game_system")
    game = serializers.CharField(source="game_name")
    format = serializers.CharField(source="event.format")
    starts_at = serializers.DateTimeField(source="event.starts_at", allow_null=True)
    status = serializers.CharField(source="event.status")
    entry = serializers.CharField(source="registration.display_name")
    rank = serializers.IntegerField(allow_null=True)
    place = serializers.CharField(
        allow_null=True, help_text='The rank as the standings show it: "3–4" when shared.'
    )
    of = serializers.IntegerField(allow_null=True)
    record = RecordSerializer()
    decklist = serializers.CharField(source="deck", allow_null=True)


class GameRecordSerializer(serializers.Serializer):
    game_system = serializers.CharField()
    game = serializers.CharField()
    record = RecordSerializer()


class HeadToHeadSerializer(serializers.Serializer):
    opponent = serializers.CharField(source="opponent.username")
    record = RecordSerializer()


class ProfileSerializer(serializers.Serializer):
    player = serializers.CharField(source="user.username")
    record = RecordSerializer()
    games = GameRecordSerializer(many=True)
    events = ProfileEntrySerializer(many=True, source="entries")
    head_to_head = HeadToHeadSerializer(allow_null=True)


class PointsSerializer(serializers.Serializer):
    places = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[last place of the band, points], bands in order, e.g. [[1, 10], [2, 7]].",
    )
    participation = serializers.IntegerField(min_value=0)


class SeriesSerializer(serializers.ModelSerializer):
    points = PointsSerializer(required=False)
    organiser = serializers.CharField(source="created_by.username", read_only=True, default=None)

    class Meta:
        model = Series
        fields = ["slug", "name", "description", "points", "organiser", "created_at"]
        read_only_fields = ["slug", "organiser", "created_at"]


class SeriesUpdateSerializer(SeriesSerializer):
    class Meta(SeriesSerializer.Meta):
        extra_kwargs = {"name": {"required": False}}


class SeriesEventSerializer(serializers.Serializer):
    event = serializers.SlugField()


def _table(series: Series) -> dict:
    events = series_events(series)
    rows = season_rows(series, events)
    return {
        "events": [e.slug for e in events],
        "table": [
            {
                "rank": row.rank,
                "player": row.user.username if row.user else None,
                "points": row.points,
                "events": row.events,
                "finishes": [
                    {"rank": f[0], "points": f[1], "place": f[2]} if f else None
                    for f in row.finishes
                ],
            }
            for row in rows
        ],
    }


class ProfileView(ApiMixin, APIView):
    @extend_schema(
        summary="A player's profile",
        description=(
            "Events, finishes, match records overall and per game, public decklists of "
            "finished events; with ?vs=<username>, the head-to-head record."
        ),
        responses={200: ProfileSerializer, **_errors(404)},
    )
    def get(self, request, username: str):
        user = find_user(username)
        if user is None:
            raise exceptions.NotFound(_("There is no player %(name)s.") % {"name": username})
        vs_name = request.query_params.get("vs")
        vs = None
        if vs_name:
            vs = find_user(vs_name)
            if vs is None:
                raise exceptions.NotFound(_("There is no player %(name)s.") % {"name": vs_name})
        profile = player_profile(user, vs=vs)
        data = {
            "user": user,
            "record": profile.record,
            "games": [
                {"game_system": key, "game": name, "record": record}
                for key, name, record in profile.by_game
            ],
            "entries": profile.entries,
            "head_to_head": profile.head_to_head,
        }
        return Response(ProfileSerializer(data).data)


class SeriesViewSet(
    ApiMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = SeriesSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = Series.objects.select_related("created_by").order_by("-created_at", "-pk")

    def get_object(self) -> Series:
        series = self.get_queryset().filter(slug=self.kwargs["slug"]).first()
        if series is None:
            raise exceptions.NotFound(
                _("There is no series at the address %(slug)s.") % {"slug": self.kwargs["slug"]}
            )
        return series

    def _out(self, series: Series) -> dict:
        return {**SeriesSerializer(series).data, **_table(series)}

    @extend_schema(summary="A series with its season table", responses={200: SeriesSerializer})
    def retrieve(self, request, *args, **kwargs):
        return Response(self._out(self.get_object()))

    @extend_schema(
        summary="Create a series",
        description="Any logged-in user; they become its organiser.",
        request=SeriesSerializer,
        responses={201: SeriesSerializer, **_errors(400, 401)},
    )
    def create(self, request, *args, **kwargs):
        serializer = SeriesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        series = create_series(
            request.user, data["name"], data.get("description", ""), data.get("points")
        )
        return Response(self._out(series), status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change a series",
        description="Its organiser only.",
        request=SeriesUpdateSerializer,
        responses={200: SeriesSerializer, **_errors(400, 401, 403, 404)},
    )
    def partial_update(self, request, *args, **kwargs):
        series = self.get_object()
        serializer = SeriesUpdateSerializer(series, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        series = update_series(request.user, series, **serializer.validated_data)
        return Response(self._out(series))

    @extend_schema(
        summary="Add an event to a series",
        description="The series' organiser, who must organise the event too.",
        request=SeriesEventSerializer,
        responses={200: SeriesSerializer, **_errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"], url_path="events")
    def add_event(self, request, *args, **kwargs):
        series = self.get_object()
        serializer = SeriesEventSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        add_event(request.user, series, _event_or_404(serializer.validated_data["event"]))
        return Response(self._out(series))

    @extend_schema(
        summary="Remove an event from a series",
        description="The series' organiser only.",
        request=None,
        responses={200: SeriesSerializer, **_errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["delete"], url_path="events/<slug:event_slug>")
    def remove_event(self, request, *args, event_slug: str = "", **kwargs):
        series = self.get_object()
        remove_event(request.user, series, _event_or_404(event_slug))
        return Response(self._out(series))
