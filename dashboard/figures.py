"""What the dashboard shows, read from the database in a fixed number of queries.

Each ``*_figures`` function returns plain data (numbers, strings, datetimes, lists
and dicts) for one panel; the views render it and ``as_json`` serialises it. The
number of queries does not grow with the number of events, pods or games (a test
holds it), and lists are capped at ``LIST_LIMIT`` rows.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Count, F, Max, Min, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce, TruncMinute
from django.utils.translation import pgettext

from dashboard import charts, waits
from dashboard.models import ErrorRecord
from drafting.models import Pick, Pod, Seat
from drafting.services.kits import kit_for
from play.models import ActionLog, GameSession
from tournaments.models import Event, Game, Match, Round

LIST_LIMIT = 50
WINDOW_MINUTES = 60
RECENT_MINUTES = 5
ERRORS_SHOWN = 10
# A pick timer this late has not been run by any worker.
TIMER_GRACE = timedelta(seconds=15)


# ---------------------------------------------------------------- events


def _label(choices, value) -> str:
    try:
        return choices(value).label
    except ValueError:
        return value or ""


def events_figures(now: datetime) -> dict[str, Any]:
    """Running events: the current round, its matches pending and decided, games per round."""
    latest = Round.objects.filter(event=OuterRef("pk")).order_by("-number")
    rows = list(
        Event.objects.filter(status=Event.Status.RUNNING)
        .annotate(
            round_id=Subquery(latest.values("pk")[:1]),
            round_number=Subquery(latest.values("number")[:1]),
            round_status=Subquery(latest.values("status")[:1]),
            round_title=Subquery(latest.values("title")[:1]),
            round_ends_at=Subquery(latest.values("ends_at")[:1]),
        )
        .order_by("-updated_at", "-pk")
        .values(
            "pk", "name", "slug", "game_system", "structure", "phase", "play_online",
            "round_id", "round_number", "round_status", "round_title", "round_ends_at",
        )[: LIST_LIMIT + 1]
    )  # fmt: skip
    more = len(rows) > LIST_LIMIT
    rows = rows[:LIST_LIMIT]
    round_ids = [r["round_id"] for r in rows if r["round_id"]]
    matches: dict[int, dict[str, int]] = defaultdict(dict)
    for m in (
        Match.objects.filter(round_id__in=round_ids, is_bye=False)
        .values("round_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    ):
        matches[m["round_id"]][m["status"]] = m["n"]
    games: dict[int, dict[int, int]] = defaultdict(dict)
    for g in (
        Game.objects.filter(match__round__event_id__in=[r["pk"] for r in rows])
        .values(event_ref=F("match__round__event_id"), round_no=F("match__round__number"))
        .annotate(n=Count("id"))
        .order_by()
    ):
        games[g["event_ref"]][g["round_no"]] = g["n"]
    events = []
    for r in rows:
        by_status = matches.get(r["round_id"], {})
        decided = by_status.get(Match.Status.FINAL, 0)
        total = sum(by_status.values())
        per_round = games.get(r["pk"], {})
        numbers = list(range(1, max([*per_round, r["round_number"] or 0, 1]) + 1))
        ends_at = r["round_ends_at"]
        events.append(
            {
                "id": r["pk"],
                "name": r["name"],
                "slug": r["slug"],
                "game_system": r["game_system"],
                "structure": r["structure"],
                "phase": r["phase"],
                "play_online": r["play_online"],
                "round": (
                    {
                        "number": r["round_number"],
                        "title": pgettext("round title", r["round_title"])
                        if r["round_title"]
                        else "",
                        "status": r["round_status"],
                        "status_label": str(_label(Round.Status, r["round_status"])),
                        "ends_at": ends_at,
                        "overdue": bool(ends_at and ends_at < now and total > decided),
                    }
                    if r["round_id"]
                    else None
                ),
                "matches_total": total,
                "matches_decided": decided,
                "matches_pending": total - decided,
                "matches_disputed": by_status.get(Match.Status.DISPUTED, 0),
                "matches_reported": by_status.get(Match.Status.REPORTED, 0),
                "games_per_round": [{"round": n, "games": per_round.get(n, 0)} for n in numbers],
            }
        )
    return {"count": len(events), "more": more, "events": events}


# ---------------------------------------------------------------- pods


def _pool_size(system: str, set_codes: list[str]) -> int | None:
    """Cards each seat drafts: the boosters' sizes added (None if the sets are unknown)."""
    try:
        return kit_for(system).pool_size(set_codes)
    except Exception:
        return None


