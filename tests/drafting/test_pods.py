"""Pods through the services the site uses: start, picks, timers, bots, decks, events."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.utils import timezone

from drafting import draft as draft_core
from drafting import tasks
from drafting.models import Pick, Pod, Seat
from drafting.services.changes import bot_choice
from drafting.services.creating import create_event_pods, create_pod, quick_pod
from drafting.services.decks import check_deck, finish_building, submit_deck
from drafting.services.errors import NotAllowed, PodError
from drafting.services.picks import auto_pick, highlight, make_pick, run_timers
from drafting.services.pools import pool_of
from drafting.services.reading import pick_log
from drafting.services.seats import join_pod, leave_pod
from drafting.services.starting import start_event_pods, start_pod
from engine.voskhozhdenie.loader import load_system
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round
from tournaments.services.players import drop, register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def fresh(pod: Pod) -> Pod:
    return Pod.objects.get(pk=pod.pk)


def my_seat(pod: Pod, user) -> Seat:
    return Seat.objects.get(pod=pod, user=user)


def run_bots_as_tasks(pod: Pod) -> int:
    """What the workers would do: every bot seat holding a pack picks (its task fires)."""
    made = 0
    while True:
        pod = fresh(pod)
        if pod.status != Pod.Status.DRAFTING:
            return made
        progress = False
        for seat in pod.seats.all():
            if not seat.picked_by_bot:
                continue
            if draft_core.current_pack(pod.state, seat.number) is None:
                continue
            number = draft_core.pick_number(pod.state, seat.number)
            if auto_pick(pod.pk, seat.number, number) is not None:
                made += 1
                progress = True
                pod = fresh(pod)
        if not progress:
            return made


def bot_like(pod: Pod, seat: Seat, cards: list[str]) -> str:
    return bot_choice(pod, seat.number, cards)


def draft_all(pod: Pod, user, choose=bot_like) -> Pod:
    """The user picks whenever they hold a pack (as a bot would choose, so that the pool
    holds Cities); bots answer like their tasks would."""
    for _ in range(500):
        pod = fresh(pod)
        if pod.status != Pod.Status.DRAFTING:
            return pod
        seat = my_seat(pod, user)
        pack = draft_core.current_pack(pod.state, seat.number)
        if pack is None:
            if not pod.bots_inline:
                run_bots_as_tasks(pod)
            continue
        number = draft_core.pick_number(pod.state, seat.number)
        make_pick(user, pod, number, choose(pod, seat, pack["cards"]))
    raise AssertionError("the draft did not end")


def snapshot(pod: Pod):
    pod = fresh(pod)
    return (
        pod.status,
        pod.state,
        list(Pick.objects.filter(pod=pod).values_list("pk", flat=True)),
        list(pod.seats.values_list("number", "highlighted", "deck", "timer_key")),
    )


# ---------------------------------------------------------------- starting


def test_a_quick_pod_seats_the_player_among_seven_bots(alice):
    pod = quick_pod(alice)
    assert pod.status == Pod.Status.DRAFTING
    seats = list(pod.seats.order_by("number"))
    assert len(seats) == 8
    assert [s.user for s in seats if not s.is_bot] == [alice]
    assert sum(s.is_bot for s in seats) == 7
    me = my_seat(pod, alice)
    pack = draft_core.current_pack(pod.state, me.number)
    assert len(pack["cards"]) == 15 and pack["round"] == 0
    # The pick timer runs for the player: 5 s + 5 s x 15 cards, capped at 75 s.
    assert me.timer_key == "1"
    assert 70 <= (me.pick_deadline - timezone.now()).total_seconds() <= 75


def test_seats_are_drawn_from_the_seed(alice, bob, charlie):
    pod = create_pod(alice, seats_count=4)
    join_pod(bob, pod)
    join_pod(charlie, pod)
    with pytest.raises(PodError, match="already have a seat"):
        join_pod(bob, pod)
    pod = start_pod(alice, pod)
    numbers = dict(pod.seats.exclude(user=None).values_list("user__username", "number"))
    import random

    order = list(range(4))
    random.Random(pod.seed).shuffle(order)
    assert numbers == {"alice": order[0], "bob": order[1], "charlie": order[2]}
    assert pod.seats.filter(is_bot=True).count() == 1


def test_only_the_creator_starts_and_only_once(alice, bob):
    pod = create_pod(alice)
    join_pod(bob, pod)
    with pytest.raises(NotAllowed):
        start_pod(bob, pod)
    start_pod(alice, pod)
    with pytest.raises(PodError, match="already started"):
        start_pod(alice, pod)
    with pytest.raises(PodError, match="already started"):
        join_pod(bob, pod)


def test_leaving_before_the_start_frees_the_seat(alice, bob):
    pod = create_pod(alice)
    join_pod(bob, pod)
    leave_pod(bob, pod)
    assert not pod.seats.filter(user=bob).exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats_count": 1}, "2 to 12 seats"),
        ({"seats_count": 13}, "2 to 12 seats"),
        ({"set_codes": ["VS9"] * 4}, "cannot be opened"),
        ({"set_codes": ["VS0"] * 4}, "cannot be opened"),
        ({"set_codes": ["VS2"] * 2}, "a deck needs at least 22"),
        ({"kind": "cube"}, "booster draft or sealed"),
        ({"pick_base_seconds": -1}, "whole seconds"),
        ({"colour": "red"}, "Unknown pod settings"),
    ],
)
def test_bad_pod_settings_are_refused(alice, fields, message):
    with pytest.raises(PodError, match=message):
        create_pod(alice, **fields)
    assert not Pod.objects.exists()


def test_pod_status_moves_only_along_the_pipeline():
    pod = Pod(status=Pod.Status.WAITING)
    with pytest.raises(ValueError):
        pod.set_status(Pod.Status.FINISHED)
    pod.set_status(Pod.Status.DRAFTING)
    with pytest.raises(ValueError):
        pod.set_status(Pod.Status.WAITING)
    pod.set_status(Pod.Status.BUILDING)
    pod.set_status(Pod.Status.FINISHED)
    with pytest.raises(ValueError):
        pod.set_status(Pod.Status.BUILDING)


def test_the_pick_timer_shrinks_with_the_pack_and_is_capped():
    pod = Pod(pick_base_seconds=5, pick_seconds_per_card=5, pick_max_seconds=60)
    assert [pod.pick_seconds(n) for n in (15, 10, 2, 1)] == [60, 55, 15, 10]
    assert Pod(pick_max_seconds=0).pick_seconds(15) is None


# ---------------------------------------------------------------- picks


def started_pod(user, **fields) -> tuple[Pod, Seat, dict]:
    pod = quick_pod(user, **fields)
    seat = my_seat(pod, user)
    return pod, seat, draft_core.current_pack(pod.state, seat.number)


def test_a_pick_takes_the_card_and_passes_the_pack(alice):
    pod, seat, pack = started_pod(alice)
    card = pack["cards"][3]
    pick = make_pick(alice, pod, 1, card)
    assert (pick.booster_round, pick.pick_number, pick.card_id, pick.auto) == (0, 1, card, "player")
    assert pick.pack_cards == pack["cards"]
    pod = fresh(pod)
    assert draft_core.pools(pod.state)[seat.number] == [card]
    left = (seat.number + 1) % 8  # booster 1 passes left (AMB-06)
    assert pod.state["queues"][left][-1] == pack["id"]


def test_bad_picks_are_refused_and_change_nothing(alice, bob):
    pod, seat, pack = started_pod(alice)
    other_pod, _seat, _pack = started_pod(bob)
    before = snapshot(pod)
    not_in_pack = next(
        c for c in other_pod.state["packs"]["r0s0"]["cards"] if c not in pack["cards"]
    )
    cases = [
        (
            lambda: make_pick(alice, pod, 1, not_in_pack),
            PodError,
            "not in your current pack",
        ),
        (
            lambda: make_pick(alice, pod, 2, pack["cards"][0]),
            PodError,
            "not yours yet",
        ),
        (
            lambda: make_pick(alice, pod, 0, pack["cards"][0]),
            PodError,
            "malformed",
        ),
        (
            lambda: make_pick(alice, pod, "x", pack["cards"][0]),
            PodError,
            "malformed",
        ),
        (
            lambda: make_pick(alice, pod, None, pack["cards"][0]),
            PodError,
            "malformed",
        ),
        (lambda: make_pick(alice, pod, 1, ""), PodError, "Choose a card"),
        (
            lambda: make_pick(alice, pod, 1, ["VS1-001"]),
            PodError,
            "Choose a card",
        ),
        (lambda: make_pick(alice, pod, 1, "x" * 200), PodError, "Choose a card"),
        (lambda: make_pick(bob, pod, 1, pack["cards"][0]), NotAllowed, "no seat"),
        (
            lambda: make_pick(alice, pod, 1, pack["cards"][0], seat_number=(seat.number + 1) % 8),
            NotAllowed,
            "own seat",
        ),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()
        assert snapshot(pod) == before


def test_a_repeated_pick_is_stale_and_changes_nothing(alice):
    pod, _seat, pack = started_pod(alice)
    make_pick(alice, pod, 1, pack["cards"][0])
    before = snapshot(pod)
    with pytest.raises(PodError, match="already made"):
        make_pick(alice, pod, 1, pack["cards"][1])
    assert snapshot(pod) == before


def test_no_pick_while_waiting_or_after_the_draft(alice, bob):
    pod = create_pod(alice)
    with pytest.raises(PodError, match="not started"):
        make_pick(alice, pod, 1, "VS1-001")
    pod, _seat, pack = started_pod(bob, bots_inline=True)
    pod = draft_all(pod, bob)
    assert pod.status == Pod.Status.BUILDING
    before = snapshot(pod)
    with pytest.raises(PodError, match="draft is over"):
        make_pick(bob, pod, 61, pack["cards"][0])
    assert snapshot(pod) == before


def test_a_highlighted_card_must_be_in_the_pack(alice):
    pod, _seat, pack = started_pod(alice)
    highlight(alice, pod, pack["cards"][2])
    assert my_seat(pod, alice).highlighted == pack["cards"][2]
    with pytest.raises(PodError, match="not in your current pack"):
        highlight(alice, pod, "VS1-999")
    assert my_seat(pod, alice).highlighted == pack["cards"][2]


# ---------------------------------------------------------------- timers and bots


def test_one_timer_task_per_pod_is_queued_after_commit_for_the_earliest_deadline(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(
        tasks.run_timers, "apply_async", lambda args, eta: queued.append((args, eta))
    )
    with django_capture_on_commit_callbacks(execute=True):
        pod = quick_pod(alice)
    pod = fresh(pod)
    me = my_seat(pod, alice)
    deadlines = [s.pick_deadline for s in pod.seats.all()]
    assert queued == [((pod.pk,), min(deadlines))] and pod.timers_due == min(deadlines)
    assert (min(deadlines) - timezone.now()).total_seconds() <= pod.bot_seconds  # a bot's
    assert 70 <= (me.pick_deadline - timezone.now()).total_seconds() <= 75  # the player's
    # A pick while a check is already due in time queues nothing more.
    pack = draft_core.current_pack(pod.state, me.number)
    with django_capture_on_commit_callbacks(execute=True):
        make_pick(alice, pod, 1, pack["cards"][0])
    assert len(queued) == 1


def test_the_pod_timer_makes_only_the_picks_that_are_due_however_often_it_runs(alice):
    pod, seat, pack = started_pod(alice)
    highlight(alice, pod, pack["cards"][3])
    before = snapshot(pod)
    assert run_timers(pod.pk) == 0  # early: the bots think for a second first
    assert snapshot(pod) == before
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(pod=pod, is_bot=True).update(pick_deadline=past)
    assert run_timers(pod.pk) == 7  # every bot, once
    assert run_timers(pod.pk) == 0  # delivered twice: nothing more
    assert set(Pick.objects.filter(pod=pod).values_list("auto", flat=True)) == {"bot"}
    assert not Pick.objects.filter(seat=seat).exists()  # the player still has time
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=past)
    assert run_timers(pod.pk) == 1
    mine = Pick.objects.get(seat=seat)
    assert (mine.card_id, mine.auto, mine.pick_number) == (pack["cards"][3], "timer", 1)
    assert Pick.objects.filter(pod=pod).count() == 8
    assert fresh(pod).timers_due is not None  # armed again for the next deadlines


def test_a_lost_timer_task_is_queued_again(alice, monkeypatch, django_capture_on_commit_callbacks):
    pod, _seat, pack = started_pod(alice)
    Pod.objects.filter(pk=pod.pk).update(timers_due=timezone.now() - timedelta(minutes=5))
    queued = []
    monkeypatch.setattr(
        tasks.run_timers, "apply_async", lambda args, eta: queued.append((args, eta))
    )
    with django_capture_on_commit_callbacks(execute=True):
        make_pick(alice, pod, 1, pack["cards"][0])
    assert [args for args, _eta in queued] == [(pod.pk,)]


def test_a_bot_task_picks_once_however_often_it_runs(alice):
    pod, seat, _pack = started_pod(alice)
    bot = (seat.number + 1) % 8
    first = auto_pick(pod.pk, bot, 1)
    assert first is not None and first.auto == "bot"
    assert auto_pick(pod.pk, bot, 1) is None  # delivered twice
    assert Pick.objects.filter(pod=pod, seat__number=bot).count() == 1


def test_the_timer_picks_the_highlighted_card_only_when_time_is_up(alice):
    pod, seat, pack = started_pod(alice)
    highlight(alice, pod, pack["cards"][5])
    before = snapshot(pod)
    assert auto_pick(pod.pk, seat.number, 1) is None  # early: nothing
    assert snapshot(pod) == before
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    pick = auto_pick(pod.pk, seat.number, 1)
    assert (pick.card_id, pick.auto) == (pack["cards"][5], "timer")
    assert auto_pick(pod.pk, seat.number, 1) is None  # late repeat: nothing


def test_the_timer_without_a_highlight_takes_the_bots_choice(alice):
    pod, seat, pack = started_pod(alice)
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    pick = auto_pick(pod.pk, seat.number, 1)
    assert pick.auto == "timer" and pick.card_id in pack["cards"]


def test_a_timer_for_a_pick_already_made_changes_nothing(alice):
    pod, seat, pack = started_pod(alice)
    make_pick(alice, pod, 1, pack["cards"][0])
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    before = snapshot(pod)
    assert auto_pick(pod.pk, seat.number, 1) is None
    assert snapshot(pod) == before


def test_the_next_booster_adds_review_time(alice):
    pod, seat, _pack = started_pod(alice, pick_max_seconds=600, review_seconds=30)
    for _ in range(15):  # the whole first booster round
        pod = fresh(pod)
        pack = draft_core.current_pack(pod.state, my_seat(pod, alice).number)
        if pack is None:
            run_bots_as_tasks(pod)
            pod = fresh(pod)
            pack = draft_core.current_pack(pod.state, my_seat(pod, alice).number)
        make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    run_bots_as_tasks(pod)
    pod = fresh(pod)
    me = my_seat(pod, alice)
    pack = draft_core.current_pack(pod.state, me.number)
    assert pack["round"] == 1 and len(pack["cards"]) == 15
    left = (me.pick_deadline - timezone.now()).total_seconds()
    assert 5 + 5 * 15 + 30 - 3 <= left <= 5 + 5 * 15 + 30


def test_a_player_who_leaves_mid_draft_is_replaced_by_a_bot(alice):
    pod, seat, _pack = started_pod(alice)
    leave_pod(alice, pod)
    seat = my_seat(pod, alice)
    assert seat.abandoned and seat.picked_by_bot
    assert auto_pick(pod.pk, seat.number, 1).auto == "bot"


def test_a_whole_draft_with_bot_tasks_ends_in_deck_building(alice):
    pod, _seat, _pack = started_pod(alice)
    pod = draft_all(pod, alice)
    assert pod.status == Pod.Status.BUILDING
    assert Pick.objects.filter(pod=pod).count() == 8 * 60
    assert all(len(p) == 60 for p in draft_core.pools(pod.state))
    assert Pick.objects.filter(pod=pod, seat__user=alice, auto="player").count() == 60
    bots = pod.seats.filter(is_bot=True)
    assert all(s.deck is not None and s.deck_by_bot for s in bots)
    assert my_seat(pod, alice).deck is None
    assert pod.build_deadline is not None


# ---------------------------------------------------------------- deck building


@pytest.fixture
def built_pod(alice):
    """A finished draft (inline bots) waiting for alice's deck."""
    pod, _seat, _pack = started_pod(alice, bots_inline=True)
    pod = draft_all(pod, alice)
    assert pod.status == Pod.Status.BUILDING
    return pod


