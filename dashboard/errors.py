"""A logging handler that keeps ERROR records for the staff dashboard.

``config.settings.LOGGING`` attaches ``ErrorRecordHandler`` to ``django.request``
(requests that failed), ``celery.app.trace`` (tasks that raised) and the project's
own ``gauntlet`` loggers. Celery clears the root logger's handlers when a worker
starts, not these, so worker processes keep recording.

The handler never lets a failure to record break the code that logged: the entry
is built from the record at once; writing it needs the ORM, so from inside an
event loop (daphne) it is written from a short-lived thread, and if the database
refuses (a broken transaction, no table yet) the entry waits in a small buffer
and is written with the next one that succeeds.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import traceback as tb
from collections import deque
from typing import Any

from django.utils.functional import empty

TRACEBACK_CHARS = 20_000
MESSAGE_CHARS = 4_000
PENDING_MAX = 50

_local = threading.local()
_pending: deque[dict[str, Any]] = deque(maxlen=PENDING_MAX)
_pending_lock = threading.Lock()


def _cut(text: Any, limit: int, *, tail: bool = False) -> str:
    text = "" if text is None else str(text)
    if len(text) <= limit:
        return text
    return ("…" + text[-(limit - 1) :]) if tail else (text[: limit - 1] + "…")


def _last_frame(exc_tb) -> str:
    frames = tb.extract_tb(exc_tb) if exc_tb is not None else []
    if not frames:
        return ""
    last = frames[-1]
    return f"{last.filename}:{last.lineno}"


def _username(request) -> str:
    """The user of the request if the request already knew it (never a query here)."""
    user = getattr(request, "user", None)
    wrapped = getattr(user, "_wrapped", None)
    if user is None or wrapped is empty:
        return ""
    target = wrapped if wrapped is not None else user
    if getattr(target, "is_authenticated", False):
        return _cut(target.get_username(), 150)
    return ""


def entry_from_record(record: logging.LogRecord) -> dict[str, Any]:
    """The fields of an ``ErrorRecord`` for one log record (no database access)."""
    message = record.getMessage()
    exc_type = exc_value = exc_tb = None
    if record.exc_info and record.exc_info[0] is not None:
        exc_type, exc_value, exc_tb = record.exc_info
    entry: dict[str, Any] = {
        "logger": _cut(record.name, 200),
        "level": record.levelname[:20],
        "message": _cut(message, MESSAGE_CHARS),
        "exception": "",
        "traceback": "",
        "source": "other",
    }
    if exc_type is not None:
        entry["exception"] = _cut(f"{exc_type.__name__}: {exc_value}", 300)
        entry["traceback"] = _cut(
            "".join(tb.format_exception(exc_type, exc_value, exc_tb)), TRACEBACK_CHARS, tail=True
        )
    key = [record.name, exc_type.__name__ if exc_type else "", _last_frame(exc_tb), str(record.msg)]

    request = getattr(record, "request", None)
    data = getattr(record, "data", None)
    if record.name == "django.request" and request is not None:
        entry["source"] = "request"
        entry["method"] = _cut(getattr(request, "method", "") or "", 10)
        entry["path"] = _cut(getattr(request, "path", ""), 500)
        status = getattr(record, "status_code", None)
        entry["status_code"] = status if isinstance(status, int) else None
        entry["username"] = _username(request)
        if exc_type is None:
            key.append(entry["path"])
    elif record.name.startswith("celery") and isinstance(data, dict) and data.get("name"):
        entry["source"] = "task"
        entry["task_name"] = _cut(data.get("name"), 200)
        entry["task_id"] = _cut(data.get("id"), 64)
        entry["task_args"] = _cut(data.get("args"), 500)
        entry["hostname"] = _cut(data.get("hostname"), 200)
        if not entry["traceback"] and data.get("traceback"):
            entry["traceback"] = _cut(data["traceback"], TRACEBACK_CHARS, tail=True)
        if not entry["exception"] and data.get("exc"):
            entry["exception"] = _cut(data["exc"], 300)
        key.append(entry["task_name"])
    elif exc_type is None:
        key.append(message[:200])
    entry["fingerprint"] = hashlib.sha256("\x1f".join(key).encode()).hexdigest()
    return entry


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def store(entry: dict[str, Any]) -> bool:
    """Write the entry (and any waiting ones); keep it for later if the database refuses."""
    from django.apps import apps

    if not apps.ready:
        _keep(entry)
        return False
    from dashboard import services

    with _pending_lock:
        waiting = list(_pending)
        _pending.clear()
    for i, item in enumerate([*waiting, entry]):
        try:
            services.record_error(item)
        except Exception:
            for rest in [*waiting, entry][i:]:
                _keep(rest)
            return False
    return True


def _keep(entry: dict[str, Any]) -> None:
    with _pending_lock:
        _pending.append(entry)


def _store_in_thread(entry: dict[str, Any]) -> None:
    from django.db import connections

    try:
        store(entry)
    finally:
        connections.close_all()


class ErrorRecordHandler(logging.Handler):
    """Keeps ERROR records as ``dashboard.models.ErrorRecord`` rows."""

    def __init__(self, level: int | str = logging.ERROR) -> None:
        super().__init__(level)

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(_local, "busy", False):
            return  # an error logged while recording an error: do not loop
        _local.busy = True
        try:
            entry = entry_from_record(record)
            if _in_event_loop():
                threading.Thread(
                    target=_store_in_thread, args=(entry,), name="error-record", daemon=True
                ).start()
            else:
                store(entry)
        except Exception:
            self.handleError(record)
        finally:
            _local.busy = False
