"""The staff dashboard with much going on: SQL queries and render time per request.

    python bench/dashboard_page.py [--events 50] [--players 64] [--rounds 5] [--pods 20]
                                   [--games 100] [--old-actions 200000] [--recent-actions 6000]
                                   [--repeat 10] [--json]

Uses ``DATABASE_URL`` when set (PostgreSQL for figures worth quoting), otherwise a
scratch SQLite file under var/. Running events are written in bulk
(``tournaments.sample``), pods are opened and games started through the services, and
the action log gets ``--old-actions`` rows from hours ago plus ``--recent-actions``
spread over the last hour, so the per-minute charts read a large table. Then the page,
its JSON twin and each panel are fetched repeatedly by a staff user. The events, pods and
games made are deleted at the end. With ``REDIS_URL`` set the Celery panel asks the workers
(``inspect``, up to 0.5 s, cached 15 s); the first, warming request pays for that.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-dashboard.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")


def timed(client, url: str, repeat: int) -> tuple[float, float, int]:
    times = []
    size = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.content)
    return statistics.median(times) * 1000, max(times) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pods", type=int, default=20)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--old-actions", type=int, default=200_000)
    parser.add_argument("--recent-actions", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from dashboard.views import PANELS
    from drafting.services.creating import quick_pod
    from play.models import ActionLog
    from play.services.starting import create_bot_game
    from tournaments.sample import bulk_event

    call_command("migrate", verbosity=0)
    User = get_user_model()
    staff, _ = User.objects.get_or_create(username="bench-staff", defaults={"is_staff": True})
    player, _ = User.objects.get_or_create(username="bench-player")
    t0 = time.perf_counter()
    events = [
        bulk_event(staff, players=args.players, rounds=args.rounds, seed=n + 1, name=f"bench{n}")
        for n in range(args.events)
    ]
    pods = [quick_pod(player) for _ in range(args.pods)]
    games = [create_bot_game(player, "ascension", "heuristic") for _ in range(args.games)]
    now = timezone.now()
    session = games[0]
    batch = 10_000
    seq = 10_000
    for start in range(0, args.old_actions, batch):
        n = min(batch, args.old_actions - start)
        ActionLog.objects.bulk_create(
            ActionLog(
                session=session, seq=seq + i, seat=0, action={}, applied_at=now - timedelta(hours=3)
            )
            for i in range(n)
        )
        seq += n
    # auto_now_add stamps the rows now; spread the recent ones over the hour in id order.
    recent = ActionLog.objects.bulk_create(
        ActionLog(session=session, seq=seq + i, seat=0, action={})
        for i in range(args.recent_actions)
    )
    for i, row in enumerate(recent):
        row.applied_at = now - timedelta(seconds=3590 * (1 - (i + 1) / max(1, len(recent))))
    ActionLog.objects.bulk_update(recent, ["applied_at"], batch_size=2000)
    old = ActionLog.objects.filter(session=session, applied_at__lt=now - timedelta(hours=2))
    old.update(applied_at=now - timedelta(hours=3))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    build_s = time.perf_counter() - t0

    client = Client()
    client.force_login(staff)
    client.get("/staff/")  # warm templates, card data and the inspect cache
    with CaptureQueriesContext(connection) as ctx:
        client.get("/staff/")
    queries = len(ctx.captured_queries)
    page_ms, page_max, page_size = timed(client, "/staff/", args.repeat)
    json_ms, json_max, _ = timed(client, "/staff/metrics.json", args.repeat)
    panels = {}
    for name in PANELS:
        with CaptureQueriesContext(connection) as ctx:
            client.get(f"/staff/panel/{name}/")
        count = len(ctx.captured_queries)  # read now: each request empties Django's query log
        median, _, _ = timed(client, f"/staff/panel/{name}/", args.repeat)
        panels[name] = {"queries": count, "ms_median": round(median, 1)}
    load = os.getloadavg()[0]
    result = {
        "database": connection.vendor,
        "events": args.events,
        "players_per_event": args.players,
        "rounds": args.rounds,
        "pods": args.pods,
        "games": args.games,
        "action_rows": args.old_actions + args.recent_actions,
        "queries": queries,
        "page_ms_median": round(page_ms, 1),
        "page_ms_max": round(page_max, 1),
        "page_kb": round(page_size / 1024, 1),
        "json_ms_median": round(json_ms, 1),
        "json_ms_max": round(json_max, 1),
        "panels": panels,
        "build_s": round(build_s, 1),
        "load_average_1m": round(load, 2),
    }
    for pod in pods:
        pod.delete()
    for game in games:
        game.delete()
    for event in events:
        event.delete()
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Staff dashboard: {args.events} running events of {args.players} players, {args.pods} pods "
        f"drafting, {args.games} games, {result['action_rows']} logged actions ({connection.vendor})"
    )
    print(f"  SQL queries per page      {queries}")
    print(
        f"  page median / max         {result['page_ms_median']} ms / {result['page_ms_max']} ms ({result['page_kb']} KiB)"
    )
    print(f"  JSON median / max         {result['json_ms_median']} ms / {result['json_ms_max']} ms")
    for name, figures in panels.items():
        print(
            f"  panel {name:<10}          {figures['ms_median']} ms, {figures['queries']} queries"
        )
    print(f"  building the data         {result['build_s']} s")
    print(
        f"  machine load (1 min)      {result['load_average_1m']} (other work on the machine included)"
    )


if __name__ == "__main__":
    main()
