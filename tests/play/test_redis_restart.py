"""Redis restarted in the middle of a game: the game goes on once it is back, nothing twice.

A redis-server of the test's own (port 6390 or the next free one, append-only file on,
so a restart keeps what it had accepted, as a production Redis is set up) is the broker
and the channel layer of a real daphne process and a real Celery worker process, both on
the test database. Two players play over websockets as the game page does. Mid-game the
Redis process is stopped; a move sent while it is down is refused with a message and
changes nothing; Redis is started again on the same port and data, the pages reconnect
(as play.js does when its socket closes) and the game goes on. The action log then runs
0..seq-1 with no gap and no duplicate, each move the players saw accepted is in it once,
and replaying the log from the seed gives the stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from bench._stack import JsonSocket
from play.models import ActionLog, GameSession
from play.services.reading import replay_state
from play.services.starting import create_friend_game, join_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a database another process can open"
    ),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

REDIS_PORT = 6390
MOVES_BEFORE = 6  # moves played before Redis goes down
MOVES_AFTER = 8  # moves that must follow once it is back


def database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"process exited:\n{log.read_text(errors='replace')[-3000:]}")
        if not port_free(port):
            return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}:\n{log.read_text(errors='replace')[-3000:]}")


class Redis:
    """redis-server on a port and directory of its own; stop and start keep its data."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir = port, workdir
        self.log = workdir / "redis.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        argv = [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.workdir), "--appendonly", "yes", "--appendfsync", "always",
            "--save", "", "--protected-mode", "no",
        ]  # fmt: skip
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        wait_port(self.port, self.proc, self.log)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(15)
        deadline = time.monotonic() + 10
        while not port_free(self.port) and time.monotonic() < deadline:
            time.sleep(0.1)


