"""Time to load a long running game's table: the page and the fragment a seat fetches
after every move.

    python bench/table_page.py [--system voskhozhdenie] [--moves 1200] [--repeat 3] [--json]
    python bench/table_page.py --replay [--step N] ...

Uses ``DATABASE_URL`` when set, otherwise a scratch SQLite file under var/, and the
project's cache (Redis when ``REDIS_URL`` is set). A game of ``--moves`` moves is dealt
through ``play.services`` (a person against a bot) and played on with legal moves picked
by a seeded random generator for every seat (a move that would end the game is passed
over while another exists), stored as the workers store it; the game stays running.
Then the CPU and wall time of the person's table page (``play:game``) and of the table
fragment (``play:table``): cold (the cache emptied first) and ``--repeat`` warm loads,
each run reported and the worst of them; first reading the whole log on every load (as
before decision 0065), then only its end (``play.services.reading.table_log``), and the
two pages compared.

With ``--replay`` the game is then conceded and the replay of a late step (``--step``,
the move before the last by default) is timed instead: its page (``play:replay``) and
the fragment the replay page swaps in (``play:replay_step``), the state's snapshots warm;
first reading and rendering every move up to the step (as before the replay read the end
of the log), then the end of the log (``table_log``, as the live table).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-table.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")


def _timed(fn) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000


def _loads(load, repeat: int) -> dict:
    """One page load on an empty cache, then ``repeat`` warm ones: wall and CPU ms."""
    from django.core.cache import cache

    cache.clear()
    cold_wall, cold_cpu = _timed(load)
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = _timed(load)
        walls.append(round(wall, 1))
        cpus.append(round(cpu, 1))
    return {
        "cold_cpu_ms": round(cold_cpu, 1),
        "cold_ms": round(cold_wall, 1),
        "cpu_ms": cpus,
        "worst_cpu_ms": max(cpus),
        "wall_ms": walls,
    }


def long_running_game(system_name: str, moves: int, seed: int, user):
    """A running game of up to ``moves`` moves, stored as the workers store it."""
    from play.decks import deck_for
    from play.models import ActionLog
    from play.services.engines import engine_of
    from play.services.starting import create_bot_game

    session = create_bot_game(user, system_name, "heuristic")
    system = engine_of(session.system)
    # Dealt again from ``seed``, starter decks too: the same game on every run.
    decks = [deck_for(system_name, None, seed + n) for n in range(session.seats.count())]
    session.seed, session.decks = seed, decks
    state = system.new_game(session.config, decks, seed)
    pick = random.Random(seed)
    rows = []
    for seq in range(moves):
        acting = list(system.to_act(state))
        if not acting:
            break
        seat = acting[0]
        options = system.legal_actions(state, seat)
        pick.shuffle(options)
        for action in options:
            after, events = system.apply(state, seat, action)
            if not system.result(after).finished:
                break
        else:
            break  # every move ends the game: it stays one move short of its end
        state = after
        rows.append(ActionLog(session=session, seq=seq, seat=seat, action=action, events=events))
    ActionLog.objects.bulk_create(rows, batch_size=500)
    session.state = state
    session.seq = len(rows)
    session.save()
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1200)
    parser.add_argument("--system", default="voskhozhdenie")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--replay", action="store_true", help="time a late replay step")
    parser.add_argument("--step", type=int, default=None, help="the replay's step")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-table")
    t0 = time.perf_counter()
    session = long_running_game(args.system, args.moves, args.seed, user)
    build_s = time.perf_counter() - t0
    client = Client()
    client.force_login(user)
    result = {
        "system": args.system,
        "moves": session.seq,
        "database": connection.vendor,
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        "build_s": round(build_s, 2),
    }
    from play import views
    from play.services.reading import TableLog, game_log, table_log

    if args.replay:
        result.update(_replay_steps(session, user, client, args))
        session.delete()
        cache.clear()
        _report(result, args.json)
        return

    def whole_log(session, shown=None, total=None):
        # As before decision 0065: the whole log read and folded on every load.
        return TableLog(game_log(session), {}, session.seq)

    pages = {}
    for mode, reader in (("whole log", whole_log), ("end of the log", table_log)):
        views.table_log = reader
        for name, url in (
            ("page", reverse("play:game", args=[session.pk])),
            ("fragment", reverse("play:table", args=[session.pk])),
        ):
            result[f"{mode}: {name}"] = _loads(lambda u=url: client.get(u), args.repeat)
            pages[(mode, name)] = client.get(url).content
    views.table_log = table_log
    # The log part alone: every row read and folded, or the end of it from the cache.
    from engine.core.describe import named_by_events

    def whole_fold():
        rows = game_log(session)
        return named_by_events(e for r in rows for e in r["events"] if isinstance(e, dict))

    for mode, fn in (("whole log", whole_fold), ("end of the log", lambda: table_log(session))):
        cache.clear()
        _, cold_cpu = _timed(fn)
        cpus = [round(_timed(fn)[1], 2) for _ in range(args.repeat)]
        result[f"{mode}: log only"] = {
            "cold_cpu_ms": round(cold_cpu, 2),
            "cpu_ms": cpus,
            "worst_cpu_ms": max(cpus),
        }
    strip = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"|data-csrf="[^"]*"')
    for name in ("page", "fragment"):  # the same table either way
        before, after = (strip.sub(b"", pages[(m, name)]) for m in ("whole log", "end of the log"))
        assert before == after, f"the {name} differs"
    session.delete()
    cache.clear()
    _report(result, args.json)


def _report(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


def _replay_steps(session, user, client, args) -> dict:
    """The replay of a late step of ``session`` (conceded first): page and fragment, every
    move up to the step read and rendered vs the end of the log."""
    from django.urls import reverse

    from play import views
    from play.services.acting import concede
    from play.services.reading import TableLog, game_log, table_log

    concede(user, session)
    session.refresh_from_db()
    step = session.seq - 1 if args.step is None else args.step
    real_context = views._table_context

    def whole_log(session, shown=None, total=None):
        # As before: every move up to the step read, folded and rendered.
        return TableLog(game_log(session, total), {}, total)

    def every_row(*a, **kw):
        return real_context(*a, **{**kw, "log_rows": len(a[4])})

    result: dict = {"step": step, "moves": session.seq}
    modes = (
        ("every move", whole_log, every_row),
        ("end of the log", table_log, real_context),
    )
    for mode, reader, builder in modes:
        views.table_log, views._table_context = reader, builder
        for name, url in (
            ("replay page", reverse("play:replay", args=[session.pk])),
            ("replay fragment", reverse("play:replay_step", args=[session.pk])),
        ):
            result[f"{mode}: {name}"] = _loads(
                lambda u=url: client.get(u, {"step": step}), args.repeat
            )
    views.table_log, views._table_context = table_log, real_context
    return result


if __name__ == "__main__":
    main()
