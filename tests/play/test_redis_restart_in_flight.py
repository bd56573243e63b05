"""Redis restarted while bots are moving and a clock is running: both games reach their end.

The same stack as ``test_redis_restart`` (a redis-server of the test's own with its
append-only file, a real daphne process and a real Celery worker on the test database),
plus the sweep run as production runs it: a ``celery beat`` process queueing
``tournaments.tasks.sweep`` every second. Two games are under way when Redis stops:

* a bot-against-bot match of an online event: a bot move is always queued or being
  applied (each one queues the next after its commit, which fails while Redis is down);
* a person against a bot with a 15-second clock: the person plays over the websocket as
  the page does, then stops moving, and must lose on time after the restart (the clock
  task queued before the restart, or the sweep's, flags it).

When Redis stops the worker holds unacknowledged messages: the clock tasks waiting for
their ``eta`` and, to be sure of one, a sweep the test queues an hour ahead. Celery 5.7
and kombu 5.7 alone exit there with "Unrecoverable error: AttributeError ... 'hostname'"
(see ``config.celery.RedisChannel``); the worker must instead reconnect by itself, the
same process from start to end. Both games then end by themselves: the bots' by the
rules (or the worker's move cap, a drawn game), the person's on time. Every seq is
applied once (the action log runs 0..seq-1), replaying the log from the seed gives the
stored state, and the bots' match is recorded in the event.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connections
from kombu import Connection

from config.celery import app
from play.models import ActionLog, GameSession
from play.services.reading import replay_state
from play.services.starting import create_bot_game, start_match
from tests.play.test_redis_restart import (
    Player,
    Redis,
    cookie_for,
    database_url,
    free_port,
    play_until,
    port_free,
    pytestmark,  # noqa: F401  (the same marks: transaction, slow, needs postgres and redis)
    start,
    stop,
    wait_port,
)
from tournaments.models import Match
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

REDIS_PORT = 6391
CLOCK = 15  # seconds in the person's bank
MAX_MOVES = 250  # the worker calls a bots' game it cannot finish (a drawn game)

# A worker whose bots answer at once and whose games stop at MAX_MOVES.
WORKER = """
import sys
from config.celery import app
from django.conf import settings
settings.PLAY_BOT_DELAY_SECONDS = 0.02
settings.PLAY_MAX_MOVES = int(sys.argv[1])
app.worker_main(sys.argv[2:])
"""


def hold_unacked(broker_url: str, worker_log: Path) -> str:
    """Queue a sweep due in an hour and wait until the worker holds it, unacknowledged."""
    with Connection(broker_url) as conn:
        task_id = app.send_task("tournaments.tasks.sweep", countdown=3600, connection=conn).id
    deadline = time.monotonic() + 30
    while f"[{task_id}] received" not in worker_log.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the worker never received the sweep due in an hour"
        time.sleep(0.2)
    return task_id


def fresh(pk: int) -> GameSession:
    try:
        return GameSession.objects.get(pk=pk)
    finally:
        connections.close_all()


def bots_match(organiser, make_user) -> GameSession:
    event = create_event(
        organiser,
        name="Bots Night",
        game_system="ascension",
        format="standard",
        swiss_rounds=1,
        best_of=1,
        play_online=True,
    )
    for n in range(2):
        bot = make_user(f"restart-bot{n}")
        register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
    event = start_event(organiser, event)
    rnd = publish_round(organiser, pair_next_round(organiser, event))
    return start_match(rnd.matches.get(is_bye=False))


def test_bot_moves_and_a_clock_in_flight_survive_a_redis_restart(alice, make_user, tmp_path):
    bots = bots_match(alice, make_user)
    assert all(s.is_bot for s in bots.seats.all())
    person = create_bot_game(alice, "ascension", "heuristic", time_bank=CLOCK)
    seat = person.seats.get(user=alice).number
    cookie = cookie_for(alice)

    redis_port = REDIS_PORT if port_free(REDIS_PORT) else free_port()
    redis = Redis(redis_port, tmp_path)
    http_port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "CHANNELS_PREFIX": f"redis-flight-{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": settings.SECRET_KEY,
        "FAST_PASSWORD_HASHER": "true",
        "DEBUG": "false",
        "PYTHONUNBUFFERED": "1",
        "PLAY_SWEEP_SECONDS": "1",
        "PLAY_STALL_SECONDS": "2",
    }
    logs = {name: tmp_path / f"{name}.log" for name in ("daphne", "worker", "beat")}
    bin_dir = Path(sys.executable).parent
    procs: list = []
    worker = None
    timeline: dict[str, float] = {}
    try:
        redis.start()
        procs.append(
            start(
                [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(http_port),
                 "config.asgi:application"],
                env,
                logs["daphne"],
            )
        )  # fmt: skip
        worker = start(
            [sys.executable, "-c", WORKER, str(MAX_MOVES), "-A", "config", "worker",
             "-P", "prefork", "-c", "2", "-n", f"flight-{uuid.uuid4().hex[:6]}@%h",
             "-l", "INFO"],
            env,
            logs["worker"],
        )  # fmt: skip
        procs.append(
            start(
                [str(bin_dir / "celery"), "-A", "config", "beat", "-l", "INFO",
                 "-s", str(tmp_path / "beat-schedule")],
                env,
                logs["beat"],
            )
        )  # fmt: skip
        wait_port(http_port, procs[0], logs["daphne"])

        async def scenario() -> Player:
            # The first bot moves were queued by this process's commits to its own broker:
            # lost work, which the sweep finds and queues again on the test's Redis.
            player = Player(http_port, person.pk, seat, cookie)
            await player.connect()
            await play_until([player], 8, timeout=90)
            bots_seq = await asyncio.to_thread(lambda: fresh(bots.pk).seq)
            assert bots_seq > 0, "the bots' game never started moving"

            await asyncio.to_thread(hold_unacked, env["REDIS_URL"], logs["worker"])
            await asyncio.to_thread(redis.stop)
            timeline["down"] = time.monotonic()
            await asyncio.sleep(3)  # bot moves fail to queue; the person's clock may run
            await asyncio.to_thread(redis.start)
            timeline["up"] = time.monotonic()

            start_seq = player.latest["seq"] if player.latest else 0
            await play_until([player], start_seq + 8, timeout=120)
            # The person stops moving (still to act, or soon): the clock must flag them.
            timeline["stopped"] = time.monotonic()
            return player

        try:
            player = asyncio.run(scenario())
            deadline = time.monotonic() + CLOCK + 60
            while time.monotonic() < deadline:
                if fresh(person.pk).is_over and fresh(bots.pk).is_over:
                    break
                time.sleep(0.5)
            timeline["over"] = time.monotonic()
            assert fresh(person.pk).is_over, "the person's clock never flagged"
            assert fresh(bots.pk).is_over, f"the bots' game stalled at {fresh(bots.pk).seq}"
            # The same worker process did it all: it saw the connection drop and reconnected.
            assert worker.poll() is None, f"the worker exited with {worker.returncode}"
            worker_log = logs["worker"].read_text(errors="replace")
            assert "Connection to broker lost" in worker_log, "the worker never saw Redis stop"
            assert "unacknowledged message(s)" in worker_log, "it held none when Redis stopped"
            assert "Unrecoverable error" not in worker_log
        except AssertionError as exc:
            tails = "\n".join(
                f"--- {log.name}\n{log.read_text(errors='replace')[-4000:]}"
                for log in (*logs.values(), redis.log)
                if log.exists()
            )
            raise AssertionError(f"{exc}\n{tails}") from None
    finally:
        stop(worker)
        for proc in procs:
            stop(proc)
        redis.stop()
    print(f"timeline {timeline}")

    for session in (fresh(person.pk), fresh(bots.pk)):
        rows = list(ActionLog.objects.filter(session=session).values_list("seq", flat=True))
        assert rows == list(range(session.seq)), f"every seq of {session} once, no gap"
        assert replay_state(session) == session.state
        assert session.status == GameSession.Status.FINISHED

    person = fresh(person.pk)
    assert person.end_reason == GameSession.EndReason.TIME
    assert person.result["eliminated"] == [seat]
    assert person.seq >= 16 and player.sent  # it went on after the restart
    # Flagged within the bank after the person stopped, give or take the sweep's delay.
    assert timeline["over"] - timeline["stopped"] <= CLOCK + 15

    bots = fresh(bots.pk)
    assert bots.end_reason in (GameSession.EndReason.RULES, GameSession.EndReason.TIME)
    match = Match.objects.get(pk=bots.match_id)
    assert list(match.games.values_list("number", flat=True)) == [1]  # recorded once
    if bots.result["draw"]:  # called at the cap: a drawn game, and the match goes on
        assert match.play_sessions.filter(game_number=2).exists()
    else:
        assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
