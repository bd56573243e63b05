"""Pages of the drafting app. Thin: parse, authorise, call one service, render.

A seated player's page shows their own pack; everyone else (spectators, and organisers
while the draft runs) sees progress only. The fragments are re-fetched with htmx when
the pod's websocket says something changed.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from drafting import draft as draft_core
from drafting.forms import PodForm
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod, quick_pod
from drafting.services.decks import (
    check_deck,
    deck_text,
    limited_format,
    play_ticket,
    submit_deck,
)
from drafting.services.errors import NotAllowed, PodError
from drafting.services.kits import deck_sections, kit, kit_for, language
from drafting.services.picks import highlight as highlight_card
from drafting.services.picks import make_pick
from drafting.services.pods import can_manage, may_see_pod, seat_of
from drafting.services.pools import (
    deck_needs,
    deck_pool_of,
    pool_of,
    set_supplied_cards,
    supply_choices,
)
from drafting.services.reading import can_see_picks, pick_log, seat_progress
from drafting.services.seats import hand_to_bot, join_pod, leave_pod, reclaim_seat
from drafting.services.starting import start_pod
from drafting.services.timers import review_until
from engine.core import registry
from engine.core.limited import CardFace, LimitedKit

_INFO: dict[tuple[int, str, str], tuple[CardFace, dict[str, Any]]] = {}


def _known_face(limited: LimitedKit, card_id: str, lang: str) -> tuple[CardFace, dict[str, Any]]:
    """A card's face and its page data, kept: a face never changes while a process runs
    (each kit is one object per game; card ids are unique within a game)."""
    key = (id(limited), card_id, lang)
    found = _INFO.get(key)
    if found is None:
        face = limited.face(card_id, lang)
        found = _INFO[key] = (face, face.as_dict())
    return found


def card_info(limited: LimitedKit, card_id: str, lang: str) -> dict[str, Any]:
    """What a page shows of a card, in the viewer's language (the game's ``face``); the
    same dict for every caller, so nobody changes it."""
    return _known_face(limited, card_id, lang)[1]


def cards_info(limited: LimitedKit, ids: Sequence[str], lang: str) -> list[dict[str, Any]]:
    return [card_info(limited, card_id, lang) for card_id in ids]


_FACES: dict[tuple[str, str, str], tuple[dict[str, Any], str]] = {}


def _card_face(limited: LimitedKit, system: str, card_id: str, lang: str):
    """A card's page data and its rendered face (``_card.html``), per language: a card's
    face never changes, so a pack is drawn from these instead of rendering every card of
    every pack again. (A process holds one set of card data per game.)"""
    key = (system, card_id, lang)
    found = _FACES.get(key)
    if found is None:
        info = card_info(limited, card_id, lang)
        with translation.override(lang):
            face = render_to_string("drafting/_card.html", {"c": info})
        found = _FACES[key] = (info, face)
    return found


def pack_cards(system: str, ids: Sequence[str], lang: str) -> list[dict[str, Any]]:
    """The cards of a pack, each with its rendered face (``face``) for ``_pack.html``."""
    limited = kit_for(system)
    out = []
    for card_id in ids:
        info, face = _card_face(limited, system, card_id, lang)
        out.append({**info, "face": mark_safe(face)})  # our own template's output
    return out


def _pod(request: HttpRequest, pk: int) -> Pod:
    """The pod, or a 404 to whoever may not see it (one of an unlisted event)."""
    pod = get_object_or_404(Pod.objects.select_related("event"), pk=pk)
    if not may_see_pod(request.user, pod):
        raise Http404("No such pod.")
    return pod


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _run(request: HttpRequest, action: Callable[[], object], success: str | None = None) -> bool:
    try:
        action()
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except PodError as exc:
        messages.error(request, str(exc))
        return False
    if success:
        messages.success(request, success)
    return True


# ---------------------------------------------------------------- lists


@require_GET
def pod_list(request: HttpRequest) -> HttpResponse:
    pods = Pod.objects.select_related("event").annotate(
        players=Count("seats", filter=Q(seats__user__isnull=False))
    )
    mine = []
    if request.user.is_authenticated:
        mine = list(pods.filter(seats__user=request.user).order_by("-created_at")[:20])
    open_pods = pods.filter(status=Pod.Status.WAITING, event__isnull=True)[:50]
    # Not the pods of an unlisted event: no list shows that event.
    running = pods.exclude(status=Pod.Status.WAITING).exclude(event__is_public=False)[:30]
    return render(
        request,
        "drafting/pod_list.html",
        {
            "mine": mine,
            "open_pods": open_pods,
            "running": running,
            "form": PodForm(),
            "games": registry.drafting_systems(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def pod_create(request: HttpRequest) -> HttpResponse:
    form = PodForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pod = create_pod(request.user, **form.pod_settings())
        except PodError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Pod opened. Share its page so others can join."))
            return redirect("drafting:room", pk=pod.pk)
    return render(request, "drafting/pod_form.html", {"form": form})


@login_required
@require_POST
def quick(request: HttpRequest) -> HttpResponse:
    kind = request.POST.get("kind", Pod.Kind.DRAFT)
    game = request.POST.get("game_system") or registry.default_drafting_system().key
    created: list[Pod] = []
    if _run(request, lambda: created.append(quick_pod(request.user, kind=kind, game_system=game))):
        pod = created[0]
        if pod.status == Pod.Status.BUILDING:
            return redirect("drafting:deck", pk=pod.pk)
        return redirect("drafting:room", pk=pod.pk)
    return redirect("drafting:pod_list")


# ---------------------------------------------------------------- the room


def _pack_context(pod: Pod, seat: Seat, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    """The pack area: the pack the seat faces, or whom it waits on."""
    ctx: dict[str, Any] = {"pod": pod, "seat": seat, "pack": None, "deadline": None}
    if pod.status != Pod.Status.DRAFTING or pod.is_sealed:
        return ctx
    ctx["bot_has_seat"] = seat.picked_by_bot
    ctx["can_reclaim"] = seat.abandoned and seat.bot_reason == Seat.BotReason.TIMEOUTS
    state = pod.state
    pack = draft_core.current_pack(state, seat.number)
    ctx["pick_number"] = draft_core.pick_number(state, seat.number)
    ctx["rounds"] = state["rounds"]
    ctx["queue"] = len(state["queues"][seat.number])
    if pack is not None:
        ctx["pack"] = pack_cards(pod.game_system, pack["cards"], language())
        ctx["booster_round"] = pack["round"] + 1
        ctx["round_pick"] = draft_core.round_pick_number(state, seat.number)
        ctx["deadline"] = seat.pick_deadline
        ctx["highlighted"] = seat.highlighted
        review = review_until(pod, seat, pack)
        if review is not None and review > timezone.now():
            ctx["review_until"] = review
    if seats is None:
        seats = list(pod.seats.select_related("user"))
    ctx.update(passing(state, seat.number, {s.number: s.name for s in seats}))
    waiting = draft_core.waiting_on(state).get(seat.number)
    if waiting is not None:
        ctx["waiting_on"] = seat_label(
            waiting, next((s.name for s in seats if s.number == waiting), "")
        )
    return ctx


def seat_label(number: int, name: str) -> dict[str, Any]:
    """How every page of a pod names a seat: its player's name and its number (1-based)."""
    return {
        "number": number + 1,
        "index": number,
        "name": name or _("Bot %(n)d") % {"n": number + 1},
    }


