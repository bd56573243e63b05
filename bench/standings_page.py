"""Standings page of a 2048-player event after 9 Swiss rounds: render time and SQL queries.

    python bench/standings_page.py [--players 2048] [--rounds 9] [--repeat 20] [--json]

Uses ``DATABASE_URL`` when set (e.g. the PostgreSQL of CI), otherwise a scratch
SQLite file under var/. The event is written in bulk (tournaments.sample), the
standings snapshot computed once, then the public page is fetched repeatedly.
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
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-standings.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.sample import bulk_event
    from tournaments.services.standings import refresh_standings

    call_command("migrate", verbosity=0)
    organiser, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    t0 = time.perf_counter()
    event = bulk_event(organiser, players=args.players, rounds=args.rounds, seed=7, name="Bench")
    build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    refresh_standings(event)
    standings_s = time.perf_counter() - t0

    client = Client()
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    client.get(url)  # warm templates
    times = []
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    queries = len(ctx.captured_queries)
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        assert response.status_code == 200
    result = {
        "players": args.players,
        "rounds": args.rounds,
        "database": connection.vendor,
        "queries": queries,
        "render_ms_median": round(statistics.median(times) * 1000, 1),
        "render_ms_max": round(max(times) * 1000, 1),
        "standings_compute_s": round(standings_s, 3),
        "build_s": round(build_s, 2),
        "page_kb": round(len(response.content) / 1024, 1),
    }
    event.delete()
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Standings page, {args.players} players after {args.rounds} rounds ({connection.vendor})"
    )
    print(f"  SQL queries per request   {queries}")
    print(
        f"  render median / max       {result['render_ms_median']} ms / {result['render_ms_max']} ms"
    )
    print(f"  page size                 {result['page_kb']} KiB")
    print(
        f"  recomputing standings     {result['standings_compute_s']} s (on each result up to 512 players; debounced task above)"
    )
    print(f"  building the event        {result['build_s']} s")


if __name__ == "__main__":
    main()
