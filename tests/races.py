"""Reproducing races on purpose: run calls in threads released at the same instant."""

from __future__ import annotations

import threading

from django.db import connections


def run_together(*calls, timeout: float = 60):
    """Run each call in its own thread (own database connection), all at once.

    Returns one ``("ok", value)`` or ``("error", exception)`` per call, in order.
    """
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            outcomes[index] = ("ok", call())
        except Exception as exc:  # the outcome is what the test inspects
            outcomes[index] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return outcomes