def suggestion(pod: Pod, user) -> dict:
    from engine.voskhozhdenie import draftbots as bots

    db = load_system(pod.game_system)
    return bots.bot_build_deck([db.card(c) for c in pool_of(pod, my_seat(pod, user))])


def test_a_legal_deck_from_the_pool_finishes_the_pod(alice, built_pod):
    deck = suggestion(built_pod, alice)
    assert check_deck(built_pod, my_seat(built_pod, alice), deck) == []
    seat = submit_deck(alice, built_pod, deck)
    assert seat.deck == deck and not seat.deck_by_bot and seat.deck_submitted_at
    assert fresh(built_pod).status == Pod.Status.FINISHED


def test_an_illegal_deck_is_refused_with_rule_numbers(alice, built_pod):
    deck = suggestion(built_pod, alice)
    pool = pool_of(built_pod, my_seat(built_pod, alice))
    outsider = next(
        c.id
        for c in load_system(built_pod.game_system).all_cards()
        if c.id not in pool and c.type == "squad" and not c.minor and not c.colours
    )
    bad = {
        "cities": deck["cities"][:1],  # 4.5.5.1: two Cities
        "main": [*deck["main"][:10], outsider],  # 4.5.5.3: 20 cards; and not from the pool
        "reinforcement": deck["reinforcement"],
    }
    before = snapshot(built_pod)
    with pytest.raises(PodError) as caught:
        submit_deck(alice, built_pod, bad)
    rules = {p["rule"] for p in caught.value.problems}
    assert {"4.5.5.1", "4.5.5.3"} <= rules
    assert any(outsider in p["cards"] for p in caught.value.problems)  # the pool rule
    assert snapshot(built_pod) == before


