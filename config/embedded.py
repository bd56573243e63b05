"""Embedded mode: Celery workers as threads inside the server process.

With no ``REDIS_URL`` the broker is kombu's in-memory transport, which only
works inside one process, so the worker has to live in the process that sends
the tasks. It is a real worker (a thread pool consuming the queue, honouring
``eta``/``countdown``), not eager mode: a task scheduled for later runs later.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings

logger = logging.getLogger("gauntlet.embedded")
_lock = threading.Lock()
_worker = None


def start_embedded_worker() -> bool:
    """Start the in-process worker once; return True if it is running."""
    global _worker
    if not settings.EMBEDDED:
        return False
    with _lock:
        if _worker is not None:
            return True
        from config.celery import app

        worker = app.WorkController(
            pool_cls="threads",
            concurrency=settings.EMBEDDED_WORKER_THREADS,
            loglevel="WARNING",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            hostname="embedded@gauntlet",
        )
        thread = threading.Thread(target=worker.start, name="celery-embedded", daemon=True)
        thread.start()
        threading.Thread(target=_sweep_forever, name="sweep-embedded", daemon=True).start()
        _worker = worker
        logger.info(
            "embedded Celery worker started with %s threads", settings.EMBEDDED_WORKER_THREADS
        )
        return True


def _sweep_forever() -> None:
    """Embedded mode's beat: queue the sweep (``tournaments.tasks.sweep``) every PLAY_SWEEP_SECONDS.

    The same task a beat process queues in Redis mode, through the in-memory broker; a
    sweep that fails is logged and the next one runs as usual.
    """
    import time

    from tournaments import tasks
    from tournaments.sweeps import sweep_interval

    while True:
        time.sleep(sweep_interval())
        try:
            tasks.sweep.apply_async(expires=sweep_interval())
        except Exception:
            logger.exception("the sweep could not be queued")
