"""Online pods: engine-judged games of 3-4 players become placements and standings.

Every move goes through the task a worker would run (``tasks.bot_move``), every game
starts through ``tasks.start_round_games``, as in ``test_online_events``. Ascension
keeps honor (A-43), so its placements follow the final honor; «Восхождение» eliminates
players (rules 1.3.7-1.3.9), so its placements follow the order of elimination.
"""

from __future__ import annotations

import itertools

import pytest

from engine.core import registry
from play import tasks
from play.models import GameSession
from play.services.acting import concede
from play.services.engines import engine_of
from play.services.errors import PlayError
from play.services.reading import replay_state
from tests.play.helpers import legal_deck_text
from tournaments.models import Match, Round, StandingsSnapshot
from tournaments.pods import PLACEMENT_POINTS
from tournaments.results import placements_from_scores
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.standings import PLACEMENT_RULESET, match_history, refresh_standings
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def pod_event(
    organiser, make_user, *, system: str, fmt: str, size: int, bots: int, humans=(), decks=None
):
    event = create_event(
        organiser,
        name=f"{system} pods",
        game_system=system,
        format=fmt,
        players_per_game=size,
        best_of=1,
        swiss_rounds=2,
        play_online=True,
    )
    regs = []
    for user in humans:
        regs.append(register(event, user=user))
    for n in range(bots):
        bot = make_user(f"{system}-bot{n}")
        regs.append(register(event, user=bot, display_name=f"Bot {n}", is_bot=True))
    if decks is not None:
        for n, reg in enumerate(regs):
            submit_decklist(reg.user, reg, decks(n))
    return start_event(organiser, event), regs


def publish_and_deal(organiser, event, capture) -> tuple[Round, list[GameSession]]:
    with capture(execute=False):
        rnd = publish_round(organiser, pair_next_round(organiser, event))
    started = tasks.start_round_games.apply(args=(rnd.pk,)).get()
    sessions = list(GameSession.objects.filter(match__round=rnd).order_by("match__table"))
    assert started == len(sessions) == rnd.matches.count()
    return rnd, sessions


def drive(rnd: Round, capture, limit: int = 20_000) -> None:
    """Every bot move of the round, through the bot task, until no game is running."""
    with capture(execute=False):
        for _ in range(limit):
            running = list(GameSession.objects.filter(match__round=rnd, status="running"))
            if not running:
                return
            for session in running:
                tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the games did not end")


def seats_in_order(match: Match):
    return list(match.seats.order_by("seat"))


def test_registry_allows_pods_for_both_games():
    for key in ("ascension", "voskhozhdenie"):
        info = registry.get(key)
        assert info.min_players <= 3 and info.max_players >= 4


