"""Time to show one step of a long game's replay: the page and the state behind it.

    python bench/replay_steps.py [--moves 600] [--system ascension] [--repeat 10] [--json]

Uses ``DATABASE_URL`` when set (e.g. the PostgreSQL of CI), otherwise a scratch SQLite
file under var/, and the project's cache (Redis when ``REDIS_URL`` is set). A game of
``--moves`` moves is dealt through ``play.services`` (a person against a bot), played
on with legal moves picked by a seeded random generator for every seat, stored in the
action log as the workers store it, and ended by a concession. Then, for a late step
(90 % of the way), an early one and the last: the wall and CPU time of
``replay_state`` and of the replay fragment a step of the replay page fetches, first
cold (nothing cached yet), then the median and the worst of ``--repeat`` warm fetches,
and of stepping back and forth one move around the late step, as the slider and the
arrow keys do.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-replay.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")


def _timed(fn) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000


def _long_game(system_name: str, moves: int, seed: int):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from engine.core.protocol import LEAVE
    from play.models import ActionLog, GameSession
    from play.services.engines import engine_of
    from play.services.starting import create_bot_game

    user, _ = get_user_model().objects.get_or_create(username="bench-replayer")
    session = create_bot_game(user, system_name, "heuristic")
    system = engine_of(session.system)
    state = session.state
    pick = random.Random(seed)
    rows = []
    for seq in range(moves):
        acting = list(system.to_act(state))
        if not acting or system.result(state).finished:
            break
        seat = acting[0]
        action = pick.choice(system.legal_actions(state, seat))
        state, events = system.apply(state, seat, action)
        rows.append(ActionLog(session=session, seq=seq, seat=seat, action=action, events=events))
    reason = GameSession.EndReason.RULES
    if not system.result(state).finished:
        reason = GameSession.EndReason.CONCEDE
        state, events = system.leave(state, 0, "concede")
        rows.append(
            ActionLog(
                session=session,
                seq=len(rows),
                seat=0,
                action={"type": LEAVE, "reason": "concede"},
                events=events,
            )
        )
    ActionLog.objects.bulk_create(rows, batch_size=500)
    result = system.result(state)
    session.state = state
    session.seq = len(rows)
    session.status = GameSession.Status.FINISHED
    session.end_reason = reason
    session.result = {"winners": list(result.winners)}
    session.finished_at = timezone.now()
    session.save()
    return session


def _measure(session, client, url, late, last, repeat, cache) -> dict:
    from play.services.reading import replay_state

    out = {}
    cache.clear()
    for name, step in (("late", late), ("early", max(1, last // 10)), ("last", last)):
        cold_wall, cold_cpu = _timed(lambda s=step: replay_state(session, s))
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = _timed(lambda s=step: replay_state(session, s))
            walls.append(wall)
            cpus.append(cpu)
        out[f"state_{name}"] = {
            "step": step,
            "cold_ms": round(cold_wall, 1),
            "cold_cpu_ms": round(cold_cpu, 1),
            "median_ms": round(statistics.median(walls), 1),
            "max_ms": round(max(walls), 1),
            "median_cpu_ms": round(statistics.median(cpus), 1),
        }
    cache.clear()
    client.get(url, {"step": 1})  # warm the templates
    pages = {}
    for name, step in (("late", late), ("last", last)):
        cold_wall, cold_cpu = _timed(lambda s=step: client.get(url, {"step": s}))
        walls, cpus = [], []
        for k in range(repeat):
            # Back and forth around the step, as the arrow keys go.
            s = step - (k % 3) if step == last else step + (k % 3) - 1
            wall, cpu = _timed(lambda s=s: client.get(url, {"step": s}))
            walls.append(wall)
            cpus.append(cpu)
        pages[name] = {
            "step": step,
            "cold_ms": round(cold_wall, 1),
            "cold_cpu_ms": round(cold_cpu, 1),
            "median_ms": round(statistics.median(walls), 1),
            "max_ms": round(max(walls), 1),
            "median_cpu_ms": round(statistics.median(cpus), 1),
            "max_cpu_ms": round(max(cpus), 1),
        }
    out["fragment"] = pages
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--system", default="ascension")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from play.services import reading
    from play.services.reading import replay_state

    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    session = _long_game(args.system, args.moves, args.seed)
    build_s = time.perf_counter() - t0
    assert replay_state(session) == session.state, "the stored game does not replay"
    client = Client()
    url = reverse("play:replay_step", args=[session.pk])
    last = session.seq
    late = last * 9 // 10
    result = {
        "system": args.system,
        "moves": last,
        "database": connection.vendor,
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        "build_s": round(build_s, 2),
    }
    every = reading.SNAPSHOT_EVERY
    for mode, snapshots in (("rebuilt", 10**9), ("snapshots", every)):
        reading.SNAPSHOT_EVERY = snapshots  # 10**9: no snapshot, as before the cache
        measured = _measure(session, client, url, late, last, args.repeat, cache)
        result[mode] = measured
    reading.SNAPSHOT_EVERY = every
    for step in (late - 1, late, last):  # from the snapshots, the same states as rebuilt
        assert replay_state(session, step) == reading._full_replay(session, step)
    session.delete()
    cache.clear()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
