"""REST API of a user's own notices (mounted at ``/api/notifications/``; errors as in
``tournaments.api``, ``{"detail": ...}``)::

    GET  /api/notifications/             your notices, newest first (?unread=true: unread only)
    POST /api/notifications/read/        {"notice": <id>}: mark one read (another's: 404)
    POST /api/notifications/read-all/    mark every one read
    GET  /api/notifications/settings/    which kinds are muted on which channel; language
    PUT  /api/notifications/settings/    {"muted": ["round_published:email"], "language": ""}

Texts come in the request's language (``Accept-Language``, the language cookie).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications import services
from notifications.models import Notice
from tournaments.serializers import ErrorSerializer


class NoticeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Notice.Kind.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    url = serializers.CharField(help_text="The page the notice is about, on this site.")
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()

    def to_representation(self, instance):
        return services.as_dict(instance)


class MarkReadSerializer(serializers.Serializer):
    notice = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()


class PreferencesSerializer(serializers.Serializer):
    muted = serializers.ListField(
        child=serializers.CharField(max_length=60),
        max_length=20,
        help_text='"<kind>:<channel>" not wanted; channels: "browser", "email".',
    )
    language = serializers.CharField(
        allow_blank=True,
        max_length=8,
        help_text='The e-mails\' language ("en", "ru"); "": the one you last used the site in.',
    )


class Refused(exceptions.APIException):
    """400 with ``{"detail": ...}``: a setting or language this site does not know."""

    status_code = 400
    default_code = "refused"


_REFUSALS = {
    401: OpenApiResponse(ErrorSerializer, description="Not logged in."),
    403: OpenApiResponse(ErrorSerializer, description="Not logged in (session)."),
}


class NoticeList(generics.ListAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = NoticeSerializer

    def get_queryset(self):
        notices = services.visible(self.request.user)
        if self.request.query_params.get("unread") in ("1", "true"):
            notices = notices.filter(read_at__isnull=True)
        return notices

    @extend_schema(
        summary="Your notices",
        parameters=[OpenApiParameter("unread", bool, description="Only the unread ones.")],
        responses={200: NoticeSerializer(many=True), **_REFUSALS},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class MarkRead(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Mark one of your notices read",
        request=MarkReadSerializer,
        responses={
            200: NoticeSerializer,
            400: OpenApiResponse(description="No notice id given."),
            404: OpenApiResponse(ErrorSerializer, description="No such notice of yours."),
            **_REFUSALS,
        },
    )
    def post(self, request):
        body = MarkReadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            notice = services.mark_read(request.user, body.validated_data["notice"])
        except Notice.DoesNotExist:
            raise exceptions.NotFound(_("No such notice.")) from None
        return Response(NoticeSerializer(notice).data)


class MarkAllRead(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Mark all your notices read",
        request=None,
        responses={200: MarkedSerializer, **_REFUSALS},
    )
    def post(self, request):
        return Response({"marked": services.mark_all_read(request.user)})


class PreferencesView(APIView):
    permission_classes = [IsAuthenticated]

    @staticmethod
    def _out(prefs) -> dict:
        return {"muted": list(prefs.muted or []), "language": prefs.language}

    @extend_schema(
        summary="Your notice settings",
        responses={200: PreferencesSerializer, **_REFUSALS},
    )
    def get(self, request):
        return Response(self._out(services.preferences(request.user)))

    @extend_schema(
        summary="Change your notice settings",
        request=PreferencesSerializer,
        responses={
            200: PreferencesSerializer,
            400: OpenApiResponse(ErrorSerializer, description="An unknown setting or language."),
            **_REFUSALS,
        },
    )
    def put(self, request):
        body = PreferencesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            prefs = services.save_preferences(
                request.user, body.validated_data["muted"], body.validated_data["language"]
            )
        except services.NoticeError as exc:
            raise Refused(str(exc)) from None
        return Response(self._out(prefs))
