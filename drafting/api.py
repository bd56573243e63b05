"""REST API of the drafting app, mounted under ``/api/drafts/`` (token or session auth).

Like the pages, it only parses, looks up and serialises; every change goes through
``drafting.services`` with the same checks and the same messages::

    GET   /api/drafts/pods/<id>/                     anyone: the pod's public progress
                                                 (of an unlisted event: its drafters
                                                 and officials only)
    GET   /api/drafts/pods/<id>/seat/                a seated player: own pack and pool
    POST  /api/drafts/pods/<id>/pick/                a seated player: {"pick_number", "card"}
    GET   /api/drafts/pods/<id>/seats/<n>/picks/     the pick log (JSON; ?as=text for text)

Hidden information: a pack is shown to the seat holding it only, never in the pod's
public view; a pick log (which holds every pack the seat saw) to its own player at any
time, and to others when the pages would show it
(``drafting.services.reading.can_see_picks``).

Errors have the body ``{"detail": "<message>"}`` (a malformed body keeps DRF's
``{"field": ["message"]}``): **401** not logged in, **403** not your seat or not
allowed, **404** no such pod or seat, **400** a malformed pick, **409** a pick the
draft refuses in its current state (already made, not yours yet, card not in the pack,
draft over), with the message the draft room shows.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.errors import NotAllowed, PodError
from drafting.services.kits import kit, language
from drafting.services.picks import make_pick
from drafting.services.pods import may_see_pod, seat_of
from drafting.services.pools import pool_of
from drafting.services.reading import can_see_picks, pick_log, seat_progress
from tournaments.serializers import ErrorSerializer

# ---------------------------------------------------------------- serialisers


class CardSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    colours = serializers.ListField(child=serializers.CharField())
    cost = serializers.CharField(allow_blank=True)
    rarity = serializers.CharField(allow_blank=True)


class SeatProgressSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based seat number.")
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    left = serializers.BooleanField(help_text="The player left: a bot picks for the seat.")
    picks = serializers.IntegerField()
    packs_waiting = serializers.IntegerField()
    waiting_on = serializers.IntegerField(allow_null=True, help_text="Seat number, 1-based.")
    deck_submitted = serializers.BooleanField()


class PodSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    event = serializers.CharField(allow_null=True, help_text="The event's address (slug).")
    kind = serializers.CharField()
    status = serializers.CharField()
    game_system = serializers.CharField()
    boosters = serializers.ListField(child=serializers.CharField())
    seats_count = serializers.IntegerField()
    booster_round = serializers.IntegerField(allow_null=True, help_text="1-based.")
    pick_timer = serializers.DictField()
    build_deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatProgressSerializer(many=True)


class PackSerializer(serializers.Serializer):
    pick_number = serializers.IntegerField(help_text="Send it back with the pick.")
    booster_round = serializers.IntegerField(help_text="1-based.")
    round_pick = serializers.IntegerField(help_text="The pick within this booster, 1-based.")
    deadline = serializers.DateTimeField(allow_null=True)
    cards = CardSerializer(many=True)


class MySeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="1-based seat number.")
    status = serializers.CharField()
    next_pick = serializers.IntegerField(allow_null=True)
    pack = PackSerializer(allow_null=True, help_text="null while waiting for a pack.")
    packs_waiting = serializers.IntegerField()
    highlighted = serializers.CharField(allow_blank=True)
    pool = CardSerializer(many=True)
    deck = serializers.DictField(allow_null=True)


class PickRequestSerializer(serializers.Serializer):
    pick_number = serializers.IntegerField(min_value=1, max_value=10_000)
    card = serializers.CharField(max_length=40)


class PickResultSerializer(serializers.Serializer):
    picked = CardSerializer()
    pick_number = serializers.IntegerField()
    seat = MySeatSerializer()


class PickLogEntrySerializer(serializers.Serializer):
    round = serializers.IntegerField()
    pick = serializers.IntegerField()
    number = serializers.IntegerField()
    pack = serializers.CharField()
    card = serializers.CharField()
    pack_cards = serializers.ListField(child=serializers.CharField())
    auto = serializers.CharField()
    at = serializers.CharField()


class PickLogSerializer(serializers.Serializer):
    pod = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.CharField()
    sets = serializers.ListField(child=serializers.CharField())
    picks = PickLogEntrySerializer(many=True)
    deck = serializers.DictField(allow_null=True)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "Malformed request.",
        401: "Not logged in.",
        403: "Not your seat, or not shown to you.",
        404: "No such pod or seat.",
        409: "The draft refuses this pick in its current state.",
    }
    return {
        code: OpenApiResponse(response=ErrorSerializer, description=descriptions[code])
        for code in codes
    }


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The draft refuses this in its current state."
    default_code = "conflict"


# ---------------------------------------------------------------- data


def _card(limited, card_id: str, lang: str) -> dict:
    face = limited.face(card_id, lang)
    return {
        "id": face.id,
        "name": face.name,
        "type": face.type,
        "colours": list(face.colours),
        "cost": face.cost,
        "rarity": face.rarity or "",
    }


def pod_data(pod: Pod) -> dict:
    """The pod as anybody may see it: settings and progress, no cards."""
    seats = list(pod.seats.select_related("user").order_by("number"))
    rows = seat_progress(pod, seats)
    drafting = pod.status == Pod.Status.DRAFTING and pod.state and not pod.is_sealed
    return {
        "id": pod.pk,
        "name": str(pod),
        "event": pod.event.slug if pod.event_id else None,
        "kind": pod.kind,
        "status": pod.status,
        "game_system": pod.game_system,
        "boosters": list(pod.set_codes),
        "seats_count": pod.seats_count,
        "booster_round": pod.state["round"] + 1 if drafting else None,
        "pick_timer": {
            "base_seconds": pod.pick_base_seconds,
            "seconds_per_card": pod.pick_seconds_per_card,
            "max_seconds": pod.pick_max_seconds,
            "review_seconds": pod.review_seconds,
        },
        "build_deadline": pod.build_deadline,
        "seats": [
            {
                "number": row["seat"].number + 1,
                "name": row["seat"].name,
                "is_bot": row["seat"].is_bot,
                "left": row["seat"].abandoned,
                "picks": row["picks"],
                "packs_waiting": row["queue"],
                "waiting_on": None if row["waiting_on"] is None else row["waiting_on"] + 1,
                "deck_submitted": row["seat"].deck is not None,
            }
            for row in rows
        ],
    }


def seat_data(pod: Pod, seat: Seat) -> dict:
    """What the seated player sees: their pack (if they hold one), their pool, their deck."""
    lang = language()
    db = kit(pod)
    state = pod.state
    out = {
        "seat": seat.number + 1,
        "status": pod.status,
        "next_pick": None,
        "pack": None,
        "packs_waiting": 0,
        "highlighted": seat.highlighted,
        "pool": [_card(db, c, lang) for c in pool_of(pod, seat)],
        "deck": seat.deck,
    }
    if pod.status == Pod.Status.DRAFTING and state and not pod.is_sealed:
        out["next_pick"] = draft_core.pick_number(state, seat.number)
        out["packs_waiting"] = len(state["queues"][seat.number])
        pack = draft_core.current_pack(state, seat.number)
        if pack is not None:
            out["pack"] = {
                "pick_number": out["next_pick"],
                "booster_round": pack["round"] + 1,
                "round_pick": draft_core.round_pick_number(state, seat.number),
                "deadline": seat.pick_deadline,
                "cards": [_card(db, c, lang) for c in pack["cards"]],
            }
    return out


# ---------------------------------------------------------------- views


class DraftApiView(APIView):
    # Token first: an anonymous request is answered 401 with "WWW-Authenticate: Token".
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    def pod(self, pk: int) -> Pod:
        pod = Pod.objects.select_related("event").filter(pk=pk).first()
        if pod is None or not may_see_pod(self.request.user, pod):
            raise exceptions.NotFound(_("There is no pod %(id)s.") % {"id": pk})
        return pod

    def my_seat(self, pod: Pod) -> Seat:
        seat = seat_of(self.request.user, pod)
        if seat is None:
            raise exceptions.PermissionDenied(_("You have no seat in this pod."))
        return seat


class PodView(DraftApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A pod",
        description="Settings and each seat's progress. Never any card.",
        responses={200: PodSerializer, **_errors(404)},
    )
    def get(self, request, pk: int):
        return Response(pod_data(self.pod(pk)))


class MySeatView(DraftApiView):
    @extend_schema(
        summary="My seat: pack and pool",
        description="The pack you hold now (null while you wait), your picks and your deck.",
        responses={200: MySeatSerializer, **_errors(401, 403, 404)},
    )
    def get(self, request, pk: int):
        pod = self.pod(pk)
        return Response(seat_data(pod, self.my_seat(pod)))


class PickView(DraftApiView):
    @extend_schema(
        summary="Make a pick",
        description="Take ``card`` from the pack you hold; ``pick_number`` is the pack's "
        "``pick_number`` (so a repeated request cannot pick twice). Answers with your seat "
        "as it is after the pick.",
        request=PickRequestSerializer,
        responses={200: PickResultSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, pk: int):
        pod = self.pod(pk)
        self.my_seat(pod)
        body = PickRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            made = make_pick(
                request.user,
                pod.pk,
                body.validated_data["pick_number"],
                body.validated_data["card"],
            )
        except NotAllowed as exc:
            raise exceptions.PermissionDenied(str(exc)) from None
        except PodError as exc:
            raise Conflict(str(exc)) from None
        db = kit(made.pod)
        return Response(
            {
                "picked": _card(db, made.card_id, language()),
                "pick_number": made.pick_number,
                "seat": seat_data(made.pod, made.seat),
            }
        )


class PickLogView(DraftApiView):
    permission_classes = [AllowAny]  # whose log is shown is decided by can_see_picks

    @extend_schema(
        summary="A seat's pick log",
        description="Every pick with the pack as the seat saw it. Your own at any time; "
        "others' once the pages show them (the organiser after the draft, everybody when "
        "the pod and its event have finished). ``?as=text`` gives the text download.",
        parameters=[OpenApiParameter("as", str, enum=["json", "text"], required=False)],
        responses={200: PickLogSerializer, **_errors(403, 404)},
    )
    def get(self, request, pk: int, number: int):
        pod = self.pod(pk)
        seat = Seat.objects.select_related("user").filter(pod=pod, number=number - 1).first()
        if seat is None:
            raise exceptions.NotFound(_("There is no seat %(n)s in this pod.") % {"n": number})
        if not can_see_picks(request.user, pod, seat):
            raise exceptions.PermissionDenied(_("These picks are not shown to you (yet)."))
        log = pick_log(pod, seat)
        if request.query_params.get("as") == "text":
            from drafting.views import log_lines

            return HttpResponse(
                "\n".join(log_lines(pod, seat, log)), content_type="text/plain; charset=utf-8"
            )
        return Response(
            {
                "pod": pod.pk,
                "seat": seat.number + 1,
                "player": seat.name,
                "sets": pod.set_codes,
                "picks": log,
                "deck": seat.deck,
            }
        )