def test_an_ascension_pod_event_deals_pods_and_honor_becomes_placements_and_standings(
    alice, make_user, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    event, _regs = pod_event(alice, make_user, system="ascension", fmt="standard", size=4, bots=8)
    rnd, sessions = publish_and_deal(alice, event, capture)
    assert [s.seats.count() for s in sessions] == [4, 4]  # two pods, four seats each
    assert all(s.status == GameSession.Status.RUNNING for s in sessions)
    # Idempotent: a second delivery of the task deals nothing new.
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 2
    assert GameSession.objects.filter(match__round=rnd).count() == 2

    drive(rnd, capture)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    expected_points = {}
    for session in sessions:
        session.refresh_from_db()
        match = Match.objects.get(pk=session.match_id)
        assert session.status == GameSession.Status.FINISHED
        assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
        by_match_seat = {
            s.match_seat.seat: session.result["scores"][str(s.number)]
            for s in session.seats.select_related("match_seat")
        }
        honor = [by_match_seat[n] for n in range(4)]
        seats = seats_in_order(match)
        assert [s.score for s in seats] == honor  # final honor, stored per seat
        assert [s.placement for s in seats] == list(placements_from_scores(honor))
        firsts = [s for s in seats if s.placement == 1]
        assert match.winner_id == (firsts[0].registration_id if len(firsts) == 1 else None)
        for s in seats:
            expected_points[s.registration_id] = PLACEMENT_POINTS[4][s.placement - 1]
        assert match.games.count() == 1  # a pod plays a single game
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.ruleset == PLACEMENT_RULESET
    assert {r["player"]: r["points"] for r in snapshot.rows} == expected_points
    assert snapshot.rows[0]["points"] == 4

    # Round 2: every co-player of round 1 counts as met, and the new pods start with four seats.
    history = match_history(event)
    for pod in [[s.registration_id for s in seats_in_order(m)] for m in rnd.matches.all()]:
        for a, b in itertools.permutations(pod, 2):
            assert b in history["opponents"][a]
    second, sessions2 = publish_and_deal(alice, event, capture)
    assert [s.seats.count() for s in sessions2] == [4, 4]
    # Pods of four drawn from two pods of four must repeat pairs; the pairing keeps it to
    # the least possible: two from each earlier pod, i.e. two repeated pairs per pod.
    repeats = 0
    for match in second.matches.all():
        ids = [s.registration_id for s in seats_in_order(match)]
        repeats += sum(1 for a, b in itertools.combinations(ids, 2) if b in history["opponents"][a])
    assert repeats == 4


def test_a_player_who_concedes_a_pod_game_leaves_it_and_places_last_while_the_others_play_on(
    alice, bob, make_user, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    event, regs = pod_event(
        alice, make_user, system="ascension", fmt="standard", size=3, bots=2, humans=[bob]
    )
    rnd, (session,) = publish_and_deal(alice, event, capture)
    assert session.seats.count() == 3
    with capture(execute=False):
        concede(bob, session)
    session.refresh_from_db()
    bob_seat = session.seats.get(user=bob).number
    # The game goes on for the two others: one concession does not end a game of three.
    assert session.status == GameSession.Status.RUNNING
    assert session.result is None or not session.result.get("winners")
    assert bob_seat not in engine_of("ascension").to_act(session.state)
    match = Match.objects.get(pk=session.match_id)
    assert match.status != Match.Status.FINAL
    with pytest.raises(PlayError):
        concede(bob, session)  # out already
    drive(rnd, capture)
    session.refresh_from_db()
    assert session.end_reason == GameSession.EndReason.RULES
    assert session.result["eliminated"] == [bob_seat]
    assert bob_seat not in session.result["winners"]
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
    places = {
        s.registration.user_id: s.placement for s in match.seats.select_related("registration")
    }
    assert places[bob.pk] == 3
    others = sorted(p for user, p in places.items() if user != bob.pk)
    assert others in ([1, 2], [1, 1])  # by final honor
    rows = {r["player"]: r["points"] for r in StandingsSnapshot.objects.get(event=event).rows}
    bob_reg = next(r for r in regs if r.user_id == bob.pk)
    assert rows[bob_reg.pk] == 0
    assert sorted(rows.values())[0] == 0 and sorted(rows.values())[-1] == 4


def test_a_voskhozhdenie_pod_places_players_by_the_order_they_were_eliminated(
    alice, make_user, settings, django_capture_on_commit_callbacks
):
    # Bot games on real decks can run long; most three-player games end by eliminations
    # well inside the cap, and a capped game is a drawn game (everyone shares first, 1.3.10).
    settings.PLAY_MAX_MOVES = 2500
    capture = django_capture_on_commit_callbacks
    event, _regs = pod_event(
        alice,
        make_user,
        system="voskhozhdenie",
        fmt="blitz",
        size=3,
        bots=3,
        decks=lambda n: legal_deck_text(20 + n),
    )
    rnd, (session,) = publish_and_deal(alice, event, capture)
    assert session.seats.count() == 3 and all(session.decks)
    drive(rnd, capture)
    session.refresh_from_db()
    match = Match.objects.get(pk=session.match_id)
    assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
    to_match_seat = {
        s.number: s.match_seat.seat for s in session.seats.select_related("match_seat")
    }
    placement = {s.seat: s.placement for s in match.seats.all()}
    result = session.result
    if result["draw"]:
        assert sorted(placement.values()) == [1, 1, 1]
    else:
        (winner,) = result["winners"]
        first_out, second_out = result["eliminated"]  # rule 1.3.9: the last one standing wins
        assert placement[to_match_seat[winner]] == 1
        assert placement[to_match_seat[second_out]] == 2
        assert placement[to_match_seat[first_out]] == 3
        assert match.winner.pk == match.seats.get(seat=to_match_seat[winner]).registration_id
    rows = {r["player"]: r["points"] for r in StandingsSnapshot.objects.get(event=event).rows}
    for seat in match.seats.all():
        assert rows[seat.registration_id] == PLACEMENT_POINTS[3][seat.placement - 1]


@pytest.mark.slow
def test_a_pod_events_final_pod_is_played_online_by_bots_to_the_end_of_the_event(
    alice, make_user, django_capture_on_commit_callbacks
):
    """Swiss pods, then the top cut: one final pod of the best four, dealt and played
    online like any round; its placements end the event (a self-running event)."""
    from tournaments.models import Event
    from tournaments.tasks import advance_event

    capture = django_capture_on_commit_callbacks
    event = create_event(
        alice, name="Pod final", game_system="ascension", format="standard",
        players_per_game=4, best_of=1, swiss_rounds=1, top_cut=4, play_online=True,
        auto_advance=True,
    )  # fmt: skip
    for n in range(8):
        bot = make_user(f"final-bot{n}")
        register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
    event = start_event(alice, event)
    swiss, _sessions = publish_and_deal(alice, event, capture)
    drive(swiss, capture)
    swiss.refresh_from_db()
    assert swiss.status == Round.Status.COMPLETED
    standings = [r["player"] for r in refresh_standings(event).rows]

    with capture(execute=False):
        assert advance_event.apply(args=(event.pk,)).get() == 2
    final = event.rounds.get(number=2)
    assert final.kind == Round.Kind.ELIMINATION and final.status == Round.Status.PUBLISHED
    (match,) = final.matches.all()
    seats = seats_in_order(match)
    assert {s.registration_id for s in seats} == set(standings[:4])  # the best four
    assert tasks.start_round_games.apply(args=(final.pk,)).get() == 1
    (session,) = GameSession.objects.filter(match=match)
    assert session.seats.count() == 4 and session.status == GameSession.Status.RUNNING

    drive(final, capture)
    session.refresh_from_db()
    match.refresh_from_db()
    event.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.RULES
    assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
    honor = [s.score for s in seats_in_order(match)]
    assert [s.placement for s in seats_in_order(match)] == list(placements_from_scores(honor))
    assert replay_state(session) == session.state
    assert event.status == Event.Status.FINISHED
    # Nothing is left to pair, and a second run of the task changes nothing.
    with capture(execute=False):
        assert advance_event.apply(args=(event.pk,)).get() is None
    assert event.rounds.count() == 2
