"""The API's pages: ``?limit=`` and ``?offset=`` are checked, and a bad one is a 400.

DRF's own limit/offset pagination hands any whole number to the database, so a limit of
a hundred quintillion overflowed the query and answered 500. Here the limit must be a
whole number from 1 to ``max_limit`` and the offset one from 0 to ``MAX_OFFSET``;
anything else is refused with a message naming the parameter.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 10**9


def _whole(raw: str, name: str, low: int, high: int) -> int:
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 12 or not low <= int(text) <= high:
        raise ValidationError(
            {
                name: _("Must be a whole number from %(low)s to %(high)s.")
                % {"low": low, "high": high}
            }
        )
    return int(text)


class Pages(LimitOffsetPagination):
    default_limit = 100
    max_limit = 500

    def get_limit(self, request) -> int:
        raw = request.query_params.get(self.limit_query_param)
        if raw is None:
            return self.default_limit
        return _whole(raw, self.limit_query_param, 1, self.max_limit)

    def get_offset(self, request) -> int:
        raw = request.query_params.get(self.offset_query_param)
        if raw is None:
            return 0
        return _whole(raw, self.offset_query_param, 0, MAX_OFFSET)
