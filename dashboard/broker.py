"""Celery as the dashboard sees it: queue lengths and worker health.

Queue lengths
    Redis broker: ``LLEN`` of every queue the project routes tasks to (the default
    queue plus any in ``task_queues``/``task_routes``), each with kombu's priority
    sub-queues, and ``HLEN`` of kombu's ``unacked`` hash: messages a worker has
    taken but not yet acknowledged (running, prefetched, or held until their
    ``eta``). Embedded mode: the in-memory broker lives in this process, so the
    queues are read directly, and so are the embedded worker's own counters
    (active, reserved, scheduled, processed).

Worker health
    A probe: the dashboard queues ``tournaments.tasks.heartbeat`` (at most every
    ``PROBE_EVERY`` seconds, with an expiry so probes never pile up) and reads the
    time the worker wrote back. An answer proves that some worker takes tasks from
    the queue; the delay is the queue's latency. With Redis, ``inspect stats`` (a
    broadcast answered by every worker, short timeout, cached) names the workers.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

PROBE_TOKEN = "dashboard-probe"
PROBE_EVERY = 15  # seconds between two probes once the last was answered
PROBE_LATE = 30  # seconds without an answer before the workers are called silent
PROBE_EXPIRES = 120  # a probe not run by then is dropped, and a new one is sent
PROBE_QUEUE: str | None = None  # None: wherever the heartbeat task is routed
INSPECT_KEY = "dashboard:inspect-stats"
INSPECT_LOCK_KEY = "dashboard:inspect-lock"
INSPECT_TIMEOUT = 0.5
INSPECT_CACHE = 15
REDIS_TIMEOUT = 1.0

_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def _app():
    from config.celery import app

    return app


def routed_queues() -> list[str]:
    """The queues the project sends tasks to, default queue first."""
    conf = _app().conf
    names = [conf.task_default_queue or "celery"]
    for queue in conf.task_queues or ():
        names.append(getattr(queue, "name", str(queue)))
    routes = conf.task_routes
    for route in routes.values() if isinstance(routes, dict) else ():
        if isinstance(route, dict) and route.get("queue"):
            names.append(str(route["queue"]))
    return list(dict.fromkeys(names))


def _redis():
    import redis

    url = settings.CELERY_BROKER_URL
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = redis.Redis.from_url(
                url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
            )
            _clients[url] = client
        return client


def queue_figures() -> dict[str, Any]:
    """Messages waiting per routed queue, and what else can be known in this mode."""
    names = routed_queues()
    if settings.EMBEDDED:
        return _embedded_queues(names)
    return _redis_queues(names)


def _redis_queues(names: list[str]) -> dict[str, Any]:
    import redis

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS or {}
    prefix = options.get("global_keyprefix", "") or ""
    steps = options.get("priority_steps") or [0, 3, 6, 9]
    sep = options.get("sep") or "\x06\x16"
    try:
        pipe = _redis().pipeline(transaction=False)
        for name in names:
            for step in steps:
                pipe.llen(f"{prefix}{name}{sep}{step}" if step else f"{prefix}{name}")
        pipe.hlen(f"{prefix}unacked")
        answers = pipe.execute()
    except (redis.RedisError, OSError) as exc:
        return {
            "mode": "redis",
            "error": str(exc) or exc.__class__.__name__,
            "queues": [],
            "unacked": None,
        }
    queues = []
    for i, name in enumerate(names):
        chunk = answers[i * len(steps) : (i + 1) * len(steps)]
        queues.append({"name": name, "waiting": int(sum(chunk))})
    return {"mode": "redis", "error": "", "queues": queues, "unacked": int(answers[-1])}


def _embedded_queues(names: list[str]) -> dict[str, Any]:
    from celery.worker import state
    from kombu.transport.memory import Channel

    queues = []
    for name in names:
        queue = Channel.queues.get(name)
        queues.append({"name": name, "waiting": queue.qsize() if queue is not None else 0})
    scheduled = getattr(state, "scheduled_requests", None)
    return {
        "mode": "embedded",
        "error": "",
        "queues": queues,
        "unacked": None,
        "active": len(state.active_requests),
        "reserved": len(state.reserved_requests),
        "scheduled": len(scheduled) if scheduled is not None else None,
        "processed": int(state.all_total_count[0]),
    }


# ---------------------------------------------------------------- workers


def probe_keys() -> dict[str, str]:
    """The probe's token and cache keys, one set per probe queue."""
    scope = PROBE_QUEUE or "default"
    token = f"{PROBE_TOKEN}-{PROBE_QUEUE}" if PROBE_QUEUE else PROBE_TOKEN
    return {
        "token": token,
        "seen": f"worker-heartbeat:{token}",  # written by tournaments.tasks.heartbeat
        "sent": f"dashboard:probe-sent:{scope}",
        "lock": f"dashboard:probe-lock:{scope}",
        "last_ok": f"dashboard:probe-last-latency:{scope}",
    }