def pods_figures(now: datetime) -> dict[str, Any]:
    """Pods drafting: progress, seats waiting for a pack, the oldest pending pick."""
    counts = dict(
        Pod.objects.exclude(status=Pod.Status.FINISHED)
        .values_list("status")
        .annotate(n=Count("id"))
        .order_by()
    )
    picks_made = (
        Pick.objects.filter(pod=OuterRef("pk"))
        .order_by()
        .values("pod")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = list(
        Pod.objects.filter(status=Pod.Status.DRAFTING)
        .annotate(
            picks_made=Coalesce(Subquery(picks_made), Value(0)),
            queues=F("state__queues"),
            booster_round=F("state__round"),
            booster_rounds=F("state__rounds"),
        )
        .order_by("started_at", "pk")
        .values(
            "pk", "name", "number", "game_system", "set_codes", "seats_count", "started_at",
            "event__name", "event__slug", "picks_made", "queues", "booster_round", "booster_rounds",
        )[: LIST_LIMIT + 1]
    )  # fmt: skip
    more = len(rows) > LIST_LIMIT
    rows = rows[:LIST_LIMIT]
    ids = [r["pk"] for r in rows]
    pack_last: dict[tuple[int, str], datetime] = {
        (p["pod_id"], p["pack_id"]): p["last"]
        for p in Pick.objects.filter(pod_id__in=ids)
        .values("pod_id", "pack_id")
        .annotate(last=Max("picked_at"))
        .order_by()
    }
    seat_last: dict[tuple[int, int], datetime] = {
        (p["pod_id"], p["seat_no"]): p["last"]
        for p in Pick.objects.filter(pod_id__in=ids)
        .values("pod_id", seat_no=F("seat__number"))
        .annotate(last=Max("picked_at"))
        .order_by()
    }
    overdue = dict(
        Seat.objects.filter(pod_id__in=ids, pick_deadline__lt=now - TIMER_GRACE)
        .values_list("pod_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    by_pod_pack: dict[int, dict[str, datetime]] = defaultdict(dict)
    for (pod_id, pack), last in pack_last.items():
        by_pod_pack[pod_id][pack] = last
    by_pod_seat: dict[int, dict[int, datetime]] = defaultdict(dict)
    for (pod_id, seat), last in seat_last.items():
        by_pod_seat[pod_id][seat] = last
    pods = []
    oldest_overall = None
    for r in rows:
        queues = r["queues"] if isinstance(r["queues"], list) else []
        current = r["booster_round"] if isinstance(r["booster_round"], int) else 0
        since = waits.pending_since(
            queues,
            current,
            r["started_at"],
            by_pod_pack.get(r["pk"], {}),
            by_pod_seat.get(r["pk"], {}),
        )
        oldest = min(since.values(), default=None)
        age = (now - oldest).total_seconds() if oldest else None
        if age is not None and (oldest_overall is None or age > oldest_overall):
            oldest_overall = age
        size = (
            _pool_size(r["game_system"], r["set_codes"])
            if isinstance(r["set_codes"], list)
            else None
        )
        total = size * r["seats_count"] if size else None
        pods.append(
            {
                "id": r["pk"],
                "name": r["name"]
                or (f"{r['event__name']} · {r['number']}" if r["event__name"] else f"#{r['pk']}"),
                "event_name": r["event__name"],
                "event_slug": r["event__slug"],
                "game_system": r["game_system"],
                "seats": r["seats_count"],
                "booster_round": current + 1,
                "booster_rounds": r["booster_rounds"],
                "picks_made": r["picks_made"],
                "picks_total": total,
                "percent": round(100 * r["picks_made"] / total) if total else None,
                "seats_waiting": sum(1 for q in queues if not q),
                "seats_holding": sum(1 for q in queues if q),
                "packs_queued": sum(len(q) for q in queues),
                "oldest_pick_age": round(age, 1) if age is not None else None,
                "overdue_timers": overdue.get(r["pk"], 0),
                "started_at": r["started_at"],
            }
        )
    return {
        "waiting": counts.get(Pod.Status.WAITING, 0),
        "drafting": counts.get(Pod.Status.DRAFTING, 0),
        "building": counts.get(Pod.Status.BUILDING, 0),
        "more": more,
        "oldest_pick_age": round(oldest_overall, 1) if oldest_overall is not None else None,
        "overdue_timers": sum(overdue.values()),
        "pods": pods,
    }


# ---------------------------------------------------------------- games


def games_figures(
    now: datetime, actions: list[tuple[datetime, int]] | None = None
) -> dict[str, Any]:
    """Games being played: how many, by game system, the oldest, actions lately."""
    by_system: dict[str, dict[str, Any]] = {}
    for row in (
        GameSession.objects.filter(
            status__in=[GameSession.Status.RUNNING, GameSession.Status.WAITING]
        )
        .values("system", "status")
        .annotate(
            n=Count("id"),
            oldest=Min("started_at"),
            tournament=Count("id", filter=Q(match__isnull=False)),
        )
        .order_by()
    ):
        item = by_system.setdefault(
            row["system"],
            {"system": row["system"], "running": 0, "waiting": 0, "tournament": 0, "oldest": None},
        )
        item[row["status"]] = row["n"]
        if row["status"] == GameSession.Status.RUNNING:
            item["tournament"] = row["tournament"]
            item["oldest"] = row["oldest"]
    systems = sorted(by_system.values(), key=lambda s: (-s["running"], s["system"]))
    for s in systems:
        s["oldest_age"] = round((now - s["oldest"]).total_seconds(), 1) if s["oldest"] else None
    oldest = list(
        GameSession.objects.filter(status=GameSession.Status.RUNNING)
        .order_by("started_at", "pk")
        .values("pk", "system", "seq", "started_at", "updated_at", "match_id", "game_number")[:5]
    )
    for g in oldest:
        g["age"] = round((now - g["started_at"]).total_seconds(), 1) if g["started_at"] else None
        g["idle"] = round((now - g["updated_at"]).total_seconds(), 1) if g["updated_at"] else None
    recent = sum(n for _, n in (actions or [])[-RECENT_MINUTES:])
    return {
        "running": sum(s["running"] for s in systems),
        "waiting": sum(s["waiting"] for s in systems),
        "by_system": systems,
        "oldest": oldest,
        "actions_recent": recent,
        "recent_minutes": RECENT_MINUTES,
    }


# ---------------------------------------------------------------- activity per minute


def _per_minute(model, time_field: str, now: datetime, minutes: int) -> list[tuple[datetime, int]]:
    """Rows per minute over the window, read from the newest rows only.

    Ids grow with time, so the last row older than the window (found by walking the
    primary key index backwards) bounds the rows to count; no index on the time
    column is needed.
    """
    start = now.replace(second=0, microsecond=0) - timedelta(minutes=minutes - 1)
    boundary = model.objects.filter(**{f"{time_field}__lt": start}).order_by("-pk").values("pk")[:1]
    counts = {
        row["minute"]: row["n"]
        for row in model.objects.filter(
            pk__gt=Coalesce(Subquery(boundary), Value(0)), **{f"{time_field}__gte": start}
        )
        .annotate(minute=TruncMinute(time_field, tzinfo=UTC))
        .values("minute")
        .annotate(n=Count("pk"))
        .order_by()
    }
    return charts.per_minute(counts, now, minutes)


def actions_per_minute(now: datetime) -> list[tuple[datetime, int]]:
    return _per_minute(ActionLog, "applied_at", now, WINDOW_MINUTES)


def activity_figures(now: datetime) -> dict[str, Any]:
    actions = actions_per_minute(now)
    picks = _per_minute(Pick, "picked_at", now, WINDOW_MINUTES)
    return {"minutes": WINDOW_MINUTES, "actions": actions, "picks": picks}


# ---------------------------------------------------------------- errors


def errors_figures(now: datetime) -> dict[str, Any]:
    recent = list(
        ErrorRecord.objects.defer("traceback").order_by("-last_seen", "-pk")[:ERRORS_SHOWN]
    )
    totals = ErrorRecord.objects.aggregate(
        rows=Count("id"),
        # Different errors seen in the last hour (each row counts its repeats).
        last_hour=Count("id", filter=Q(last_seen__gte=now - timedelta(hours=1))),
    )
    return {"recent": recent, "rows": totals["rows"], "last_hour": totals["last_hour"]}