def test_malformed_decks_are_refused(alice, built_pod):
    with pytest.raises(PodError, match="Unknown card"):
        submit_deck(alice, built_pod, {"cities": ["nope"]})
    with pytest.raises(PodError, match="malformed"):
        submit_deck(alice, built_pod, {"cities": "VS1-001"})


def test_no_deck_before_the_draft_ends_or_from_a_stranger(alice, bob):
    pod, _seat, _pack = started_pod(alice)
    with pytest.raises(PodError, match="starts when the draft is over"):
        submit_deck(alice, pod, {})
    with pytest.raises(NotAllowed):
        submit_deck(bob, pod, {})


def test_at_the_deadline_a_bot_builds_the_missing_decks(alice, built_pod):
    assert finish_building(built_pod.pk) is False  # too early: nothing
    assert my_seat(built_pod, alice).deck is None
    Pod.objects.filter(pk=built_pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    assert finish_building(built_pod.pk) is True
    seat = my_seat(built_pod, alice)
    assert seat.deck is not None and seat.deck_by_bot
    assert fresh(built_pod).status == Pod.Status.FINISHED
    assert finish_building(built_pod.pk) is False  # repeated: nothing
    with pytest.raises(PodError, match="over"):
        submit_deck(alice, built_pod, {})


def test_a_deck_building_deadline_beyond_the_brokers_horizon_is_reached_in_steps(
    alice, built_pod, monkeypatch, django_capture_on_commit_callbacks
):
    from config.celery import eta_horizon
    from drafting import tasks

    sent = []
    monkeypatch.setattr(tasks.finish_building, "apply_async", lambda args, eta: sent.append(eta))
    deadline = timezone.now() + timedelta(hours=4)
    Pod.objects.filter(pk=built_pod.pk).update(build_deadline=deadline)
    with django_capture_on_commit_callbacks(execute=True):
        assert finish_building(built_pod.pk) is False  # early: queued on, no deck
    assert my_seat(built_pod, alice).deck is None
    (eta,) = sent
    assert eta <= timezone.now() + eta_horizon() < deadline


def test_the_pick_log_has_every_pick_with_its_pack(alice, built_pod):
    log = pick_log(built_pod, my_seat(built_pod, alice))
    assert len(log) == 60
    assert [entry["number"] for entry in log] == list(range(1, 61))
    assert all(entry["card"] in entry["pack_cards"] for entry in log)
    assert [entry["round"] for entry in log[::15]] == [1, 2, 3, 4]


# ---------------------------------------------------------------- sealed


def test_sealed_opens_six_boosters_and_goes_straight_to_building(alice):
    pod = quick_pod(alice, kind="sealed")
    assert pod.status == Pod.Status.BUILDING
    seat = my_seat(pod, alice)
    pool = pool_of(pod, seat)
    assert len(pool) == 6 * 15
    assert pool_of(pod, pod.seats.exclude(pk=seat.pk).first()) != pool
    deck = suggestion(pod, alice)
    submit_deck(alice, pod, deck)
    assert fresh(pod).status == Pod.Status.FINISHED


# ---------------------------------------------------------------- a Draft event


def draft_event(organiser, humans, bots: int = 0, **fields):
    event = create_event(organiser, name="Draft Night", format="draft", swiss_rounds=3, **fields)
    regs = [register(event, user=user) for user in humans]
    regs += [
        register(event, display_name=f"Bot {n}", actor=organiser, is_bot=True)
        for n in range(1, bots + 1)
    ]
    return event, regs


def draft_humans(pod: Pod) -> Pod:
    """Every human seat picks as a bot would whenever it holds a pack."""
    for _ in range(2000):
        pod = fresh(pod)
        if pod.status != Pod.Status.DRAFTING:
            return pod
        moved = False
        for seat in pod.seats.select_related("user"):
            if seat.picked_by_bot:
                continue
            pack = draft_core.current_pack(pod.state, seat.number)
            if pack is not None:
                number = draft_core.pick_number(pod.state, seat.number)
                make_pick(seat.user, pod, number, bot_like(pod, seat, pack["cards"]))
                pod = fresh(pod)
                moved = True
        if not moved and not pod.bots_inline:
            run_bots_as_tasks(pod)
    raise AssertionError("the draft did not end")


def test_a_draft_event_drafts_builds_and_pairs_round_one(alice, bob, charlie, dave):
    from tournaments.models import Decklist, Event, Registration

    event, regs = draft_event(alice, [bob, charlie, dave], bots=5)
    with pytest.raises(NotAllowed):
        create_event_pods(bob, event)
    (pod,) = create_event_pods(alice, event, bots_inline=True)
    seats = list(pod.seats.all())
    assert pod.seats_count == 8 and len(seats) == 8
    assert {s.registration_id for s in seats} == {r.pk for r in regs}
    assert sum(s.is_bot for s in seats) == 5
    with pytest.raises(PodError, match="already made"):
        create_event_pods(alice, event)
    with pytest.raises(PodError, match="registrations"):
        join_pod(alice, pod)

    start_event_pods(alice, event)
    with pytest.raises(TournamentError, match="draft is not over"):
        start_event(alice, event)
    pod = draft_humans(pod)
    assert pod.status == Pod.Status.BUILDING
    # The bots' decks are already the Decklists of their registrations.
    assert Decklist.objects.filter(registration__event=event, is_legal=True).count() == 5
    for user in (bob, charlie):
        deck = suggestion(pod, user)
        submit_deck(user, pod, deck)
    with pytest.raises(TournamentError, match="draft is not over"):
        start_event(alice, event)
    # dave never submits: at the deadline a bot builds his deck.
    Pod.objects.filter(pk=pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    assert finish_building(pod.pk)

    lists = Decklist.objects.filter(registration__event=event)
    assert lists.count() == 8 and all(d.is_legal for d in lists)
    bob_list = lists.get(registration__user=bob)
    assert bob_list.text.startswith("Cities\n")
    # The text reads back as the same deck, legal with bob's pool.
    from engine.voskhozhdenie.decks import CHECKER

    db = load_system(pod.game_system)
    pool = pool_of(pod, my_seat(pod, bob))
    from collections import Counter

    report = CHECKER.validate(bob_list.text, "draft", db, pool=Counter(pool))
    assert report.is_legal, report.problems

    event = start_event(alice, event)
    assert event.status == Event.Status.RUNNING
    assert Decklist.objects.filter(registration__event=event, locked=False).count() == 0
    rnd = pair_next_round(alice, event)
    assert rnd.number == 1 and rnd.matches.count() == 4
    assert Registration.objects.filter(event=event, seats__round=rnd).count() == 8


def test_ten_players_make_two_pods_of_five(alice, make_user):
    users = [make_user(f"player{n}") for n in range(10)]
    event, _regs = draft_event(alice, users)
    pods = create_event_pods(alice, event)
    assert [p.seats_count for p in pods] == [5, 5]
    assert sorted(s.user.username for p in pods for s in p.seats.all()) == sorted(
        u.username for u in users
    )


def test_only_draft_events_in_registration_get_pods(alice, bob, charlie):
    event = create_event(alice, name="Standard Night")
    register(event, user=bob)
    register(event, user=charlie)
    with pytest.raises(PodError, match="Only a Draft event"):
        create_event_pods(alice, event)


# ---------------------------------------------------------------- pages


def card_names(pod: Pod, ids) -> list[str]:
    db = load_system(pod.game_system)
    return [db.card(c).name_en for c in ids]


def test_the_one_click_pod_opens_the_room_with_the_players_pack(client, alice):
    client.force_login(alice)
    response = client.post("/draft/quick/", {"kind": "draft"})
    pod = Pod.objects.get()
    assert response.status_code == 302 and response.url == f"/draft/{pod.pk}/"
    page = client.get(response.url).content.decode()
    pack = draft_core.current_pack(pod.state, my_seat(pod, alice).number)
    for name in card_names(pod, pack["cards"]):
        assert html.escape(name) in page
    assert 'name="pick" value="1"' in page and "Booster 1 of 4" in page


def test_spectators_and_other_fragments_never_see_a_pack(client, alice, bob):
    pod, seat, pack = started_pod(alice)
    names = card_names(pod, pack["cards"])
    client.force_login(bob)
    for url in (f"/draft/{pod.pk}/", f"/draft/{pod.pk}/overview/"):
        page = html.unescape(client.get(url).content.decode())
        assert not any(name in page for name in names), url
    assert client.get(f"/draft/{pod.pk}/panel/").status_code == 403
    assert client.get(f"/draft/{pod.pk}/log/{seat.number}.json").status_code == 403
    client.force_login(alice)  # the creator, while drafting: counts only, and own picks
    page = html.unescape(client.get(f"/draft/{pod.pk}/manage/").content.decode())
    # The console lists every City of the pod's sets to supply (AMB-05): the same list
    # whatever the packs hold, so it is left out of the check.
    head, _, rest = page.partition('id="supplied-cards"')
    page = head + rest.partition("</section>")[2]
    assert not any(name in page for name in names)
    assert client.get(f"/draft/{pod.pk}/log/{(seat.number + 1) % 8}.json").status_code == 403


def test_a_pick_through_htmx_answers_with_the_next_pack_and_only_the_new_card(client, alice):
    pod, seat, pack = started_pod(alice)
    client.force_login(alice)
    first = card_names(pod, pack["cards"][:1])
    response = client.post(
        f"/draft/{pod.pk}/pick/", {"pick": 1, "card": pack["cards"][0]}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert 'id="seat-panel"' not in page  # not the whole panel again
    assert 'hx-swap-oob="beforeend:#pool-list"' in page and first[0] in page
    assert 'data-pick="2"' in page  # the pack area now answers pick 2 (or waits for it)
    assert Pick.objects.filter(seat=seat).count() == 1
    again = client.post(
        f"/draft/{pod.pk}/pick/", {"pick": 1, "card": pack["cards"][1]}, HTTP_HX_REQUEST="true"
    )
    assert "already made" in again.content.decode()
    assert "hx-swap-oob" not in again.content.decode()  # nothing was added to the pool
    assert Pick.objects.filter(seat=seat).count() == 1
    # Give the seat its next pack (the bots' tasks are not run here) and pick again: the
    # answer appends the second card only, the first is already on the page.
    assert auto_pick(pod.pk, draft_core.upstream(seat.number, 8, 0), 1) is not None
    pod.refresh_from_db()
    nxt = draft_core.current_pack(pod.state, seat.number)
    second = card_names(pod, nxt["cards"][:1])[0]
    response = client.post(
        f"/draft/{pod.pk}/pick/", {"pick": 2, "card": nxt["cards"][0]}, HTTP_HX_REQUEST="true"
    )
    page = html.unescape(response.content.decode())
    oob = page.split('hx-swap-oob="beforeend:#pool-list"', 1)[1].split("</ol>", 1)[0]
    assert second in oob and first[0] not in oob
    assert "Your picks (2)" in page  # the pool's heading is replaced out of band


def test_highlight_page_call(client, alice):
    pod, _seat, pack = started_pod(alice)
    client.force_login(alice)
    assert client.post(f"/draft/{pod.pk}/highlight/", {"card": pack["cards"][2]}).status_code == 204
    assert client.post(f"/draft/{pod.pk}/highlight/", {"card": "VS1-999"}).status_code == 409


def test_the_deck_page_checks_live_and_saves(client, alice, built_pod):
    client.force_login(alice)
    page = client.get(f"/draft/{built_pod.pk}/deck/?suggest=1").content.decode()
    assert "This deck is legal." in page
    pool = pool_of(built_pod, my_seat(built_pod, alice))
    check = client.post(f"/draft/{built_pod.pk}/deck/check/", {"slot-0": "main"}).content.decode()
    assert "rule 4.5.5.1" in check and "rule 4.5.5.3" in check
    deck = suggestion(built_pod, alice)
    from drafting.views import _slots

    post = {f"slot-{i}": slot for i, slot in enumerate(_slots(built_pod, pool, deck))}
    response = client.post(f"/draft/{built_pod.pk}/deck/", post)
    assert response.status_code == 302
    assert my_seat(built_pod, alice).deck is not None
    page = client.get(f"/draft/{built_pod.pk}/deck/").content.decode()
    assert "Your deck is saved." in page


def test_logs_and_replay_after_the_pod(client, alice, bob, built_pod):
    seat = my_seat(built_pod, alice)
    client.force_login(alice)
    data = client.get(f"/draft/{built_pod.pk}/log/{seat.number}.json").json()
    assert len(data["picks"]) == 60
    text = client.get(f"/draft/{built_pod.pk}/log/{seat.number}.txt").content.decode()
    assert text.count("--> ") == 60
    page = client.get(f"/draft/{built_pod.pk}/replay/{seat.number}/?pick=16").content.decode()
    assert "Booster 2 · pick 16 of 60" in page
    client.force_login(bob)  # not finished yet: not for strangers
    assert client.get(f"/draft/{built_pod.pk}/log/{seat.number}.json").status_code == 403
    finish_building(built_pod.pk)
    Pod.objects.filter(pk=built_pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    finish_building(built_pod.pk)
    assert client.get(f"/draft/{built_pod.pk}/log/{seat.number}.json").status_code == 200


def test_the_pod_list_and_form(client, alice):
    assert client.get("/draft/").status_code == 200
    client.force_login(alice)
    response = client.post(
        "/draft/new/",
        {
            "name": "Friday",
            "kind": "draft",
            "seats_count": 6,
            "set_codes": "vs1, VS1 VS1 VS1",
            "pick_base_seconds": 5,
            "pick_seconds_per_card": 5,
            "pick_max_seconds": 75,
            "review_seconds": 20,
            "build_minutes": 30,
        },
    )
    pod = Pod.objects.get()
    assert response.status_code == 302 and pod.seats_count == 6 and pod.set_codes == ["VS1"] * 4
    assert "Friday" in client.get("/draft/").content.decode()


def test_the_event_console_makes_and_starts_the_pods(client, alice, bob, charlie):
    event, _regs = draft_event(alice, [bob, charlie], bots=2)
    client.force_login(alice)
    page = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Seat the players in pods" in page
    client.post(f"/events/{event.slug}/manage/make-pods/")
    pod = Pod.objects.get(event=event)
    assert pod.seats_count == 4
    assert "Start the draft" in client.get(f"/events/{event.slug}/manage/").content.decode()
    client.post(f"/events/{event.slug}/manage/start-pods/")
    assert fresh(pod).status == Pod.Status.DRAFTING
    response = client.post(f"/events/{event.slug}/manage/start-pods/", follow=True)
    assert "no pod waiting" in response.content.decode()
    client.force_login(bob)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert f"/draft/{pod.pk}/" in page and "Your draft pod" in page
    response = client.post(f"/events/{event.slug}/manage/make-pods/")
    assert response.status_code == 403


# ---------------------------------------------------------------- embedded mode

EMBEDDED_SCRIPT = r"""
import time, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0, skip_checks=True)
from django.contrib.auth import get_user_model
from config.embedded import start_embedded_worker
from drafting.models import Pick, Seat
from drafting.services.creating import create_pod
from drafting.services.starting import start_pod
assert start_embedded_worker()
user = get_user_model().objects.create_user("zed", password="x")
pod = start_pod(user, create_pod(user, bot_seconds=0.3))
seat = Seat.objects.get(pod=pod, user=user)
deadline = time.time() + 30
while time.time() < deadline:
    pod.refresh_from_db()
    bots = Pick.objects.filter(pod=pod, auto="bot").count()
    queue = len(pod.state["queues"][seat.number])
    if bots >= 7 and queue >= 2:
        break
    time.sleep(0.05)
print("ok", bots, queue)
"""


def test_in_embedded_mode_the_bots_pick_in_worker_threads(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'e.sqlite3'}",
        PYTHONPATH=str(root),
    )
    done = subprocess.run(
        [sys.executable, "-c", EMBEDDED_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ok, bots, queue = done.stdout.split()
    # The bots picked through Celery tasks run by the worker threads, and passed their
    # packs on: the player, who has not picked yet, holds more than one pack.
    assert ok == "ok" and int(bots) >= 7 and int(queue) >= 2, done.stdout


def test_a_player_who_dropped_before_the_start_is_drafted_for_by_a_bot(alice, bob, charlie):
    event, regs = draft_event(alice, [bob, charlie])
    (pod,) = create_event_pods(alice, event)
    drop(bob, regs[0])  # before the start: the registration goes
    drop(alice, regs[1])  # by the organiser: the registration stays, dropped
    start_event_pods(alice, event)
    assert my_seat(pod, bob).abandoned and my_seat(pod, bob).picked_by_bot
    assert my_seat(pod, charlie).abandoned
    assert auto_pick(pod.pk, my_seat(pod, bob).number, 1).auto == "bot"