def _probe(now: float) -> dict[str, Any]:
    """Send a heartbeat probe when one is due; say what the last one showed."""
    from tournaments.tasks import heartbeat

    keys = probe_keys()
    sent = cache.get(keys["sent"])
    seen = cache.get(keys["seen"])
    answered = sent is not None and seen is not None and seen >= sent
    due = (
        sent is None
        or (answered and now - sent >= PROBE_EVERY)
        or (not answered and now - sent >= PROBE_EXPIRES)
    )
    send_error = ""
    if due and cache.add(keys["lock"], 1, timeout=PROBE_EVERY):
        # Noted before sending: a quick worker may answer before apply_async returns.
        cache.set(keys["sent"], now, timeout=None)
        sent, answered = now, False
        try:
            options = {"queue": PROBE_QUEUE} if PROBE_QUEUE else {}
            heartbeat.apply_async((keys["token"],), expires=PROBE_EXPIRES, retry=False, **options)
        except Exception as exc:
            send_error = str(exc) or exc.__class__.__name__
    latency = None
    if answered:
        status, latency = "ok", round(seen - sent, 2)
        cache.set(keys["last_ok"], latency, timeout=None)
    elif sent is not None and now - sent >= PROBE_LATE:
        status = "silent"
    elif (latency := cache.get(keys["last_ok"])) is not None:
        status = "ok"  # the last probe was answered; the new one is on its way
    else:
        status = "waiting" if sent is not None else "unknown"
    return {
        "status": status,
        "last_seen_age": round(now - seen, 1) if seen is not None else None,
        "latency": latency,
        "waiting_for": round(now - sent, 1) if sent is not None and not answered else None,
        "send_error": send_error,
    }


def _inspect_stats(now: float) -> dict[str, Any]:
    """The workers' answers to ``inspect stats``, asked at most every ``INSPECT_CACHE`` s.

    The broadcast waits ``INSPECT_TIMEOUT`` for answers, so one request asks while the
    others (and the next ones) are served the last answers.
    """
    cached = cache.get(INSPECT_KEY)
    fresh = cached is not None and now - cached.get("at", 0) < INSPECT_CACHE
    if fresh or not cache.add(INSPECT_LOCK_KEY, 1, timeout=5):
        return cached or {"workers": [], "error": "", "at": None}
    try:
        replies = _app().control.inspect(timeout=INSPECT_TIMEOUT).stats() or {}
        workers = []
        for name, stats in sorted(replies.items()):
            pool = stats.get("pool") or {}
            total = stats.get("total") or {}
            workers.append(
                {
                    "name": name,
                    "pid": stats.get("pid"),
                    "concurrency": pool.get("max-concurrency"),
                    "processed": sum(v for v in total.values() if isinstance(v, int)),
                    "uptime": stats.get("uptime"),
                }
            )
        result = {"workers": workers, "error": "", "at": now}
    except Exception as exc:
        result = {"workers": [], "error": str(exc) or exc.__class__.__name__, "at": now}
    finally:
        cache.delete(INSPECT_LOCK_KEY)
    cache.set(INSPECT_KEY, result, timeout=INSPECT_CACHE * 20)
    return result


def _embedded_worker() -> dict[str, Any]:
    from config import embedded

    worker = embedded._worker
    if worker is None:
        return {"workers": [], "error": ""}
    state = getattr(getattr(worker, "blueprint", None), "state", None)
    return {
        "workers": [
            {
                "name": worker.hostname,
                "pid": None,
                "concurrency": settings.EMBEDDED_WORKER_THREADS,
                "processed": None,
                "uptime": None,
                "running": state == 1,  # celery.bootsteps.RUN
            }
        ],
        "error": "",
    }


def worker_figures(now: float | None = None, *, probe: bool = True) -> dict[str, Any]:
    now = time.time() if now is None else now
    try:
        heartbeat = _probe(now) if probe else {"status": "unknown"}
    except Exception as exc:
        heartbeat = {"status": "unknown", "send_error": str(exc) or exc.__class__.__name__}
    if settings.EMBEDDED:
        listing = _embedded_worker()
    else:
        try:
            listing = _inspect_stats(now)
        except Exception as exc:
            listing = {"workers": [], "error": str(exc) or exc.__class__.__name__}
    return {"mode": "embedded" if settings.EMBEDDED else "redis", "heartbeat": heartbeat, **listing}