def start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(
            argv,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def stored_seq(session_id: int) -> int:
    from django.db import connections

    try:
        return GameSession.objects.get(pk=session_id).seq
    finally:
        connections.close_all()


def cookie_for(user) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return f"sessionid={store.session_key}"


class Player:
    """One seat's page: its socket, the views it was pushed, the moves it saw accepted."""

    def __init__(self, port: int, session_id: int, seat: int, cookie: str) -> None:
        self.port, self.session_id, self.seat, self.cookie = port, session_id, seat, cookie
        self.latest: dict | None = None
        self.errors: list[str] = []
        self.sent: dict[int, dict] = {}  # seq -> action sent at it
        self.changed = asyncio.Event()
        self.socket: JsonSocket | None = None

    def on_message(self, msg: dict) -> None:
        data = msg.get("data") or {}
        if msg.get("type") == "error":
            self.errors.append(str(data.get("error")))
        elif self.latest is None or data.get("seq", -1) >= self.latest["seq"]:
            self.latest = data
        self.changed.set()

    async def connect(self, timeout: float = 60) -> None:
        """Open the socket, retrying while the server cannot take it (as play.js does)."""
        deadline = time.monotonic() + timeout
        while True:
            self.socket = JsonSocket(
                self.port, f"/ws/play/{self.session_id}/", self.cookie, self.on_message
            )
            try:
                await self.socket.open()
                return
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    @property
    def alive(self) -> bool:
        return self.socket is not None and not self.socket.closed.is_set()

    def my_turn(self) -> bool:
        data = self.latest
        return bool(
            data and data["status"] == "running" and self.seat in data["to_act"] and data["legal"]
        )

    def move(self) -> None:
        data = self.latest
        action = data["legal"][0]  # deterministic: the first legal action of its own view
        self.sent[data["seq"]] = action
        self.socket.send_json({"seq": data["seq"], "action": action})


async def play_until(players: list[Player], target_seq: int, timeout: float) -> None:
    """Each player moves whenever its view says it is to act, until ``seq`` reaches the target."""
    deadline = time.monotonic() + timeout
    asked: set[tuple[int, int]] = set()
    while True:
        seqs = [p.latest["seq"] for p in players if p.latest]
        if seqs and max(seqs) >= target_seq:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the game stalled at seq {max(seqs, default=None)}")
        for p in players:
            if not p.alive:
                await p.connect()  # the consumer sends the current view on connect
            elif p.my_turn() and (p.seat, p.latest["seq"]) not in asked:
                asked.add((p.seat, p.latest["seq"]))
                p.move()
        waits = [asyncio.create_task(p.changed.wait()) for p in players]
        await asyncio.wait(waits, timeout=2, return_when=asyncio.FIRST_COMPLETED)
        for task in waits:
            task.cancel()
        for p in players:
            p.changed.clear()


def test_the_game_goes_on_after_a_redis_restart_and_nothing_is_applied_twice(alice, bob, tmp_path):
    session = create_friend_game(alice, "ascension", time_bank=None)
    session = join_game(bob, session.invite_token)
    seats = {s.user_id: s.number for s in session.seats.all()}
    cookies = {alice.pk: cookie_for(alice), bob.pk: cookie_for(bob)}

    redis_port = REDIS_PORT if port_free(REDIS_PORT) else free_port()
    redis = Redis(redis_port, tmp_path)
    http_port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "CHANNELS_PREFIX": f"redis-restart-{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": settings.SECRET_KEY,  # the session cookies are signed with it
        "FAST_PASSWORD_HASHER": "true",
        "DEBUG": "false",
        "PYTHONUNBUFFERED": "1",
    }
    daphne_log, worker_log = tmp_path / "daphne.log", tmp_path / "worker.log"
    bin_dir = Path(sys.executable).parent
    daphne = worker = None
    try:
        redis.start()
        daphne = start(
            [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(http_port),
             "config.asgi:application"],
            env,
            daphne_log,
        )  # fmt: skip
        worker = start(
            [str(bin_dir / "celery"), "-A", "config", "worker", "-P", "prefork", "-c", "1",
             "-n", f"restart-{uuid.uuid4().hex[:6]}@%h", "-l", "INFO"],
            env,
            worker_log,
        )  # fmt: skip
        wait_port(http_port, daphne, daphne_log)

        async def scenario() -> tuple[list[Player], list[str]]:
            players = [
                Player(http_port, session.pk, seats[user.pk], cookies[user.pk])
                for user in (alice, bob)
            ]
            for p in players:
                await p.connect()
            await play_until(players, MOVES_BEFORE, timeout=60)

            await asyncio.sleep(1)  # the last move's push has arrived
            stored_before = await asyncio.to_thread(stored_seq, session.pk)
            await asyncio.to_thread(redis.stop)
            # A move while Redis is down: refused with a message, or the socket drops.
            down: list[str] = []
            (mover,) = [p for p in players if p.my_turn()]
            before = len(mover.errors)
            mover.socket.send_json({"seq": mover.latest["seq"], "action": mover.latest["legal"][0]})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(mover.socket.closed.wait(), 5)
            down.extend(mover.errors[before:])
            assert down or not mover.alive, "a move while Redis is down must not pass silently"
            assert await asyncio.to_thread(stored_seq, session.pk) == stored_before
            await asyncio.to_thread(redis.start)

            start_seq = max(p.latest["seq"] for p in players)
            await play_until(players, start_seq + MOVES_AFTER, timeout=120)
            for p in players:
                await p.socket.close()
            return players, down

        try:
            players, down = asyncio.run(scenario())
        except AssertionError as exc:
            tails = "\n".join(
                f"--- {log.name}\n{log.read_text(errors='replace')[-4000:]}"
                for log in (daphne_log, worker_log, redis.log)
                if log.exists()
            )
            raise AssertionError(f"{exc}\n{tails}") from None
        # The last moves sent may still be in flight: let the worker finish them.
        time.sleep(2)
        # The worker reconnected by itself: the same process applied the moves after it.
        assert worker.poll() is None, worker_log.read_text(errors="replace")[-4000:]
    finally:
        stop(daphne)
        stop(worker)
        redis.stop()

    session = GameSession.objects.get(pk=session.pk)
    assert session.seq >= MOVES_BEFORE + MOVES_AFTER
    rows = list(ActionLog.objects.filter(session=session).values_list("seq", "seat", "action"))
    seqs = [seq for seq, _seat, _action in rows]
    assert seqs == list(range(session.seq)), "every seq once, no gap"
    logged = {seq: (seat, action) for seq, seat, action in rows}
    # Every move a player saw accepted (the game moved past its seq) is logged as sent.
    # Each was sent at a seq where only that seat could act, so the row must be that move.
    accepted = 0
    for p in players:
        for seq, action in p.sent.items():
            if seq < session.seq:
                assert logged[seq] == (p.seat, action)
                accepted += 1
    assert accepted == session.seq
    assert replay_state(session) == session.state
    # The move sent while Redis was down changed nothing; its player was told so (or the
    # socket dropped, and the page reconnected to the current view).
    for message in down:
        assert message in {
            "The game server cannot take moves right now; try again.",
            "The game has moved on; look at the table again.",
        }
