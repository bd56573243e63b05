"""Online-play load through the real stack: uvicorn, Redis, Celery worker processes, PostgreSQL.

    python bench/play_load.py [--games 100,500,1000] [--seconds 60] [--think-ms 4000]
                              [--workers 2] [--worker-kind prefork|solo] [--servers 2]
                              [--server uvicorn|daphne] [--via ws|http]
                              [--system ascension] [--json]

Creates a scratch PostgreSQL database (migrated, dropped at the end), flushes Redis db 10,
starts ``--servers`` ASGI server processes (uvicorn, or ``--server daphne``) on one
listening socket and ``--workers`` Celery worker processes (the children of one prefork
worker, or with ``--worker-kind solo`` that many workers running tasks in their own
process). For each N in ``--games`` it deals N fresh
two-player games (casual games between two people, through ``play.services``; clocks on
with ``--time-bank`` seconds each, so the clock tasks are queued as in production) and
drives them for ``--seconds``. Every seat is an asyncio client in this process speaking
the websocket protocol over asyncio streams, as the game page does: it opens ``/ws/play/<id>/``
(logged in by a session cookie made in bulk beforehand), and whenever the pushed view
says it is to act, it "thinks" and then sends a legal action picked at random from the
``legal`` list of its own view, with the ``seq`` of that view. ``--via ws`` (default)
sends ``{"seq", "action"}`` over the socket; ``--via http`` POSTs it to
``/play/<id>/act/`` as the page's fetch does (one keep-alive connection per seat).

Pacing, stated plainly: each action is preceded by a think time drawn uniformly from
0.5x..1.5x ``--think-ms`` (default 4000 ms, i.e. a person taking 2-6 s per click; the
first action of each seat waits 0..1.5x so the games do not start in lockstep). With
``--think-ms 0`` the clients answer at once: that shows the throughput ceiling, and the
latencies then include queueing behind every other game's action. The bench does not
re-fetch the rendered table after each push as the browser page does; it measures the
action path only.

Figures per row (measured over the last ``--seconds`` minus ``--warmup``):

* ``actions_per_second``: actions accepted (their pushed view came back);
* ``p50_ms``/``p99_ms``: from sending an action to the acting seat receiving the pushed
  view with the next ``seq`` over its websocket;
* ``opponent_p50_ms``/``opponent_p99_ms``: the same to the other seat's socket;
* ``stored_p50_ms``/``stored_p99_ms``: from sending to the ``ActionLog`` row's
  ``applied_at`` (the server and the queue's part, before the worker commits and pushes);
* ``lost``: actions a client saw accepted that are not in the ``ActionLog`` as sent, plus
  gaps in a session's log (seq must run 0..session.seq-1);
* ``duplicated``: log rows beyond one per (session, seq), plus rows beyond ``session.seq``;
  a sample of sessions (``--replay-sample``) is also replayed from seed and log and must
  equal the stored state (``checks.replay_mismatch``);
* ``push_timeouts``: a seat waited ``PUSH_TIMEOUT`` seconds for the view answering its
  action and reconnected (the page's socket reconnects too); ``checks`` also counts
  ``logged_not_seen_accepted``, moves stored whose view no client saw before the end.

Settings can be varied for an experiment without touching the project:
``--channel-capacity``, ``--prefetch`` (Celery prefetch multiplier) and
``--db-reuse-max`` (``CELERY_DB_REUSE_MAX``) are written to a settings module in the
bench's temporary directory for the server and the worker; by default the project's settings
are used as they are.

The machine is shared: the load average and CPU seconds of each part are printed with the
figures so a busy machine can be told from a slow system.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import random
import secrets
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _stack  # noqa: E402

DB_NAME = "gauntlet_bench_play"
REDIS_URL = "redis://127.0.0.1:6379/10"
ENV = {
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "REDIS_URL": REDIS_URL,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "FAST_PASSWORD_HASHER": "true",
    "DEBUG": "false",
    "SECRET_KEY": "play-load-bench-only",
    # Production settings, but served over plain http on 127.0.0.1 (docs/security.md).
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "LOG_LEVEL": "WARNING",
    "CHANNELS_PREFIX": "benchplay",
    "CACHE_PREFIX": "benchplay",
}
os.environ.update(ENV)

PUSH_TIMEOUT = 15.0  # seconds without the pushed view before a seat reconnects


# ---------------------------------------------------------------- clients


class Game:
    def __init__(self, session_id: int) -> None:
        self.session_id = session_id
        self.sent_at: dict[int, float] = {}  # seq -> when its action was sent


class Seat:
    """One person at one game: a websocket, a think time, a random legal choice."""

    def __init__(self, port, game, number, cookie, think, via, rng, clock) -> None:
        self.port, self.game, self.number = port, game, number
        self.cookie = cookie
        self.think = think
        self.via = via
        self.rng = rng
        self.clock = clock  # shared: measuring window and stop flag
        self.socket = _stack.JsonSocket(
            port, f"/ws/play/{game.session_id}/", f"sessionid={cookie}", self.on_message
        )
        self.http = _stack.Http(port, {"sessionid": cookie}) if via == "http" else None
        self.csrf = ""
        self.latest: dict | None = None
        self.last_seq = -1
        self.pending: tuple[int, dict, float] | None = None
        self.wake = asyncio.Event()
        self.accepted: list[tuple[int, dict, float]] = []  # (seq, action, sent at)
        self.latency: list[float] = []
        self.opponent_latency: list[float] = []
        self.errors: list[str] = []
        self.duplicate_pushes = 0
        self.timeouts = 0
        self.finished = False
        self.sent_wall: dict[int, float] = {}  # seq -> wall-clock time sent (for applied_at)

    def on_message(self, msg: dict) -> None:
        now = time.perf_counter()
        data = msg.get("data") or {}
        if msg.get("type") == "error":
            self.errors.append(str(data.get("error"))[:120])
            self.pending = None
            self.wake.set()
            return
        seq = data.get("seq", -1)
        if seq <= self.last_seq:
            if seq == self.last_seq:
                self.duplicate_pushes += 1
            return
        self.last_seq = seq
        self.latest = data
        if self.pending is not None and seq > self.pending[0]:
            sent_seq, action, sent = self.pending
            self.pending = None
            self.accepted.append((sent_seq, action, sent))
            if self.clock["measure_from"] <= sent <= self.clock["measure_to"]:
                self.latency.append((now - sent) * 1000)
        else:
            sent = self.game.sent_at.get(seq - 1)
            if sent is not None and self.clock["measure_from"] <= sent <= self.clock["measure_to"]:
                self.opponent_latency.append((now - sent) * 1000)
        if data.get("status") != "running":
            self.finished = True
        self.wake.set()

    async def open(self) -> None:
        for attempt in range(5):  # a server busy accepting thousands of sockets may refuse one
            try:
                await self.socket.open()
                break
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
        if self.http is not None:
            status, _, body = await self.http.request("GET", f"/play/{self.game.session_id}/")
            if status != 200:
                raise RuntimeError(f"game page answered {status}")
            found = body.split('name="csrfmiddlewaretoken" value="', 1)
            self.csrf = found[1].split('"', 1)[0] if len(found) == 2 else ""

    async def run(self) -> None:
        first = True
        while not self.clock["stop"] and not self.finished:
            try:
                await asyncio.wait_for(self.wake.wait(), PUSH_TIMEOUT)
            except TimeoutError:
                if self.pending is not None:
                    self.timeouts += 1
                    self.pending = None
                    await self.socket.close()
                    await self.socket.open()  # the consumer sends the current view on connect
                continue
            self.wake.clear()
            data = self.latest
            if (
                data is None
                or self.pending is not None
                or data.get("status") != "running"
                or self.number not in data.get("to_act", ())
                or not data.get("legal")
            ):
                continue
            if self.think:
                spread = self.rng.uniform(0, 1.5) if first else self.rng.uniform(0.5, 1.5)
                await asyncio.sleep(spread * self.think)
            first = False
            if self.clock["stop"] or self.latest is not data:
                self.wake.set()
                continue
            seq = data["seq"]
            action = self.rng.choice(data["legal"])
            sent = time.perf_counter()
            self.sent_wall[seq] = time.time()
            self.pending = (seq, action, sent)
            self.game.sent_at[seq] = sent
            if self.via == "ws":
                self.socket.send_json({"seq": seq, "action": action})
            else:
                await self.post(seq, action)

    async def post(self, seq: int, action: dict) -> None:
        status, _, body = await self.http.request(
            "POST",
            f"/play/{self.game.session_id}/act/",
            {"seq": seq, "action": json.dumps(action), "csrfmiddlewaretoken": self.csrf},
            {"X-CSRFToken": self.csrf, "X-Requested-With": "fetch", "Accept": "application/json"},
        )
        if status != 202 and self.pending is not None and self.pending[0] == seq:
            self.errors.append(f"{status}: {body[:100]}")
            self.pending = None

    async def settle(self, timeout: float) -> None:
        """After the run: wait for the view answering the last action sent."""
        deadline = time.perf_counter() + timeout
        while self.pending is not None and time.perf_counter() < deadline:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), max(0.01, deadline - time.perf_counter()))

    async def close(self) -> None:
        await self.socket.close()
        if self.http is not None:
            await self.http.close()


# ---------------------------------------------------------------- setup and checks (Django)


def setup_games(n: int, run: str, system: str, time_bank: int | None) -> list[tuple[int, list]]:
    """N two-player casual games, started; returns [(session id, [cookie of seat 0, 1])]."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connections
    from django.utils import timezone

    from play.services.starting import create_friend_game, join_game

    User = get_user_model()
    try:
        names = [f"{run}-{g}-{s}" for g in range(n) for s in range(2)]
        hashed = make_password(secrets.token_hex(8))
        User.objects.bulk_create([User(username=x, password=hashed) for x in names], 1000)
        users = {u.username: u for u in User.objects.filter(username__in=names)}
        store = SessionStore()
        expires = timezone.now() + timezone.timedelta(days=1)
        backend = settings.AUTHENTICATION_BACKENDS[0]
        cookies, rows = {}, []
        for name, user in users.items():
            key = secrets.token_hex(16)
            data = {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: backend,
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            rows.append(
                Session(session_key=key, session_data=store.encode(data), expire_date=expires)
            )
            cookies[name] = key
        Session.objects.bulk_create(rows, 1000)
        games = []
        for g in range(n):
            first, second = users[f"{run}-{g}-0"], users[f"{run}-{g}-1"]
            session = create_friend_game(first, system, time_bank=time_bank)
            join_game(second, session.invite_token)
            games.append((session.pk, [cookies[first.username], cookies[second.username]]))
        return games
    finally:
        connections.close_all()


def verify(seats: list[Seat], replay_sample: int, rng: random.Random) -> dict:
    from django.db import connections
    from django.db.models import Count

    from play.models import ActionLog, GameSession
    from play.services.reading import replay_state

    try:
        ids = sorted({s.game.session_id for s in seats})
        details: Counter[str] = Counter()
        lost = duplicated = 0
        dup = (
            ActionLog.objects.filter(session_id__in=ids)
            .values("session_id", "seq")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
        )
        extra = sum(r["n"] - 1 for r in dup)
        duplicated += extra
        details["duplicate_rows"] = extra
        logged: dict[tuple[int, int], tuple[int, dict]] = {}
        per_session: dict[int, list[int]] = {i: [] for i in ids}
        applied_at: dict[tuple[int, int], float] = {}
        for sid, seq, seat, action, at in ActionLog.objects.filter(session_id__in=ids).values_list(
            "session_id", "seq", "seat", "action", "applied_at"
        ):
            logged[sid, seq] = (seat, action)
            applied_at[sid, seq] = at.timestamp()
            per_session[sid].append(seq)
        sessions = {s.pk: s for s in GameSession.objects.filter(pk__in=ids)}
        for sid, seqs in per_session.items():
            session = sessions[sid]
            details[f"sessions_{session.status}"] += 1
            have = set(seqs)
            gaps = len(set(range(session.seq)) - have)
            lost += gaps
            details["log_gaps"] += gaps
            beyond = len([q for q in have if q >= session.seq])
            duplicated += beyond
            details["rows_beyond_seq"] += beyond
        for seat in seats:
            for seq, action, _sent in seat.accepted:
                row = logged.get((seat.game.session_id, seq))
                if row is None or row != (seat.number, action):
                    lost += 1
                    details["accepted_not_logged_as_sent"] += 1
        details["accepted_by_clients"] = sum(len(s.accepted) for s in seats)
        seen = {(s.game.session_id, seq) for s in seats for seq, _a, _t in s.accepted}
        details["logged_not_seen_accepted"] = len([k for k in logged if k not in seen])
        to_store = [
            (applied_at[s.game.session_id, seq] - s.sent_wall[seq]) * 1000
            for s in seats
            for seq, _a, sent in s.accepted
            if (s.game.session_id, seq) in applied_at and seq in s.sent_wall
        ]
        details["log_rows"] = len(logged)
        for sid in rng.sample(ids, min(replay_sample, len(ids))):
            details["replayed"] += 1
            if replay_state(sessions[sid]) != sessions[sid].state:
                details["replay_mismatch"] += 1
                duplicated += 1
        return {
            "lost": lost,
            "duplicated": duplicated,
            "details": dict(details),
            "stored_p50_ms": _stack.pct(to_store, 0.5),
            "stored_p99_ms": _stack.pct(to_store, 0.99),
        }
    finally:
        connections.close_all()


# ---------------------------------------------------------------- one row


async def drive(port, games, args, stack) -> tuple[list[Seat], dict]:
    clock = {"measure_from": float("inf"), "measure_to": float("inf"), "stop": False}
    seats: list[Seat] = []
    for index, (session_id, cookies) in enumerate(games):
        game = Game(session_id)
        for number, cookie in enumerate(cookies):
            rng = random.Random(index * 2 + number)
            seats.append(
                Seat(port, game, number, cookie, args.think_ms / 1000, args.via, rng, clock)
            )
    gate = asyncio.Semaphore(64)

    async def connect(seat: Seat) -> None:
        async with gate:
            await seat.open()

    await asyncio.gather(*(connect(s) for s in seats))
    stack.check_alive()
    start = time.perf_counter()
    clock["measure_from"] = start + args.warmup
    clock["measure_to"] = start + args.seconds
    runners = [asyncio.create_task(s.run()) for s in seats]
    while time.perf_counter() < clock["measure_to"]:
        await asyncio.sleep(min(5.0, max(0.0, clock["measure_to"] - time.perf_counter())))
        stack.check_alive()
        done = sum(len(s.accepted) for s in seats)
        print(
            f"  [{time.perf_counter() - start:5.0f} s] {done} actions accepted",
            file=sys.stderr,
            flush=True,
        )
    clock["stop"] = True
    for s in seats:
        s.wake.set()
    await asyncio.gather(*runners, return_exceptions=True)
    await asyncio.gather(*(s.settle(PUSH_TIMEOUT) for s in seats))
    for s in seats:
        await s.close()
    return seats, clock


def run_row(n: int, args, stack, port, pids, row_index: int) -> dict:
    import redis as redis_lib

    run = f"r{row_index}x{int(time.time())}"
    t0 = time.time()
    games = setup_games(n, run, args.system, args.time_bank or None)
    setup_s = time.time() - t0
    # Let the worker drain the first pushes and clock tasks of the deal.
    time.sleep(2)
    components = {
        "server": lambda: _stack.cpu_seconds(pids["server"]),
        "celery": lambda: _stack.cpu_seconds(pids["celery"]),
        "postgres": lambda: _stack.cpu_seconds(_stack.pids_named("postgres")),
        "redis": lambda: _stack.cpu_seconds(_stack.pids_named("redis-server")),
        "clients": _stack.own_cpu_seconds,
        "machine_busy": _stack.machine_busy_seconds,
    }
    load_before = _stack.load_average()
    cpu_before = {k: f() for k, f in components.items()}
    stop = threading.Event()
    samples: list = []
    sampler = threading.Thread(target=_stack.sample_db, args=(DB_NAME, stop, samples), daemon=True)
    sampler.start()
    try:
        seats, clock = asyncio.run(drive(port, games, args, stack))
    finally:
        stop.set()
        sampler.join(timeout=2)
    cpu = {k: round(f() - cpu_before[k], 1) for k, f in components.items()}
    queue_left = redis_lib.Redis.from_url(REDIS_URL).llen("celery")
    checked = verify(seats, args.replay_sample, random.Random(row_index))
    window = clock["measure_to"] - clock["measure_from"]
    in_window = [
        1
        for s in seats
        for _seq, _a, sent in s.accepted
        if clock["measure_from"] <= sent <= clock["measure_to"]
    ]
    latency = [x for s in seats for x in s.latency]
    opponent = [x for s in seats for x in s.opponent_latency]
    errors = Counter(e for s in seats for e in s.errors)
    return {
        "games": n,
        "actions_per_second": round(len(in_window) / window, 1),
        "p50_ms": _stack.pct(latency, 0.50),
        "p99_ms": _stack.pct(latency, 0.99),
        "lost": checked["lost"],
        "duplicated": checked["duplicated"],
        "stored_p50_ms": checked["stored_p50_ms"],
        "stored_p99_ms": checked["stored_p99_ms"],
        "opponent_p50_ms": _stack.pct(opponent, 0.50),
        "opponent_p99_ms": _stack.pct(opponent, 0.99),
        "max_ms": round(max(latency), 1) if latency else None,
        "actions_measured": len(latency),
        "window_seconds": round(window, 1),
        "think_ms": args.think_ms,
        "via": args.via,
        "system": args.system,
        "celery_workers": args.workers,
        "worker_kind": args.worker_kind,
        "servers": args.servers,
        "time_bank": args.time_bank or None,
        "setup_seconds": round(setup_s, 1),
        "push_timeouts": sum(s.timeouts for s in seats),
        "duplicate_pushes": sum(s.duplicate_pushes for s in seats),
        "rejected": sum(errors.values()),
        "rejected_reasons": dict(errors.most_common(3)),
        "games_finished": len({s.game.session_id for s in seats if s.finished}),
        "celery_queue_left": queue_left,
        "checks": checked["details"],
        "cpu_seconds": cpu,
        "load_average_before": load_before,
        "load_average_after": _stack.load_average(),
        "db_backends_mean": _stack.db_summary(samples),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,500,1000", help="comma-separated N per row")
    parser.add_argument("--seconds", type=float, default=60, help="run time of each row")
    parser.add_argument("--warmup", type=float, default=10, help="not measured at a row's start")
    parser.add_argument(
        "--think-ms", type=float, default=4000, help="mean think time per action (0: none)"
    )
    parser.add_argument("--via", choices=["ws", "http"], default="ws", help="how actions go")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument(
        "--worker-kind",
        choices=_stack.WORKER_POOLS,
        default="prefork",
        help="one prefork Celery worker with --workers children (default), or --workers "
        "solo workers, each running its tasks in its own process",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=2,
        help="ASGI server processes sharing the listening socket (default 2: one per core)",
    )
    parser.add_argument(
        "--server",
        choices=_stack.SERVERS,
        default="uvicorn",
        help="the ASGI server (default uvicorn, as deployed; daphne for comparison)",
    )
    parser.add_argument("--system", default="ascension", help="game system of the games")
    parser.add_argument(
        "--time-bank", type=int, default=15 * 60, help="seconds per player (0: untimed)"
    )
    parser.add_argument("--replay-sample", type=int, default=20, help="sessions replayed")
    parser.add_argument(
        "--channel-capacity",
        type=int,
        default=0,
        help="channels-redis capacity for the server and the worker (0: the project's setting)",
    )
    parser.add_argument(
        "--prefetch",
        type=int,
        default=0,
        help="Celery worker prefetch multiplier (0: the project's setting)",
    )
    parser.add_argument(
        "--db-reuse-max",
        type=int,
        default=0,
        help="CELERY_DB_REUSE_MAX for the worker (0: the project's setting)",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep server and worker logs")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    counts = [int(x) for x in args.games.split(",") if x.strip()]
    if args.warmup >= args.seconds:
        parser.error("--warmup must be shorter than --seconds")

    stack = _stack.Stack(DB_NAME, REDIS_URL, ENV, "play-load-")
    atexit.register(stack.close)
    _stack.install_signal_exit()
    try:
        return run(args, counts, stack)
    finally:
        stack.close()


def run(args, counts: list[int], stack) -> int:
    stack.create_database()
    stack.flush_redis()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    connections.close_all()

    lines = []
    if args.channel_capacity:
        lines.append(f"CHANNEL_LAYERS['default']['CONFIG']['capacity'] = {args.channel_capacity}")
    if args.prefetch:
        lines.append(f"CELERY_WORKER_PREFETCH_MULTIPLIER = {args.prefetch}")
    if args.db_reuse_max:
        lines.append(f"CELERY_DB_REUSE_MAX = {args.db_reuse_max}")
    env = _stack.settings_override(stack, "play_bench_settings", lines)
    port, servers = _stack.start_servers(stack, args.servers, env, args.server)
    workers = _stack.start_worker(stack, args.workers, "playbench", env, args.worker_kind)
    _stack.wait_http(port, stack)
    pids = {"server": [p.pid for p in servers], "celery": [w.pid for w in workers]}
    rows = []
    for index, n in enumerate(counts):
        print(f"{n} games ...", file=sys.stderr, flush=True)
        rows.append(run_row(n, args, stack, port, pids, index))
        if not args.json:
            print_row(rows[-1])
    stack.ok = not args.keep_logs
    if args.json:
        print(json.dumps({"rows": rows}))
    bad = any(r["lost"] or r["duplicated"] for r in rows)
    return 1 if bad else 0


def print_row(row: dict) -> None:
    print(f"--- {row['games']} games")
    for key, value in row.items():
        print(f"{key:>22}: {value}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