def passing(state: dict[str, Any], number: int, names: dict[int, str]) -> dict[str, Any]:
    """Which way the current booster travels and the seat's two neighbours in it: the one
    it passes to and the one it is passed from (``draft.neighbour`` / ``upstream``)."""
    if not state or state.get("kind", draft_core.BOOSTER.kind) != draft_core.BOOSTER.kind:
        return {}
    seats, booster_round = state["seats"], state["round"]
    to = draft_core.neighbour(number, seats, booster_round)
    came = draft_core.upstream(number, seats, booster_round)
    return {
        "pass_left": draft_core.direction(booster_round) > 0,
        "pass_to": seat_label(to, names.get(to, "")),
        "pass_from": seat_label(came, names.get(came, "")),
    }


def pack_context_from_message(message: dict[str, Any]) -> dict[str, Any]:
    """The pack area from a ``draft.pack`` websocket message (no database: the message
    holds all of it; see ``drafting.services.messages.pack_message``)."""
    from django.utils.dateparse import parse_datetime

    lang = language()
    system = message.get("system") or registry.default_drafting_system().key
    return {
        "pod": {"pk": message["pod"], "status": Pod.Status.DRAFTING},
        "pack": pack_cards(system, message["cards"], lang),
        "pick_number": message["pick"],
        "booster_round": message["round"] + 1,
        "round_pick": message["round_pick"],
        "rounds": message["rounds"],
        "queue": message["queue"],
        "deadline": parse_datetime(message["deadline"]) if message["deadline"] else None,
        "highlighted": message.get("highlighted", ""),
        "review_until": parse_datetime(message["review_until"])
        if message.get("review_until")
        else None,
        "pushed": True,
        **passing_from_message(message),
    }


