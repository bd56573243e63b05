"""Draft load: pods of human seats picking at once, each seat in its own thread.

    python bench/draft_load.py [--pods 4] [--seats 8] [--json]

Every seat is a thread that picks (``drafting.services.make_pick``: pod row lock, pure
``draft.pick``, Pick row and new state in one transaction) as soon as it holds a pack,
so the pods' row locks are as contended as they can be. Timers are off and there are
no bots, so no Celery worker is needed. Reports picks per second, the median and 95th
percentile time of one pick, and the size of the stored state at the end.

Uses ``DATABASE_URL`` when set (e.g. PostgreSQL), otherwise a scratch SQLite file under
var/ (SQLite serialises writers, so its figures are not those of production).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-draft.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=4)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, connections

    from drafting import draft as draft_core
    from drafting import services
    from drafting.models import Pick, Pod

    call_command("migrate", verbosity=0)
    User = get_user_model()
    run = f"bench{int(time.time())}"
    pods = []
    for p in range(args.pods):
        users = [
            User.objects.create_user(f"{run}-{p}-{s}", password="x") for s in range(args.seats)
        ]
        pod = services.create_pod(
            users[0], seats_count=args.seats, pick_max_seconds=0, name=f"{run} {p}"
        )
        for user in users[1:]:
            services.join_pod(user, pod)
        pods.append((services.start_pod(users[0], pod), users))

    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def drafter(pod_id: int, user) -> None:
        mine: list[float] = []
        try:
            seat = Pod.objects.get(pk=pod_id).seats.get(user=user).number
            while True:
                pod = Pod.objects.get(pk=pod_id)
                if pod.status != Pod.Status.DRAFTING:
                    break
                pack = draft_core.current_pack(pod.state, seat)
                if pack is None:
                    time.sleep(0.02)  # a page waits for its websocket notice, not polls
                    continue
                number = draft_core.pick_number(pod.state, seat)
                t0 = time.perf_counter()
                services.make_pick(user, pod, number, pack["cards"][0])
                mine.append(time.perf_counter() - t0)
        except Exception as exc:  # reported, not raised: the other threads go on
            errors.append(repr(exc))
        finally:
            connections.close_all()
            with lock:
                times.extend(mine)

    threads = [
        threading.Thread(target=drafter, args=(pod.pk, user))
        for pod, users in pods
        for user in users
    ]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started

    times.sort()
    picks = Pick.objects.filter(pod__in=[pod for pod, _ in pods]).count()
    state_kb = len(json.dumps(Pod.objects.get(pk=pods[0][0].pk).state)) / 1024
    result = {
        "database": connection.vendor,
        "pods": args.pods,
        "seats": args.seats,
        "picks": picks,
        "picks_per_s": round(picks / elapsed, 1),
        "pick_ms_median": round(statistics.median(times) * 1000, 2) if times else None,
        "pick_ms_p95": round(times[int(len(times) * 0.95)] * 1000, 2) if times else None,
        "state_kb_at_end": round(state_kb, 1),
        "errors": len(errors),
        "seconds": round(elapsed, 2),
    }
    for pod, users in pods:
        pod.delete()
        User.objects.filter(pk__in=[u.pk for u in users]).delete()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value}")
        for error in errors[:5]:
            print("error:", error)


if __name__ == "__main__":
    main()
