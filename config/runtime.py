"""Tuning applied to a long-running process (ASGI server, Celery worker) once it has
loaded Django and the project.

Python's cyclic garbage collector walks every tracked object of a generation when it
runs; in a server holding the whole project, its oldest generation is hundreds of
thousands of objects and a full pass stalls every request and websocket of the process
for tens of milliseconds, at intervals set by how fast requests allocate. Here
everything loaded at start is moved out of the collector's sight (``gc.freeze``: it
lives as long as the process anyway) and the thresholds are raised so that passes come
less often (``GC_THRESHOLDS``; see
``docs/decisions/0020-garbage-collector-tuning.md`` for the figures).
"""

from __future__ import annotations

import gc

from config.env import gc_thresholds


def tune_gc() -> None:
    thresholds = gc_thresholds()
    if thresholds is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
