"""The Celery application. Tasks take ids and JSON, and re-runs are harmless."""

from __future__ import annotations

import os
from queue import Empty

from celery import Celery
from celery.signals import worker_process_init, worker_ready
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class RedisChannel(kombu_redis.Channel):
    """kombu's Redis channel, which also closes when Redis went away under it.

    A worker always has a ``BRPOP`` in flight, and ``close()`` first reads its reply.
    When Redis is gone that read raises a connection error, and kombu 5.7 lets it end
    ``close()`` before the channel is marked closed. Celery 5.7's consumer then
    collects the connection (which swallows the error and detaches the transport) and
    closes it again: the half-closed channel tries to hand its unacknowledged messages
    (clock tasks waiting for their ``eta``, moves being applied) back to Redis through
    the detached transport, raises ``AttributeError: 'NoneType' object has no
    attribute 'hostname'``, and the worker exits with "Unrecoverable error" instead of
    reconnecting.

    A dead socket has no reply left to read, so a connection error there is dropped
    like an empty reply and the channel closes as usual. Handing the unacknowledged
    messages back then fails as a connection error, which kombu ignores: they stay in
    Redis's ``unacked`` hash and are delivered again after the visibility timeout.
    """

    def _create_client(self, asynchronous=False):
        """kombu builds a new redis-py client (a few hundred response callbacks, copied)
        for every publish, acknowledgement and delivery bookkeeping; one per pool does:
        a client holds no connection of its own, its pool does, and a new pool (a
        reconnect) gets a new client."""
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        cached = self.__dict__.get("_plain_client")
        if cached is None or cached[0] is not pool:
            cached = self._plain_client = (pool, super()._create_client())
        return cached[1]

    def close(self) -> None:
        if self._in_poll:  # ``_brpop_read`` clears it, so ``super().close()`` reads no more
            try:
                self._brpop_read()
            except (Empty, *self.connection_errors):
                pass
        super().close()


class RedisTransport(kombu_redis.Transport):
    """The broker transport in Redis mode (``CELERY_BROKER_TRANSPORT``): see RedisChannel."""

    Channel = RedisChannel


app = Celery("gauntlet")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect  # each prefork child, after the fork
@worker_ready.connect  # the worker's own process (which runs the tasks of a solo worker)
def _tune_gc(**kwargs) -> None:
    from config.runtime import tune_gc

    tune_gc()


# A task queued with an ``eta`` waits in a worker, unacknowledged; a Redis broker hands it
# to a worker again once the visibility timeout has passed. So no task is queued further
# ahead than this margin short of it, and one that comes before its time queues itself on.
ETA_MARGIN_SECONDS = 600


def eta_horizon():
    """How far ahead ``queue_at`` queues a task at most (a ``timedelta``)."""
    from datetime import timedelta

    from django.conf import settings

    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    return timedelta(seconds=max(60.0, float(timeout) - ETA_MARGIN_SECONDS))


def queue_at(task, args: tuple, eta):
    """Once the transaction commits, queue ``task(*args)`` for ``eta`` or, if that lies
    beyond ``eta_horizon``, for the horizon; returns when the task will run.

    A task queued this way must look, when it runs, whether its time has come, and if it
    has not, queue itself on with ``queue_at`` (every task with an ``eta`` here already
    re-reads its deadline under a row lock, so one that comes early changes nothing).
    """
    from django.db import transaction
    from django.utils import timezone

    eta = min(eta, timezone.now() + eta_horizon())
    transaction.on_commit(lambda: task.apply_async(args, eta=eta), robust=True)
    return eta
