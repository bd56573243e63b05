"""``/api/``: where the API's documentation and its collections are, for a person or a
client that starts at the top (each link absolute, as DRF's browsable roots give them)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# The links the root gives: (key, URL name).
LINKS = (
    ("docs", "api-docs"),
    ("redoc", "api-redoc"),
    ("schema", "schema"),
    ("events", "api:event-list"),
    ("series", "api:series-list"),
    ("notifications", "notifications-api:list"),
)


class ApiRoot(APIView):
    # The default authentication: a logged-in session's unsafe request is refused for want
    # of a CSRF token (403) before the method is (405), as everywhere in the API.
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Where the API begins",
        description="Links to the documentation, the schema and the top collections.",
        responses=inline_serializer(
            "ApiRoot", {key: serializers.URLField() for key, _name in LINKS}
        ),
    )
    def get(self, request: Request) -> Response:
        return Response({key: request.build_absolute_uri(reverse(name)) for key, name in LINKS})
