"""Draft load through the real stack: uvicorn, Redis, Celery worker processes, PostgreSQL.

    python bench/draft_load.py [--pods 64] [--seats 8] [--workers 2] [--servers 2]
                               [--worker-kind prefork|solo] [--samples PATH]
                               [--server uvicorn|daphne] [--think-ms 5000] [--boosters 4]
                               [--json]

Creates a scratch PostgreSQL database (migrated, dropped at the end), flushes Redis db 9,
starts ``--servers`` ASGI server processes (uvicorn, or ``--server daphne``) on one
shared listening socket and ``--workers`` Celery worker processes (prefork children, or
``--worker-kind solo`` workers), each
process with its own pool of PostgreSQL connections (``--server-pool``,
``--worker-pool``), creates ``--pods`` casual pods of ``--seats`` human seats (users in
bulk) and starts them. Every seat is an asyncio client in this process, speaking raw
HTTP/1.1 and the websocket protocol over asyncio streams (no client library is
installed), and behaves as the room page's script does: it logs in through the login
form, opens the pod's websocket, fetches its panel once, and for each pick sends the
card with the pick number over the websocket, as the page does while connected
(``--picks-over http`` POSTs them as the page's form does without a socket, the CSRF
token in a header, as htmx sends it). The answer holds
the next pack, or says which pick the seat waits for; then the pack comes over the
websocket, rendered by the server for that player alone (a "seat" notice, or 3 s of
silence, makes it re-fetch the panel instead). Pick timers stay on (each pod keeps one
``run_timers`` task queued for its earliest deadline, which the worker runs and re-arms),
so the worker sees the production task stream.

Pacing: each drafter thinks before every pick for a time drawn uniformly between half
and one and a half times ``--think-ms``, by default 5000 ms (a 2.5-7.5 s pick). People
take seconds per pick (the pick timer allows up to 75 s for a full pack), so this is a
brisk table, not a slow one. ``--think-ms 0`` makes every drafter pick the moment its
pack arrives: then the bench measures how fast the stack can go (``picks_per_second`` is
the throughput ceiling) and the latencies are those of a saturated queue, not what a
person would see. Both figures are worth reporting; the JSON says which it was
(``think_ms``).

Latencies, per pick:

* ``p50_ms``/``p99_ms``: from the moment both this seat's pick and the pick that passed
  it its next pack had been submitted, to the next pack being visible (the system's
  part; a seat waiting on a slower neighbour is not the system's latency). After a
  fresh booster opens, "the pick that passed it" is the last pick of the round before;
  after a seat's last pick, the pod's last pick (what it then sees is the draft's end);
* ``wall_p50_ms``/``wall_p99_ms``: plainly from submitting a pick to seeing the next
  pack, neighbours' waits (and their think time) included;
* ``post_p50_ms``/``post_p99_ms``: the pick's round trip (websocket message or POST).

Afterwards the database is checked: ``lost`` counts picks missing against the packs'
cards (and picks the client saw accepted that have no row); ``duplicated`` counts rows
beyond one per (pod, seat, round, pick) plus cards picked from a pack more often than
the pack held them, plus seats whose pool in the state differs from their Pick rows.

Overload shows as ``packs_found_by_refetch``: when the servers fall behind, the channel
layer drops live messages beyond its per-process capacity (channels-redis' default,
100 waiting messages), a waiting drafter gets no pack and finds it only when it asks
again after 15 s, as the page does; pick timers may then pick for it (``auto_timer``)
and its own late pick is refused (``rejected_picks``). Nothing is lost or duplicated.

The clients run on the same machine as the stack and take CPU from it; ``cpu_seconds``
shows each part's share, and ``machine_busy`` how busy the whole machine was (other
work on it included). For a quick look: ``--pods 8 --boosters 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import base64
import contextlib
import json
import os
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._stack import (  # noqa: E402
    PG,
    SERVERS,
    WORKER_POOLS,
    Stack,
    cpu_seconds,
    install_signal_exit,
    machine_busy_seconds,
    own_cpu_seconds,
    pct,
    pids_named,
    start_servers,
    start_worker,
    wait_http,
)

DB_NAME = "gauntlet_bench_draft"
REDIS_URL = "redis://127.0.0.1:6379/9"
PASSWORD = "bench-pass"
THINK_MS = 5000  # see "Pacing" in the module docstring
SILENCE_S = 15.0  # as the page: waiting this long with no pack, it re-fetches its panel

ENV = {
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "REDIS_URL": REDIS_URL,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "FAST_PASSWORD_HASHER": "true",  # the server must accept the bulk-made MD5 hashes
    "DEBUG": "false",
    "SECRET_KEY": "draft-load-bench-only",
    # Production settings, but served over plain http on 127.0.0.1 (docs/security.md).
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "LOG_LEVEL": "WARNING",
    "CHANNELS_PREFIX": "benchdraft",
    "CACHE_PREFIX": "benchdraft",
}
os.environ.update(ENV)

CARD_RE = re.compile(r'name="card" value="([^"]+)"')
STATE_RE = re.compile(r'class="pack-state" data-pick="(\d+)" data-has-pack="([01])"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ERROR_RE = re.compile(r'class="msg error"')


# ---------------------------------------------------------------- a tiny HTTP/1.1 client


class Http:
    """One keep-alive connection with a cookie jar, as one browser tab."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
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


