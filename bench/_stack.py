"""Shared pieces of the load benches that run the real stack.

A scratch PostgreSQL database, one ASGI server process, one Celery worker with prefork
processes, a Redis database; and clients speaking raw HTTP/1.1 and the websocket
protocol over asyncio streams (no client library is installed). ``Stack`` owns every
process and resource a bench starts and ``close`` undoes all of it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}


# ---------------------------------------------------------------- processes and cleanup


class Stack:
    """Every process and resource a bench starts; ``close`` undoes all of it."""

    def __init__(self, db_name: str, redis_url: str, env: dict[str, str], prefix: str) -> None:
        self.db_name = db_name
        self.redis_url = redis_url
        self.env = env
        self.procs: list[tuple[str, subprocess.Popen, Path]] = []
        self.db_created = False
        self.closed = False
        self.ok = False
        self.listeners: list[socket.socket] = []  # kept open while the servers share them
        self.logdir = Path(tempfile.mkdtemp(prefix=prefix))

    def start(
        self, name: str, argv: list[str], env: dict | None = None, pass_fds: tuple = ()
    ) -> subprocess.Popen:
        log = self.logdir / f"{name}.log"
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env={**os.environ, **self.env, **(env or {})},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: stopping it stops its children
            pass_fds=pass_fds,
        )
        self.procs.append((name, proc, log))
        return proc

    def check_alive(self) -> None:
        for name, proc, log in self.procs:
            if proc.poll() is not None:
                tail = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{tail}")

    def create_database(self) -> None:
        self.drop_database()
        pg_admin(f'CREATE DATABASE "{self.db_name}"')
        self.db_created = True

    def drop_database(self) -> None:
        pg_admin(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def flush_redis(self) -> None:
        import redis

        redis.Redis.from_url(self.redis_url).flushdb()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for _name, proc, _log in reversed(self.procs):
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.time() + 10
        for _name, proc, _log in self.procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        if self.db_created:
            with contextlib.suppress(Exception):
                from django.db import connections

                connections.close_all()
            with contextlib.suppress(Exception):
                self.drop_database()
        with contextlib.suppress(Exception):
            self.flush_redis()
        if self.ok:
            shutil.rmtree(self.logdir, ignore_errors=True)
        else:
            print(f"server and worker logs kept in {self.logdir}", file=sys.stderr)


def install_signal_exit() -> None:
    """SIGTERM/SIGINT raise SystemExit, so ``finally`` blocks stop what the bench started."""

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        conn.execute(sql)


def settings_override(stack: Stack, name: str, lines: list[str]) -> dict[str, str]:
    """Environment for a process running the project's settings with ``lines`` appended.

    The settings module is written to the bench's temporary directory, outside the
    project; no lines: an empty environment (the project's settings as they are).
    """
    if not lines:
        return {}
    body = "from config.settings import *  # noqa: F403\n" + "".join(f"{x}\n" for x in lines)
    (stack.logdir / f"{name}.py").write_text(body)
    return {
        "DJANGO_SETTINGS_MODULE": name,
        "PYTHONPATH": os.pathsep.join([str(stack.logdir), str(ROOT)]),
    }


SERVERS = ("uvicorn", "daphne")


def server_argv(kind: str, fd: int | None = None, port: int | None = None) -> list[str]:
    """The command line of one ASGI server process on an inherited socket or a port.

    uvicorn as deployed (uvloop, httptools, the websockets library, no access log);
    daphne, the Channels project's server, for comparison.
    """
    where = ["--fd", str(fd)] if fd is not None else ["--host", "127.0.0.1", "--port", str(port)]
    if kind == "daphne":
        if fd is None:
            where = ["-b", "127.0.0.1", "-p", str(port)]
        return [str(VENV_BIN / "daphne"), *where, "config.asgi:application"]
    return [
        str(VENV_BIN / "uvicorn"), *where, "--loop", "uvloop", "--http", "httptools",
        "--ws", "websockets", "--lifespan", "off", "--no-access-log", "--log-level", "warning",
        "config.asgi:application",
    ]  # fmt: skip


def start_servers(
    stack: Stack, count: int, env: dict | None = None, kind: str = "uvicorn"
) -> tuple[int, list[subprocess.Popen]]:
    """``count`` server processes on one listening socket (the kernel hands each
    connection to one of them), as a deployment runs several ASGI processes."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(2048)
    listener.set_inheritable(True)
    fd = listener.fileno()
    stack.listeners.append(listener)
    servers = [
        stack.start(f"{kind}{n}", server_argv(kind, fd), env, pass_fds=(fd,)) for n in range(count)
    ]
    return listener.getsockname()[1], servers


WORKER_POOLS = ("prefork", "solo")


def start_worker(
    stack: Stack, processes: int, name: str, env: dict | None = None, pool: str = "prefork"
) -> list[subprocess.Popen]:
    """``processes`` Celery worker processes: one prefork worker with that many children
    (the default), or (``solo``) that many workers running their tasks in their own
    process, with no hand-over to a child."""

    def argv(pool_name: str, concurrency: int, n: int) -> list[str]:
        return [
            str(VENV_BIN / "celery"), "-A", "config", "worker", "-P", pool_name,
            "-c", str(concurrency), "-l", "WARNING", "-n", f"{name}{n}-{os.getpid()}@%h",
        ]  # fmt: skip

    if pool == "solo":
        return [stack.start(f"celery{n}", argv("solo", 1, n), env) for n in range(processes)]
    return [stack.start("celery", argv("prefork", processes, 0), env)]


def wait_http(port: int, stack: Stack, path: str = "/accounts/login/", timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        stack.check_alive()
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            if b" 200 " in s.recv(64):
                return
        time.sleep(0.3)
    raise RuntimeError("the ASGI server did not answer in time")


# ---------------------------------------------------------------- CPU accounting


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes and their live children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    seen = set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(c) for c in children)
    return total


def own_cpu_seconds() -> float:
    """This process alone (the clients), without the server and worker it started."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent not idle (from /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def load_average() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def pids_named(fragment: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if fragment in (entry / "comm").read_text():
                    out.append(int(entry.name))
    return out


def sample_db(db_name: str, stop: threading.Event, out: list[tuple[int, int, int, int]]) -> None:
    """Every 0.2 s: backends (active, waiting on a lock, idle in transaction, all)."""
    import psycopg

    with psycopg.connect(dbname=db_name, autocommit=True, **PG) as conn:
        while not stop.wait(0.2):
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE state = 'active'),"
                " count(*) FILTER (WHERE wait_event_type = 'Lock'),"
                " count(*) FILTER (WHERE state = 'idle in transaction'), count(*)"
                " FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [db_name],
            ).fetchone()
            out.append(tuple(row))


def db_summary(samples: list[tuple[int, int, int, int]]) -> dict[str, float]:
    def mean(i: int) -> float:
        return round(sum(s[i] for s in samples) / len(samples), 2) if samples else 0

    return {
        "active": mean(0),
        "waiting_on_lock": mean(1),
        "idle_in_transaction": mean(2),
        "connections_max": max((s[3] for s in samples), default=0),
    }


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


# ---------------------------------------------------------------- a tiny HTTP/1.1 client


class Http:
    """One keep-alive connection with a cookie jar, as one browser tab."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.cookies: dict[str, str] = dict(cookies or {})
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, dict[str, str], str]:
        for attempt in range(3):
            try:
                return await self._request(method, path, body, headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _request(self, method, path, body, headers):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = urlencode(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if body is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        lines.append(f"Content-Length: {len(data)}")
        for key, value in (headers or {}).items():
            lines.append(f"{key}: {value}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        head: dict[str, str] = {}
        while True:
            line = (await self.reader.readuntil(b"\r\n")).decode("latin-1").rstrip("\r\n")
            if not line:
                break
            key, _, value = line.partition(":")
            key, value = key.strip().lower(), value.strip()
            if key == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            head[key] = value
        if head.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                chunks.append(chunk[:-2])
            payload = b"".join(chunks)
        else:
            payload = await self.reader.readexactly(int(head.get("content-length", "0")))
        if head.get("connection", "").lower() == "close":
            await self.close()
        return status, head, payload.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- a tiny websocket client


class JsonSocket:
    """A websocket carrying JSON text frames; ``on_message`` gets each decoded message."""

    def __init__(
        self, port: int, path: str, cookies: str, on_message: Callable[[dict], None]
    ) -> None:
        self.port, self.path, self.cookies = port, path, cookies
        self.on_message = on_message
        self.task: asyncio.Task | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.closed = asyncio.Event()

    async def open(self) -> None:
        self.closed.clear()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer = writer
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: http://127.0.0.1:{self.port}\r\nCookie: {self.cookies}\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket refused: {head[:200]!r}")
        self.task = asyncio.create_task(self._read(reader))

    def _frame(self, opcode: int, payload: bytes) -> bytes:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = bytes([0x80 | opcode, 0x80 | n])
        elif n < 65536:
            head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
        repeated = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
            n, "big"
        )
        return head + mask + masked

    def send_json(self, message: dict) -> None:
        self.writer.write(self._frame(0x1, json.dumps(message, separators=(",", ":")).encode()))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
                while True:
                    b0, b1 = await reader.readexactly(2)
                    size = b1 & 0x7F
                    if size == 126:
                        size = int.from_bytes(await reader.readexactly(2), "big")
                    elif size == 127:
                        size = int.from_bytes(await reader.readexactly(8), "big")
                    payload = await reader.readexactly(size)
                    opcode = b0 & 0x0F
                    if opcode == 0x9:  # ping
                        self.writer.write(self._frame(0xA, payload))
                    elif opcode == 0x8:  # close
                        break
                    elif opcode == 0x1:
                        self.on_message(json.loads(payload))
        finally:
            self.closed.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.write(self._frame(0x8, b"\x03\xe8"))
                self.writer.close()
        self.closed.set()