def passing_from_message(message: dict[str, Any]) -> dict[str, Any]:
    names = message.get("names")
    if not isinstance(names, list) or "seat" not in message:
        return {}
    state = {"seats": len(names), "round": message["round"]}
    return passing(state, message["seat"], dict(enumerate(names)))


def _pool_context(pod: Pod, seat: Seat) -> dict[str, Any]:
    lang = language()
    limited = kit(pod)
    pool_ids = pool_of(pod, seat)
    return {
        "pool": cards_info(limited, pool_ids, lang),
        "pool_colours": _colour_counts(limited, pool_ids, lang),
        "deck_needs": deck_needs(pod, seat, lang) if pod.status == Pod.Status.DRAFTING else [],
    }


def _panel_context(request: HttpRequest, pod: Pod, seat: Seat) -> dict[str, Any]:
    ctx = _pack_context(pod, seat)
    if pod.state:
        ctx.update(_pool_context(pod, seat))
    return ctx


def _colour_counts(limited: LimitedKit, ids: Sequence[str], lang: str) -> list[tuple[str, int]]:
    """How many cards of the pool have each colour (a card of none counts under the name
    its face gives, e.g. Neutral, listed last), in the order the game sorts its colours."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    rank: dict[str, str] = {}
    for card_id in ids:
        face = _known_face(limited, card_id, lang)[0]
        keys = face.colours or ("",)
        for key, name in zip(keys, face.colour_names, strict=False):
            counts[key] += 1
            names[key] = name
            if len(keys) == 1:
                rank[key] = min(rank.get(key, face.colour_key), face.colour_key)
    order = sorted(counts, key=lambda k: (k == "", rank.get(k, "9"), k))
    return [(names[key], counts[key]) for key in order]


def _overview_context(request: HttpRequest, pod: Pod) -> dict[str, Any]:
    seats = list(pod.seats.select_related("user").order_by("number"))
    rows = seat_progress(pod, seats)
    names = {s.number: s.name for s in seats}
    for row in rows:
        if row["waiting_on"] is not None:
            row["waiting_label"] = seat_label(row["waiting_on"], names.get(row["waiting_on"], ""))
    if pod.state and not pod.is_sealed:
        for row in rows:
            row["logs"] = can_see_picks(request.user, pod, row["seat"])
    return {
        "pod": pod,
        "rows": rows,
        "can_manage": can_manage(request.user, pod),
        "my_seat": next(
            (s for s in seats if request.user.is_authenticated and s.user_id == request.user.pk),
            None,
        ),
    }


@require_GET
def room(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    seat = seat_of(request.user, pod)
    ctx = _overview_context(request, pod)
    ctx["seat"] = seat
    if seat is not None:
        ctx.update(_panel_context(request, pod, seat))
    return render(request, "drafting/room.html", ctx)


@require_GET
def panel(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    seat = seat_of(request.user, pod)
    if seat is None:
        raise PermissionDenied(_("You have no seat in this pod."))
    return render(request, "drafting/_panel.html", _panel_context(request, pod, seat))


@require_GET
def overview(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    return render(request, "drafting/_overview.html", _overview_context(request, pod))


def _pick_outcome(user, pk: int, pick_number, card_id, seat_number) -> tuple[Pod, Seat, Any, str]:
    """Make the pick; return the pod, the seat, the pick (None if refused) and the error."""
    error = ""
    made = None
    try:
        made = make_pick(user, pk, pick_number, card_id, seat_number=seat_number)
    except Pod.DoesNotExist:
        raise Http404(_("No such pod.")) from None
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except PodError as exc:
        error = str(exc)
    if made is None:  # refused to a seated player (``make_pick`` checked the seat)
        pod = get_object_or_404(Pod.objects.select_related("event"), pk=pk)
        return pod, seat_of(user, pod), None, error
    if made.pod.bots_inline:
        # The bots' picks inside the pick moved the seats on from the rows the pick read
        # (the picker's next pack, its new deadline and review): read them again.
        made.seats = list(made.pod.seats.select_related("user"))
        made.seat = next(s for s in made.seats if s.pk == made.seat.pk)
    return made.pod, made.seat, made, error


def _answer_context(pod: Pod, seat: Seat, made) -> dict[str, Any]:
    if made is None:
        return _pack_context(pod, seat)
    ctx = _pack_context(pod, seat, made.seats)
    lang = language()
    limited = kit(pod)
    pool_ids = pool_of(pod, seat)
    ctx["picked"] = card_info(limited, made.card_id, lang)
    ctx["picked_number"] = len(pool_ids)
    ctx["pool_size"] = len(pool_ids)
    ctx["pool_colours"] = _colour_counts(limited, pool_ids, lang)
    if pod.status == Pod.Status.DRAFTING:
        ctx["deck_needs"] = deck_needs(pod, seat, lang)
    return ctx


def pick_answer(user, pk: int, pick_number, card_id, seat_number) -> dict[str, Any]:
    """A pick made over the pod's websocket, answered as the form's htmx answer is: the
    pack area, the picked card for the pool and the pool's heading (or where to go once
    the draft is over). Refusals come back as ``error`` with the pack area as it is."""
    from django.template.loader import render_to_string

    if user is None or not user.is_authenticated:
        return {"error": _("Log in to draft.")}
    try:
        pod, seat, made, error = _pick_outcome(user, pk, pick_number, card_id, seat_number)
    except (Http404, PermissionDenied) as exc:
        return {"error": str(exc)}
    if seat is None:
        return {"error": _("You have no seat in this pod.")}
    if pod.status != Pod.Status.DRAFTING:
        return {"redirect": reverse("drafting:deck", kwargs={"pk": pk}), "error": error}
    ctx = _answer_context(pod, seat, made)
    ctx["error"] = error
    ctx["pushed"] = True  # no request: the page sends its CSRF token as a header
    answer: dict[str, Any] = {
        "answer": render_to_string("drafting/_pack.html", ctx),
        "pick": ctx.get("pick_number"),
        "error": error,
    }
    if made is not None:
        answer["pool_item"] = render_to_string(
            "drafting/_pool_item.html", {"c": ctx["picked"], "number": ctx["picked_number"]}
        )
        answer["pool_head"] = render_to_string("drafting/_pool_head.html", ctx)
    return answer


@login_required
@require_POST
def pick(request: HttpRequest, pk: int) -> HttpResponse:
    """A pick. With htmx the answer is small: the pack area (the next pack, or whom the
    seat waits on) and, out of band, the picked card appended to the pool."""
    pod, seat, made, error = _pick_outcome(
        request.user,
        pk,
        request.POST.get("pick"),
        request.POST.get("card"),
        request.POST.get("seat"),
    )
    if seat is None:
        # A malformed pick is refused before the seat is looked at: still nobody's pack.
        raise PermissionDenied(_("You have no seat in this pod."))
    if _is_htmx(request):
        ctx = _answer_context(pod, seat, made)
        ctx["error"] = error
        response = render(request, "drafting/_pick_answer.html", ctx)
        if pod.status != Pod.Status.DRAFTING:
            response["HX-Redirect"] = reverse("drafting:deck", kwargs={"pk": pk})
        return response
    if error:
        messages.error(request, error)
    if pod.status == Pod.Status.BUILDING:
        return redirect("drafting:deck", pk=pk)
    return redirect("drafting:room", pk=pk)


@login_required
@require_POST
def highlight(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    try:
        highlight_card(request.user, pod, request.POST.get("card"), request.POST.get("pick"))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except PodError as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    return HttpResponse(status=204)


@login_required
@require_POST
def pod_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    pod = _pod(request, pk)
    user = request.user
    actions: dict[str, tuple[Callable[[], object], str]] = {
        "join": (lambda: join_pod(user, pod), _("You have a seat.")),
        "leave": (lambda: leave_pod(user, pod), _("You left the pod.")),
        "reclaim": (lambda: reclaim_seat(user, pod), _("Your seat is yours again.")),
        "bot": (
            lambda: hand_to_bot(user, pod, request.POST.get("seat")),
            _("A bot picks for that seat now."),
        ),
        "start": (lambda: start_pod(user, pod), _("The draft has started.")),
        "supply": (
            lambda: set_supplied_cards(user, pod, request.POST.getlist("card")),
            _("Supplied cards saved."),
        ),
    }
    if action not in actions:
        raise Http404(_("Unknown action."))
    handler, success = actions[action]
    _run(request, handler, success)
    pod.refresh_from_db()
    if action == "start" and pod.status == Pod.Status.BUILDING and seat_of(user, pod):
        return redirect("drafting:deck", pk=pk)
    if action == "supply" or (action == "bot" and request.POST.get("from") == "manage"):
        return redirect("drafting:manage", pk=pk)
    return redirect("drafting:room", pk=pk)


@login_required
@require_GET
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    if not can_manage(request.user, pod):
        raise PermissionDenied(_("Only the organiser of this pod can open its console."))
    ctx = _overview_context(request, pod)
    lang = language()
    limited = kit(pod)
    if pod.status in (Pod.Status.BUILDING, Pod.Status.FINISHED):
        for row in ctx["rows"]:
            if can_see_picks(request.user, pod, row["seat"]):
                row["colours"] = _colour_counts(limited, pool_of(pod, row["seat"]), lang)
    ctx["supply"] = limited.supply
    if limited.supply is not None:
        ctx["supply_name"] = limited.supply.label(lang)
        ctx["supply_help"] = limited.supply.explain(lang)
    ctx["supply_choices"] = cards_info(limited, supply_choices(pod), lang)
    ctx["supplied"] = set(pod.supplied_cards or ())
    ctx["supplied_names"] = [c["name"] for c in ctx["supply_choices"] if c["id"] in ctx["supplied"]]
    ctx["can_supply"] = pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING)
    ctx["on_console"] = True
    return render(request, "drafting/manage.html", ctx)


# ---------------------------------------------------------------- deck building


def _deck_from_post(pod: Pod, post, pool: Sequence[str]) -> dict[str, list[str]]:
    deck: dict[str, list[str]] = {section: [] for section in deck_sections(pod)}
    for index, card_id in enumerate(pool):
        section = post.get(f"slot-{index}", "")
        if section in deck:
            deck[section].append(card_id)
    return deck


def _slots(pod: Pod, pool: Sequence[str], deck: dict[str, list[str]] | None) -> list[str]:
    """The section of each pool entry (by index) for a saved or suggested deck."""
    left = {section: Counter(ids) for section, ids in (deck or {}).items()}
    out = []
    for card_id in pool:
        placed = ""
        for section in deck_sections(pod):
            if left.get(section, Counter())[card_id] > 0:
                left[section][card_id] -= 1
                placed = section
                break
        out.append(placed)
    return out


CURVE_TOP = 7  # the cost curve's last column holds this cost and more


def _check_context(
    pod: Pod, seat: Seat, deck: dict[str, list[str]] | None, lang: str
) -> dict[str, Any]:
    """The deck check card: each section's count against its target, the cost curve of
    the cards in the deck, and every broken rule (None when there is no deck to check)."""
    limited = kit(pod)
    deck = deck or {}
    counts = {s.key: len(deck.get(s.key) or ()) for s in limited.sections}
    curve = [0] * (CURVE_TOP + 1)
    for ids in deck.values():
        for card_id in ids:
            if limited.known(card_id):
                info = card_info(limited, card_id, lang)
                if info["cost"] != "":
                    curve[min(max(info["cost_value"], 0), CURVE_TOP)] += 1
    tallest = max(curve) or 1
    return {
        "section_counts": [
            {"key": s.key, "name": s.label(lang), "count": counts[s.key], "target": s.target}
            for s in limited.sections
        ],
        "curve": [
            {
                "cost": f"{cost}+" if cost == CURVE_TOP else str(cost),
                "count": n,
                "height": round(10 * n / tallest),
            }
            for cost, n in enumerate(curve)
        ],
        "curve_total": sum(curve),
        "problems": check_deck(pod, seat, deck, lang=lang) if deck else None,
    }


def _home_sections(limited: LimitedKit, faces: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """Where a card goes when it is moved out of the sideboard: the section its face names,
    else the first section no card names for itself (a «Восхождение» card that is not a City
    goes to the Main Deck)."""
    named = {face["section"] for face in faces if face["section"]}
    keys = [s.key for s in limited.sections]
    return keys[0], next((key for key in keys if key not in named), keys[0])


def _supply_note(pod: Pod, lang: str) -> dict[str, Any] | None:
    """What the organiser supplies besides the pools (the kit's ``supply``), or None if the
    game has no such option."""
    limited = kit(pod)
    rule = limited.supply
    if rule is None:
        return None
    names = [card_info(limited, c, lang)["name"] for c in pod.supplied_cards or ()]
    return {
        "name": rule.label(lang),
        "help": rule.explain(lang),
        "cards": names,
        "copies": rule.copies,
    }


def _deck_context(
    request: HttpRequest, pod: Pod, seat: Seat, deck: dict | None, lang: str | None = None
) -> dict[str, Any]:
    lang = lang or language()
    limited = kit(pod)
    pool = deck_pool_of(pod, seat)
    slots = _slots(pod, pool, deck)
    entries = [
        {"index": i, "card": card_info(limited, card_id, lang), "section": slot}
        for i, (card_id, slot) in enumerate(zip(pool, slots, strict=True))
    ]
    entries.sort(
        key=lambda e: (
            e["card"]["type_key"],
            e["card"]["colour_key"],
            e["card"]["cost_value"],
            e["card"]["name"],
        )
    )
    _first, fallback = _home_sections(limited, [e["card"] for e in entries])
    for order, entry in enumerate(entries):
        entry["order"] = order
        entry["home"] = entry["card"]["section"] or fallback
    columns = [
        {
            "key": s.key,
            "name": s.label(lang),
            "target": s.target,
            "entries": [e for e in entries if e["section"] == s.key],
        }
        for s in limited.sections
    ]
    sideboard = {
        "key": "",
        "name": _("Sideboard"),
        "target": "",
        "entries": [e for e in entries if e["section"] == ""],
    }
    return {
        "pod": pod,
        "seat": seat,
        "entries": entries,
        "columns": columns,
        "sideboard": sideboard,
        "sections": [("", _("Sideboard"))] + [(s.key, s.label(lang)) for s in limited.sections],
        "rules_text": limited.rules_text(lang),
        "text": deck_text(pod, seat.deck, lang) if seat.deck else "",
        "play_format": _play_format(pod, lang),
        "play_nonce": secrets.token_urlsafe(12),
        **_check_context(pod, seat, deck, lang),
    }


def _suggestion(pod: Pod, seat: Seat, lang: str) -> tuple[dict[str, list[str]], dict | None]:
    """The kit's suggested deck and, when even it breaks the rules, why no legal deck
    exists: what every deck needs that the pool lacks, and what the organiser supplies."""
    built = kit(pod).bot_deck(deck_pool_of(pod, seat))
    deck = {key: [str(c) for c in built.get(key) or ()] for key in deck_sections(pod)}
    problems = check_deck(pod, seat, deck, lang=lang)
    if not problems:
        return deck, None
    return deck, {
        "needs": [n for n in deck_needs(pod, seat, lang) if not n["met"]],
        "problems": problems,
        "supply": _supply_note(pod, lang),
    }


@login_required
@require_http_methods(["GET", "POST"])
def deck(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    seat = seat_of(request.user, pod)
    if seat is None:
        raise PermissionDenied(_("You have no seat in this pod."))
    if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
        return redirect("drafting:room", pk=pk)
    lang = language()
    current = seat.deck
    refused: list[dict[str, Any]] | None = None
    no_deck = None
    if request.method == "POST":
        current = _deck_from_post(pod, request.POST, deck_pool_of(pod, seat))
        try:
            submit_deck(request.user, pod, current)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except PodError as exc:
            if exc.problems:
                refused = exc.problems
            else:
                messages.error(request, str(exc))
        else:
            messages.success(request, _("Deck saved."))
            return redirect("drafting:deck", pk=pk)
    elif request.GET.get("suggest") and pod.status == Pod.Status.BUILDING:
        current, no_deck = _suggestion(pod, seat, lang)
    ctx = _deck_context(request, pod, seat, current, lang)
    ctx["refused"] = refused
    ctx["no_deck"] = no_deck
    return render(request, "drafting/deck.html", ctx, status=400 if refused else 200)


@login_required
@require_POST
def deck_check(request: HttpRequest, pk: int) -> HttpResponse:
    pod = _pod(request, pk)
    seat = seat_of(request.user, pod)
    if seat is None:
        raise PermissionDenied(_("You have no seat in this pod."))
    pool = deck_pool_of(pod, seat)
    current = _deck_from_post(pod, request.POST, pool)
    ctx = _check_context(pod, seat, current, language())
    return render(request, "drafting/_deck_check.html", ctx)


def _play_format(pod: Pod, lang: str) -> str | None:
    """The name of the format the pod's decks are played in, if the game is played
    online with decklists (None: no "Play this deck")."""
    try:
        info = registry.get(pod.game_system)
        if not (info.engine and info.decks and info.needs_decklists):
            return None
        return info.format(limited_format(pod)).label(lang)
    except registry.UnknownGameSystem:
        return None


@login_required
@require_POST
def play_deck(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Play this deck": the deck as it stands in the builder (the saved one when no
    slots are sent) checked like a submitted deck; refused on the builder with every
    broken rule, else sent on to a casual table (``play``) with a signed ticket. The 307
    keeps the post: the table is made by a POST too, with the same CSRF token."""
    pod = _pod(request, pk)
    seat = seat_of(request.user, pod)
    if seat is None:
        raise PermissionDenied(_("You have no seat in this pod."))
    if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
        return redirect("drafting:room", pk=pk)
    sent = any(key.startswith("slot-") for key in request.POST)
    current = _deck_from_post(pod, request.POST, deck_pool_of(pod, seat)) if sent else None
    try:
        ticket = play_ticket(request.user, pod, current, request.POST.get("nonce", ""))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except PodError as exc:
        if not exc.problems:
            messages.error(request, str(exc))
            return redirect("drafting:deck", pk=pk)
        lang = language()
        ctx = _deck_context(request, pod, seat, current if sent else seat.deck, lang)
        ctx.update(refused=exc.problems, play_refused=True, no_deck=None)
        return render(request, "drafting/deck.html", ctx, status=400)
    response = redirect(f"{reverse('play:built_deck')}?{urlencode({'ticket': ticket})}")
    response.status_code = 307
    return response


# ---------------------------------------------------------------- logs and replay


def _seat_for_log(request: HttpRequest, pk: int, number: int) -> tuple[Pod, Seat]:
    pod = _pod(request, pk)
    seat = get_object_or_404(Seat.objects.select_related("user"), pod=pod, number=number)
    if not can_see_picks(request.user, pod, seat):
        raise PermissionDenied(_("These picks are not shown to you (yet)."))
    return pod, seat


@require_GET
def log_json(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    pod, seat_row = _seat_for_log(request, pk, seat)
    data = {
        "pod": pod.pk,
        "seat": seat_row.number + 1,
        "player": seat_row.name,
        "sets": pod.set_codes,
        "picks": pick_log(pod, seat_row),
        "deck": seat_row.deck,
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = (
        f'attachment; filename="pod{pod.pk}-seat{seat_row.number + 1}.json"'
    )
    return response


def log_lines(pod: Pod, seat: Seat, log: list[dict[str, Any]]) -> list[str]:
    """The text download of a pick log: each pack as the seat saw it, the pick marked."""
    lang = language()
    limited = kit(pod)
    lines = [f"{pod} — {seat.name} ({_('seat')} {seat.number + 1})", ""]
    for entry in log:
        lines.append(f"{_('Booster')} {entry['round']}, {_('pick')} {entry['number']}:")
        for card_id in entry["pack_cards"]:
            mark = "--> " if card_id == entry["card"] else "    "
            lines.append(f"{mark}{limited.face(card_id, lang).name}")
        lines.append("")
    return lines


@require_GET
def log_text(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    pod, seat_row = _seat_for_log(request, pk, seat)
    lines = log_lines(pod, seat_row, pick_log(pod, seat_row))
    response = HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="pod{pod.pk}-seat{seat_row.number + 1}.txt"'
    )
    return response


@require_GET
def replay(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    pod, seat_row = _seat_for_log(request, pk, seat)
    log = pick_log(pod, seat_row)
    if not log:
        raise Http404(_("No picks yet."))
    try:
        index = min(max(int(request.GET.get("pick", 1)), 1), len(log)) - 1
    except ValueError:
        index = 0
    entry = log[index]
    lang = language()
    limited = kit(pod)
    return render(
        request,
        "drafting/replay.html",
        {
            "pod": pod,
            "seat": seat_row,
            "entry": entry,
            "pack": cards_info(limited, entry["pack_cards"], lang),
            "pool": cards_info(limited, [e["card"] for e in log[:index]], lang),
            "number": index + 1,
            "total": len(log),
        },
    )
