"""The sweep re-queues work whose task was lost, once, and a move is judged when it was made.

The tasks the sweep queues are recorded instead of sent (``queued``), then run in-process
as a worker would run them. Times are moved forward by passing ``now`` to the sweep.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import eta_horizon
from engine.ascension.game import SYSTEM
from play import recovery, tasks
from play.models import ActionLog, GameSession, SessionSeat
from play.services.acting import apply_action, submit_action
from play.services.starting import create_bot_game, create_friend_game, join_game
from tests.tournaments.factories import make_event
from tournaments import sweeps
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

HUMAN = 0


@pytest.fixture
def queued(monkeypatch):
    """Every task the sweep sends, as (task name, args), instead of reaching the broker."""
    from drafting import tasks as draft_tasks
    from tournaments import tasks as tournament_tasks

    sent: list[tuple[str, tuple]] = []
    for task in (
        tasks.bot_move,
        tasks.clock_expired,
        tasks.start_round_games,
        tournament_tasks.advance_event,
        draft_tasks.run_timers,
        draft_tasks.finish_building,
        tournament_tasks.lock_decklists_at_deadline,
    ):
        monkeypatch.setattr(
            task, "delay", lambda *args, _name=task.name: sent.append((_name, args))
        )
    return sent


def later(seconds: float = 60):
    return timezone.now() + timedelta(seconds=seconds)


def bot_to_act(alice, django_capture_on_commit_callbacks) -> GameSession:
    """A game against a bot where the bot is to act and its move task was lost."""
    with django_capture_on_commit_callbacks(execute=False):
        session = create_bot_game(alice, "ascension", "heuristic")
    for _ in range(50):
        session = GameSession.objects.get(pk=session.pk)
        (acting,) = SYSTEM.to_act(session.state)
        if acting != HUMAN:
            return session
        with django_capture_on_commit_callbacks(execute=False):  # the bot's task is lost
            apply_action(session.pk, HUMAN, session.seq, {"type": "end_turn"})
    raise AssertionError("the bot never came to act")


def test_a_bot_game_whose_move_task_was_lost_resumes_after_a_sweep(
    alice, queued, django_capture_on_commit_callbacks
):
    session = bot_to_act(alice, django_capture_on_commit_callbacks)
    seq = session.seq
    assert sweeps.sweep()["bots"] == 0  # not late yet
    assert sweeps.sweep(later())["bots"] == 1
    assert queued == [("play.tasks.bot_move", (session.pk, seq))]
    # A second sweep changes nothing more: the game is claimed until it is late again.
    again = sweeps.sweep(later())
    assert {"ended", "bots", "clocks", "rounds", "events", "pods", "decklists"} <= set(again)
    assert not any(again.values()), again
    assert len(queued) == 1
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.bot_move.apply(args=queued[0][1]).get() == "applied"
    session.refresh_from_db()
    assert session.seq == seq + 1
    assert ActionLog.objects.get(session=session, seq=seq).seat != HUMAN
    # The same task delivered again (the lost one turning up after all) changes nothing.
    assert tasks.bot_move.apply(args=queued[0][1]).get() is None
    assert GameSession.objects.get(pk=session.pk).seq == seq + 1


def test_a_person_to_act_is_not_a_lost_task(alice, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        session = create_bot_game(alice, "ascension", "heuristic")
    for _ in range(50):
        session = GameSession.objects.get(pk=session.pk)
        if SYSTEM.to_act(session.state) == (HUMAN,):
            break
        with django_capture_on_commit_callbacks(execute=False):
            tasks.bot_move.apply(args=(session.pk, session.seq))
    assert sweeps.sweep(later())["bots"] == 0
    assert queued == []


def test_games_waiting_on_a_person_do_not_hide_a_stalled_bot_game_behind_them(
    alice, queued, monkeypatch, django_capture_on_commit_callbacks
):
    import uuid

    monkeypatch.setattr(recovery, "BATCH", 2)
    # A cursor of its own: the cache is shared with tests running alongside.
    monkeypatch.setattr(recovery, "BOTS_CURSOR_KEY", f"test-bots-after-{uuid.uuid4()}")
    waiting = []
    for _ in range(3):  # bot games left idle by their person: nothing to re-queue
        with django_capture_on_commit_callbacks(execute=False):
            session = create_bot_game(alice, "ascension", "heuristic")
        while SYSTEM.to_act(GameSession.objects.get(pk=session.pk).state) != (HUMAN,):
            with django_capture_on_commit_callbacks(execute=False):
                tasks.bot_move.apply(args=(session.pk, GameSession.objects.get(pk=session.pk).seq))
        waiting.append(session.pk)
    stalled = bot_to_act(alice, django_capture_on_commit_callbacks)
    # Two games a sweep, in id order from where the last one stopped: the second sweep
    # reaches the stalled game, however many idle ones come before it.
    assert sweeps.sweep(later())["bots"] == 0
    assert sweeps.sweep(later())["bots"] == 1
    assert queued == [("play.tasks.bot_move", (stalled.pk, stalled.seq))]
    assert max(waiting) < stalled.pk


def timed_game(alice, bob, django_capture_on_commit_callbacks) -> GameSession:
    with django_capture_on_commit_callbacks(execute=False):
        session = create_friend_game(alice, "ascension", time_bank=60)
        join_game(bob, session.invite_token)
    return GameSession.objects.get(pk=session.pk)


def test_a_clock_whose_check_was_lost_is_flagged_after_a_sweep(
    alice, bob, queued, django_capture_on_commit_callbacks
):
    session = timed_game(alice, bob, django_capture_on_commit_callbacks)
    (acting,) = SYSTEM.to_act(session.state)
    seat = session.seats.get(number=acting)
    assert seat.deadline is not None and seat.clock_check_at == seat.deadline
    # The clock task queued for the deadline never ran; the sweep finds it once it is late.
    at = seat.deadline + timedelta(seconds=sweeps.stall_seconds() + 1)
    assert sweeps.sweep(seat.deadline)["clocks"] == 0
    assert sweeps.sweep(at)["clocks"] == 1
    assert sweeps.sweep(at)["clocks"] == 0
    assert queued == [("play.tasks.clock_expired", (session.pk, acting, session.seq))]
    # Run as the worker runs it once the deadline has really passed.
    SessionSeat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.clock_expired.apply(args=queued[0][1]).get() is True
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.TIME


def test_a_move_made_in_time_does_not_lose_on_time_when_the_worker_was_late(
    alice, bob, django_capture_on_commit_callbacks
):
    session = timed_game(alice, bob, django_capture_on_commit_callbacks)
    (acting,) = SYSTEM.to_act(session.state)
    now = timezone.now()
    # The move was taken 5 s ago, 2 s before the deadline; the worker only gets to it now.
    SessionSeat.objects.filter(session=session, number=acting).update(
        deadline=now - timedelta(seconds=3), time_left=40
    )
    made = (now - timedelta(seconds=5)).timestamp()
    with django_capture_on_commit_callbacks(execute=False):
        status = tasks.apply_action.apply(
            args=(session.pk, acting, session.seq, {"type": "end_turn"}, made)
        ).get()
    assert status == "applied"
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING and session.seq == 1
    mover = session.seats.get(number=acting)
    # Charged up to when the move was made: about 2 s were left then.
    assert mover.deadline is None and 1.5 <= mover.time_left <= 2.5


def test_a_move_made_after_the_deadline_still_loses_on_time(
    alice, bob, django_capture_on_commit_callbacks
):
    session = timed_game(alice, bob, django_capture_on_commit_callbacks)
    (acting,) = SYSTEM.to_act(session.state)
    now = timezone.now()
    SessionSeat.objects.filter(session=session, number=acting).update(
        deadline=now - timedelta(seconds=3)
    )
    made = (now - timedelta(seconds=1)).timestamp()
    with django_capture_on_commit_callbacks(execute=False):
        status = tasks.apply_action.apply(
            args=(session.pk, acting, session.seq, {"type": "end_turn"}, made)
        ).get()
    assert status == "over"
    assert GameSession.objects.get(pk=session.pk).end_reason == GameSession.EndReason.TIME


def test_submit_action_carries_when_the_move_was_made(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    session = timed_game(alice, bob, django_capture_on_commit_callbacks)
    (acting,) = SYSTEM.to_act(session.state)
    user = session.seats.get(number=acting).user
    sent = []
    monkeypatch.setattr(tasks.apply_action, "delay", lambda *args: sent.append(args))
    before = timezone.now().timestamp()
    with django_capture_on_commit_callbacks(execute=True):  # queued after commit
        submit_action(user, session.pk, session.seq, {"type": "end_turn"})
    (args,) = sent
    assert args[:4] == (session.pk, acting, session.seq, {"type": "end_turn"})
    assert before <= args[4] <= timezone.now().timestamp()


def test_a_round_whose_games_were_never_dealt_is_started_by_the_sweep(
    alice, queued, django_capture_on_commit_callbacks
):
    event, _regs = make_event(
        alice, players=4, game_system="ascension", swiss_rounds=2, best_of=1, play_online=True
    )
    with django_capture_on_commit_callbacks(execute=False):  # start_round_games is lost
        rnd = publish_round(alice, pair_next_round(alice, event))
    assert sweeps.sweep()["rounds"] == 0
    assert sweeps.sweep(later())["rounds"] == 1
    assert sweeps.sweep(later())["rounds"] == 0
    assert queued == [("play.tasks.start_round_games", (rnd.pk,))]
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 2
    assert GameSession.objects.filter(match__round=rnd).count() == 2


def test_decklists_whose_deadline_task_was_lost_are_locked_after_a_sweep(alice, queued):
    from tournaments import tasks as tournament_tasks
    from tournaments.models import Decklist, Event

    event, regs = make_event(alice, players=2)
    for reg in regs:
        Decklist.objects.create(registration=reg, text="3 Anything", is_legal=None)
    Decklist.objects.filter(registration=regs[1]).update(is_legal=False)  # stays open
    Event.objects.filter(pk=event.pk).update(decklist_deadline=timezone.now() + timedelta(hours=1))
    assert sweeps.sweep()["decklists"] == 0  # before the deadline: nothing to do
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - timedelta(seconds=5)
    )
    assert sweeps.sweep()["decklists"] == 0  # just past it: the task may still come
    assert sweeps.sweep(later())["decklists"] == 1
    assert sweeps.sweep(later())["decklists"] == 0  # claimed once
    assert queued == [("tournaments.tasks.lock_decklists_at_deadline", (event.pk,))]
    assert tournament_tasks.lock_decklists_at_deadline.apply(args=(event.pk,)).get() == 1
    locked = dict(Decklist.objects.values_list("registration_id", "locked"))
    assert locked == {regs[0].pk: True, regs[1].pk: False}  # the illegal list stays open
    assert sweeps.sweep(later(120))["decklists"] == 0  # nothing left to lock


def test_a_clock_beyond_the_brokers_visibility_timeout_is_checked_in_steps(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    """A Redis broker hands a task still waiting for its time to a worker again after the
    visibility timeout: no clock task is queued further ahead than ``eta_horizon``."""
    sent = []
    monkeypatch.setattr(
        tasks.clock_expired, "apply_async", lambda args, eta: sent.append((args, eta))
    )
    with django_capture_on_commit_callbacks(execute=True):
        session = create_friend_game(alice, "ascension", time_bank=3 * 3600)
        join_game(bob, session.invite_token)
    session = GameSession.objects.get(pk=session.pk)
    (acting,) = SYSTEM.to_act(session.state)
    seat = session.seats.get(number=acting)
    horizon = eta_horizon()
    assert horizon < timedelta(hours=1)
    assert seat.deadline - timezone.now() > timedelta(hours=2)
    ((args, eta),) = sent
    assert args == (session.pk, acting, 0) and eta == seat.clock_check_at
    assert eta - timezone.now() <= horizon < seat.deadline - eta
    # The check at the horizon finds the clock running and queues the next step.
    SessionSeat.objects.filter(pk=seat.pk).update(clock_check_at=timezone.now())  # its time came
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.clock_expired.apply(args=args).get() is False
    assert len(sent) == 2
    seat.refresh_from_db()
    assert sent[1][1] == seat.clock_check_at and seat.clock_check_at < seat.deadline
    assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.RUNNING