class Socket:
    """The room page's websocket, as draft.js handles it: a pushed pack is kept by its
    pick number (``packs``: pick -> (time received, html)); "seat" asks for the panel,
    or, with a ``redirect``, says the draft ended (the page goes to deck building).
    ``event`` is set on each."""

    def __init__(self, port: int, path: str, cookies: str) -> None:
        self.port, self.path, self.cookies = port, path, cookies
        self.event = asyncio.Event()
        self.notices = Counter()
        self.packs: dict[int, tuple[float, str]] = {}
        self.seat_notice = False
        self.over = False
        self.answers: asyncio.Queue[dict] = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
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
        self.task = asyncio.create_task(self._read(reader, writer))

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        size = len(payload)
        if size < 126:
            head = bytes([0x80 | opcode, 0x80 | size])
        elif size < 65536:
            head = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
        self.writer.write(head + mask + masked)

    async def send_json(self, data: dict) -> None:
        self._send(0x1, json.dumps(data).encode())
        await self.writer.drain()

    async def _read(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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
                    self._send(0xA, payload)
                elif opcode == 0x8:  # close
                    break
                elif opcode == 0x1:
                    data = json.loads(payload)
                    if "changed" not in data and ("answer" in data or "redirect" in data):
                        self.answers.put_nowait(data)
                    elif "pack" in data:
                        self.notices["pack"] += 1
                        self.packs[data["pick"]] = (time.time(), data["pack"])
                        self.event.set()
                    elif "progress" in data:
                        self.notices["progress"] += 1
                    else:
                        what = data.get("changed")
                        self.notices[what] += 1
                        if what == "seat" and data.get("redirect"):
                            self.over = True  # the draft ended: the page goes to its deck
                            self.event.set()
                        elif what == "seat":
                            self.seat_notice = True
                            self.event.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self._send(0x8, b"\x03\xe8")
                self.writer.close()


# ---------------------------------------------------------------- one drafter


class Drafter:
    def __init__(
        self, port: int, pod_id: int, username: str, think_ms: float, seed: int, over: str
    ):
        self.port, self.pod_id, self.username = port, pod_id, username
        self.over = over  # "ws": picks over the websocket, as the page does; "http": the form
        self.think = think_ms / 1000
        self.rng = random.Random(seed)
        self.http = Http(port)
        self.socket: Socket | None = None
        self.seat: int | None = None
        self.submitted: dict[int, float] = {}  # pick number -> time the POST was sent
        self.seen: dict[int, float] = {}  # pick number -> time its pack was first visible
        self.post_ms: list[float] = []
        self.accepted: set[int] = set()
        self.rejected: list[str] = []
        self.refetches = 0
        self.poll_fallbacks = 0
        self.lost_pushes = 0
        self.done_at: float | None = None

    async def login(self) -> None:
        status, _, page = await self.http.request("GET", "/accounts/login/")
        token = CSRF_RE.search(page).group(1)
        status, _, _ = await self.http.request(
            "POST",
            "/accounts/login/",
            {"username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        if status != 302 or "sessionid" not in self.http.cookies:
            raise RuntimeError(f"login of {self.username} failed: {status}")
        self.socket = Socket(self.port, f"/ws/draft/{self.pod_id}/", self.http.cookie_header())
        await self.socket.open()

    async def panel(self) -> str:
        self.socket.seat_notice = False  # any notice from now on means: fetch again
        status, _, body = await self.http.request("GET", f"/draft/{self.pod_id}/panel/")
        if status != 200:
            raise RuntimeError(f"panel {status}")
        return body

    @staticmethod
    def parse(body: str) -> tuple[str, int | None, list[str]]:
        """What the pack area shows: ("pack", pick, cards), ("waiting", pick, []) or
        ("over", None, []) when there is no pack area (the draft ended)."""
        found = STATE_RE.search(body)
        if found is None:
            return "over", None, []
        number, has_pack = int(found.group(1)), found.group(2) == "1"
        if has_pack:
            return "pack", number, CARD_RE.findall(body)
        return "waiting", number, []

    async def wait_for(self, number: int) -> tuple[str, int | None, list[str]]:
        """Waiting for pick ``number``: the socket brings it (as the page shows it), or
        says "seat" (re-fetch the panel). The page itself never polls; as a safety net
        the bench re-fetches after ``SILENCE_S`` of silence, and counts a pack found that
        way (``packs_found_by_refetch``): its push was lost."""
        while True:
            if number in self.socket.packs:
                return self.parse(self.socket.packs[number][1])
            if self.socket.over:
                return "over", None, []
            if self.socket.seat_notice:
                self.refetches += 1
                return self.parse(await self.panel())
            self.socket.event.clear()
            try:
                await asyncio.wait_for(self.socket.event.wait(), timeout=SILENCE_S)
            except TimeoutError:
                self.poll_fallbacks += 1
                self.refetches += 1
                view = self.parse(await self.panel())
                if view[0] == "pack" and view[1] not in self.socket.packs:
                    self.lost_pushes += 1
                return view

    async def run(self) -> None:
        view = self.parse(await self.panel())
        while True:
            state, number, cards = view
            now = time.time()
            if state == "over":
                self.done_at = now
                self.seen.setdefault(max(self.submitted, default=0) + 1, now)
                return
            if state == "waiting":
                view = await self.wait_for(number)
                continue
            self.seen.setdefault(number, now)
            if self.think:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            card = self.rng.choice(cards)
            sent = time.time()
            self.submitted[number] = sent
            if self.over == "ws":
                await self.socket.send_json({"pick": number, "card": card})
                answer = await self.socket.answers.get()
                status, body = 200, answer.get("answer") or ""
                head = {"hx-redirect": answer["redirect"]} if answer.get("redirect") else {}
                if answer.get("error") and "answer" not in answer and not answer.get("redirect"):
                    raise RuntimeError(f"pick {number} refused: {answer['error']}")
                if answer.get("error"):
                    body = '<p class="msg error">' + answer["error"] + "</p>" + body
            else:
                token = self.http.cookies.get("csrftoken", "")
                status, head, body = await self.http.request(
                    "POST",
                    f"/draft/{self.pod_id}/pick/",
                    {"pick": number, "card": card},
                    {"HX-Request": "true", "X-CSRFToken": token},
                )
            self.post_ms.append((time.time() - sent) * 1000)
            if status != 200:
                raise RuntimeError(f"pick {number} answered {status}: {body[:300]}")
            if ERROR_RE.search(body):
                self.rejected.append(
                    re.sub(r"<[^>]+>", "", body.split('class="msg error"')[1])[:120]
                )
            else:
                self.accepted.add(number)
            view = ("over", None, []) if "hx-redirect" in head else self.parse(body)


# ---------------------------------------------------------------- setup and checks (Django)


def setup_database(n_pods: int, seats: int, boosters: int, run: str) -> list[tuple[int, list[str]]]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from drafting.services.creating import create_pod
    from drafting.services.seats import join_pod

    call_command("migrate", verbosity=0)
    User = get_user_model()
    hashed = make_password(PASSWORD)
    names = [f"{run}-{p}-{s}" for p in range(n_pods) for s in range(seats)]
    User.objects.bulk_create([User(username=n, password=hashed) for n in names], batch_size=500)
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    pods = []
    for p in range(n_pods):
        mine = [users[f"{run}-{p}-{s}"] for s in range(seats)]
        pod = create_pod(
            mine[0], seats_count=seats, set_codes=["VS1"] * boosters, name=f"{run} pod {p}"
        )
        for user in mine[1:]:
            join_pod(user, pod)
        pods.append((pod.pk, [u.username for u in mine]))
    return pods


def start_pods(pod_ids: list[int]) -> dict[int, dict]:
    """Start every pod; return each pod's packs as opened: {pod: {pack id: [cards]}}."""
    from django.db import connections

    from drafting.models import Pod
    from drafting.services.starting import start_pod

    opened = {}
    try:
        for pk in pod_ids:
            pod = Pod.objects.select_related("created_by").get(pk=pk)
            pod = start_pod(pod.created_by, pod)
            opened[pk] = {pid: list(p["cards"]) for pid, p in pod.state["packs"].items()}
    finally:
        connections.close_all()
    return opened


def sample_locks(stop: threading.Event, out: list[tuple[int, int, int, int]]) -> None:
    """Every 0.2 s: backends (active, waiting on a lock, idle in transaction, all)."""
    import psycopg

    with psycopg.connect(dbname=DB_NAME, autocommit=True, **PG) as conn:
        while not stop.wait(0.2):
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE state = 'active'),"
                " count(*) FILTER (WHERE wait_event_type = 'Lock'),"
                " count(*) FILTER (WHERE state = 'idle in transaction'), count(*)"
                " FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [DB_NAME],
            ).fetchone()
            out.append(tuple(row))


def verify(opened: dict[int, dict], drafters: list[Drafter]) -> dict:
    from django.db.models import Count

    from drafting.models import Pick, Pod

    lost = duplicated = 0
    details: Counter[str] = Counter()
    rows = list(
        Pick.objects.filter(pod_id__in=list(opened)).values(
            "pod_id",
            "seat__number",
            "booster_round",
            "pick_number",
            "pack_id",
            "card_id",
            "pack_cards",
            "auto",
            "picked_at",
        )
    )
    dup_rows = (
        Pick.objects.filter(pod_id__in=list(opened))
        .values("pod_id", "seat_id", "booster_round", "pick_number")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    extra = sum(r["n"] - 1 for r in dup_rows)
    duplicated += extra
    details["duplicate_rows"] += extra
    by_pack: dict[tuple[int, str], Counter] = defaultdict(Counter)
    by_seat: dict[tuple[int, int], list] = defaultdict(list)
    for r in rows:
        by_pack[r["pod_id"], r["pack_id"]][r["card_id"]] += 1
        by_seat[r["pod_id"], r["seat__number"]].append(r)
        details[f"auto_{r['auto']}"] += 1
    for pod_id, packs in opened.items():
        for pid, cards in packs.items():
            held, taken = Counter(cards), by_pack.get((pod_id, pid), Counter())
            over = taken - held
            missing = held - taken
            duplicated += sum(over.values())
            details["card_picked_twice"] += sum(over.values())
            lost += sum(missing.values())
            details["pack_cards_not_picked"] += sum(missing.values())
    states = {p.pk: p for p in Pod.objects.filter(pk__in=list(opened))}
    for pod_id, pod in states.items():
        details[f"pods_{pod.status}"] += 1
        for seat, pool in enumerate(pod.state["pools"]):
            picked = [
                r["card_id"] for r in sorted(by_seat[pod_id, seat], key=lambda r: r["pick_number"])
            ]
            if picked != list(pool):
                details["pool_differs_from_rows"] += 1
                duplicated += max(0, len(picked) - len(pool))
                lost += max(0, len(pool) - len(picked))
    for d in drafters:
        have = {r["pick_number"] for r in by_seat[d.pod_id, d.seat] if r["auto"] == "player"}
        missing = len(d.accepted - have)
        lost += missing
        details["accepted_without_row"] += missing
    return {"lost": lost, "duplicated": duplicated, "details": dict(details), "rows": rows}


def latencies(rows: list[dict], drafters: list[Drafter], started: float) -> dict[str, list]:
    """Per pick, the wall and the system latency (see the module docstring)."""
    submitted: dict[tuple[int, int, int], float] = {}
    for d in drafters:
        for number, t in d.submitted.items():
            submitted[d.pod_id, d.seat, number] = t
    for r in rows:  # timer picks: the server's clock, the same machine
        key = (r["pod_id"], r["seat__number"], r["pick_number"])
        submitted.setdefault(key, r["picked_at"].timestamp())
    passed_by: dict[tuple[int, str, int], tuple[int, int, int]] = {}
    round_end: dict[tuple[int, int], float] = defaultdict(float)
    for r in rows:
        key = (r["pod_id"], r["seat__number"], r["pick_number"])
        passed_by[r["pod_id"], r["pack_id"], len(r["pack_cards"]) - 1] = key
        round_end[r["pod_id"], r["booster_round"]] = max(
            round_end[r["pod_id"], r["booster_round"]], submitted[key]
        )
    mine = {(r["pod_id"], r["seat__number"], r["pick_number"]): r for r in rows}
    pod_end: dict[int, float] = defaultdict(float)  # the pod's last pick: the draft ends
    for (pod_id, _seat, _number), t in submitted.items():
        pod_end[pod_id] = max(pod_end[pod_id], t)
    wall, system, samples = [], [], []
    for d in drafters:
        for number, sent in d.submitted.items():
            seen = d.seen.get(number + 1)
            if seen is None:
                continue
            wall.append((seen - sent) * 1000)
            ready = sent
            nxt = mine.get((d.pod_id, d.seat, number + 1))
            if nxt is not None:
                size = len(nxt["pack_cards"])
                feeder = passed_by.get((d.pod_id, nxt["pack_id"], size))
                if feeder is not None:
                    ready = max(ready, submitted[feeder])
                elif nxt["booster_round"] > 0:  # a fresh booster: the round had to end
                    ready = max(ready, round_end[d.pod_id, nxt["booster_round"] - 1])
            else:  # the seat's last pick: what it sees next is the end of the draft
                ready = max(ready, pod_end[d.pod_id])
            system.append(max(0.0, seen - ready) * 1000)
            samples.append(
                (round(sent - started, 3), round(system[-1], 1), round(wall[-1], 1), number)
            )
    return {"wall": wall, "system": system, "samples": samples}


# ---------------------------------------------------------------- the run


async def drive(port, pods, think_ms, over, timeout, stack, opened_box):
    drafters = [
        Drafter(port, pod_id, name, think_ms, seed=hash((pod_id, i)), over=over)
        for pod_id, names in pods
        for i, name in enumerate(names)
    ]
    gate = asyncio.Semaphore(32)

    async def login(d: Drafter) -> None:
        async with gate:
            await d.login()

    await asyncio.gather(*(login(d) for d in drafters))
    stack.check_alive()
    opened_box.update(await asyncio.to_thread(start_pods, [pk for pk, _ in pods]))
    await fill_seats(drafters)
    started = time.time()
    tasks = [asyncio.create_task(d.run()) for d in drafters]
    progress = asyncio.create_task(report_progress(drafters, started, stack))
    try:
        done, pending = await asyncio.wait(
            tasks, timeout=timeout, return_when=asyncio.FIRST_EXCEPTION
        )
    finally:
        progress.cancel()
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    ended = max((d.done_at or time.time()) for d in drafters)
    errors = [t.exception() for t in done if t.exception() is not None]
    for d in drafters:
        await d.socket.close()
        await d.http.close()
    if errors:
        raise RuntimeError(f"{len(errors)} drafters failed, first: {errors[0]!r}")
    if pending:
        raise RuntimeError(f"{len(pending)} drafters still drafting after {timeout} s")
    return drafters, started, ended


async def report_progress(drafters: list[Drafter], started: float, stack: Stack) -> None:
    while True:
        await asyncio.sleep(10)
        stack.check_alive()
        picks = sum(len(d.submitted) for d in drafters)
        done = sum(d.done_at is not None for d in drafters)
        print(
            f"[{time.time() - started:6.0f} s] {picks} picks, {done}/{len(drafters)} done",
            file=sys.stderr,
            flush=True,
        )


async def fill_seats(drafters: list[Drafter]) -> None:
    from drafting.models import Seat

    def numbers() -> dict[str, int]:
        from django.db import connections

        try:
            qs = Seat.objects.filter(pod_id__in={d.pod_id for d in drafters})
            return dict(qs.values_list("user__username", "number"))
        finally:
            connections.close_all()

    found = await asyncio.to_thread(numbers)
    for d in drafters:
        d.seat = found[d.username]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=64)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=THINK_MS,
        help=f"mean think time before each pick, drawn uniformly from half to one and a half "
        f"times it (default {THINK_MS:g}; 0: none, which measures the saturation ceiling)",
    )
    parser.add_argument(
        "--boosters", type=int, default=4, help="booster rounds (VS1 packs of 15) per draft"
    )
    parser.add_argument("--timeout", type=float, default=1800, help="give up after (s)")
    parser.add_argument(
        "--servers",
        type=int,
        default=2,
        help="ASGI server processes sharing the listening socket (default 2: one per core)",
    )
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default="uvicorn",
        help="the ASGI server (default uvicorn, as deployed; daphne for comparison)",
    )
    parser.add_argument(
        "--worker-kind",
        choices=WORKER_POOLS,
        default="prefork",
        help="one prefork Celery worker with --workers children (default), or --workers "
        "solo workers, each running its tasks in its own process",
    )
    parser.add_argument(
        "--server-pool",
        type=int,
        default=16,
        help="PostgreSQL connections pooled by each server process (DATABASE_POOL_MAX)",
    )
    parser.add_argument(
        "--worker-pool",
        type=int,
        default=2,
        help="PostgreSQL connections pooled by each Celery worker process",
    )
    parser.add_argument(
        "--picks-over",
        choices=["ws", "http"],
        default="ws",
        help="send picks over the pod's websocket, as the room page does while it is "
        "connected (default), or POST them as the page's form does without one",
    )
    parser.add_argument(
        "--samples",
        metavar="PATH",
        help="also write every pick as a CSV line (seconds into the run, system ms, wall ms, "
        "pick number), to see when the slow ones happened",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    stack = Stack(DB_NAME, REDIS_URL, ENV, "draft-load-")
    atexit.register(stack.close)
    install_signal_exit()
    try:
        return run(args, stack)
    finally:
        stack.close()


def run(args, stack: Stack) -> int:
    stack.create_database()
    stack.flush_redis()

    import django

    django.setup()
    from django.db import connections

    run_name = f"bench{int(time.time())}"
    pods = setup_database(args.pods, args.seats, args.boosters, run_name)
    connections.close_all()

    server_env = {"DATABASE_POOL_MAX": str(args.server_pool)}
    port, servers = start_servers(stack, args.servers, server_env, args.server)
    workers = start_worker(
        stack,
        args.workers,
        "draftbench",
        {"DATABASE_POOL_MAX": str(args.worker_pool), "DATABASE_POOL_MIN": "1"},
        args.worker_kind,
    )
    wait_http(port, stack)

    components = {
        "server": lambda: cpu_seconds([proc.pid for proc in servers]),
        "celery": lambda: cpu_seconds([w.pid for w in workers]),
        "redis": lambda: cpu_seconds(pids_named("redis-server")),
        "clients": own_cpu_seconds,
        "machine_busy": machine_busy_seconds,  # every core, PostgreSQL included
    }
    cpu_before = {k: f() for k, f in components.items()}
    stop = threading.Event()
    lock_samples: list[tuple[int, int, int, int]] = []
    sampler = threading.Thread(target=sample_locks, args=(stop, lock_samples), daemon=True)
    sampler.start()
    opened: dict[int, dict] = {}
    try:
        drafters, started, ended = asyncio.run(
            drive(port, pods, args.think_ms, args.picks_over, args.timeout, stack, opened)
        )
    finally:
        stop.set()
        sampler.join(timeout=2)
    cpu = {k: round(f() - cpu_before[k], 1) for k, f in components.items()}
    stack.check_alive()
    time.sleep(1.5)  # let the worker drain the stale timer tasks due by now

    checked = verify(opened, drafters)
    lat = latencies(checked.pop("rows"), drafters, started)
    connections.close_all()
    if args.samples:
        with open(args.samples, "w") as fh:
            fh.write("sent_s,system_ms,wall_ms,pick\n")
            fh.writelines(",".join(map(str, row)) + "\n" for row in sorted(lat["samples"]))
    elapsed = ended - started
    picks = sum(len(d.submitted) for d in drafters)
    post = [ms for d in drafters for ms in d.post_ms]
    result = {
        "drafters": len(drafters),
        "picks_per_second": round(picks / elapsed, 1),
        "p50_ms": pct(lat["system"], 0.50),
        "p99_ms": pct(lat["system"], 0.99),
        "lost": checked["lost"],
        "duplicated": checked["duplicated"],
        "pods": args.pods,
        "seats": args.seats,
        "celery_workers": args.workers,
        "worker_kind": args.worker_kind,
        "servers": args.servers,
        "server": args.server,
        "boosters": args.boosters,
        "think_ms": args.think_ms,
        "picks_over": args.picks_over,
        "picks": picks,
        "seconds": round(elapsed, 1),
        "wall_p50_ms": pct(lat["wall"], 0.50),
        "wall_p99_ms": pct(lat["wall"], 0.99),
        "post_p50_ms": pct(post, 0.50),
        "post_p99_ms": pct(post, 0.99),
        "post_max_ms": round(max(post), 1) if post else None,
        "rejected_picks": sum(len(d.rejected) for d in drafters),
        "panel_refetches": sum(d.refetches for d in drafters),
        "silent_waits_over_15s": sum(d.poll_fallbacks for d in drafters),
        "packs_found_by_refetch": sum(d.lost_pushes for d in drafters),
        "checks": checked["details"],
        "cpu_seconds": cpu,
        "db_backends_mean": {
            "active": round(statistics.mean(s[0] for s in lock_samples), 2) if lock_samples else 0,
            "waiting_on_lock": round(statistics.mean(s[1] for s in lock_samples), 2)
            if lock_samples
            else 0,
            "idle_in_transaction": round(statistics.mean(s[2] for s in lock_samples), 2)
            if lock_samples
            else 0,
            "connections_max": max((s[3] for s in lock_samples), default=0),
        },
    }
    stack.ok = True
    rejected = [r for d in drafters for r in d.rejected][:3]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
        for reason in rejected:
            print("rejected:", reason)
    return 0 if result["lost"] == 0 and result["duplicated"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
