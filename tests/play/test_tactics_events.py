"""Ascension Tactics events played online to the final standings: a Swiss of duels
(T-75), a single-elimination bracket of duels, a Swiss of free-for-all pods of 3-4
ranked by placement points (T-80) and a Swiss of teams of two, 2 vs 2 (T-78/T-79).

The formats come from the registry (``duel``, ``ffa``, ``2v2``); every game opens with
the champion draft (T-76..T-78), played like any move. People's moves are chosen like a
bot's and sent as a person's (``tasks.apply_action``), bots move through their task;
every task a worker would run is run here in-process (``task.apply``), and the events
run themselves (``auto_advance``) through ``advance_event``.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.core import registry
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.reading import replay_state
from tournaments.models import Event, Match, Round, StandingsSnapshot
from tournaments.pods import PLACEMENT_POINTS
from tournaments.results import placements_from_scores
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.standings import PLACEMENT_RULESET, refresh_standings
from tournaments.services.starting import start_event
from tournaments.services.teams import register_team
from tournaments.tasks import advance_event

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 17)


def step(session: GameSession) -> None:
    """One move: a bot's through its task (a bot to act moves first, as its task is
    queued at once), else a person's through the task of a sent move."""
    to_act = SYSTEM.to_act(session.state)
    if session.seats.filter(is_bot=True, number__in=to_act).exists():
        assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        return
    seat = min(to_act)
    action = BRAIN.choose(session.state, seat)
    assert tasks.apply_action.apply(args=(session.pk, seat, session.seq, action)).get() == (
        "applied"
    )


def drive(rnd: Round, capture, limit: int = 20_000) -> None:
    """Every game of the round (and each next game of a match) until none is running."""
    with capture(execute=False):
        for _ in range(limit):
            running = list(GameSession.objects.filter(match__round=rnd, status="running"))
            if not running:
                return
            for session in running:
                step(session)
    raise AssertionError("the games did not end")


def run_to_the_end(organiser, event: Event, capture, rounds: int) -> list[Round]:
    """Start the event, publish round 1, then play every round; the event pairs and
    publishes the next one itself. Returns the rounds played."""
    event = start_event(organiser, event)
    with capture(execute=False):
        rnd = publish_round(organiser, pair_next_round(organiser, event))
    played = []
    for _ in range(rounds + 1):
        assert rnd.status == Round.Status.PUBLISHED
        expected = rnd.matches.filter(is_bye=False).count()
        assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == expected
        drive(rnd, capture)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETED
        played.append(rnd)
        for match in rnd.matches.filter(is_bye=False):
            assert match.status == Match.Status.FINAL
            assert match.result_source == Match.Source.ENGINE
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return played
        with capture(execute=False):
            number = advance_event.apply(args=(event.pk,)).get()
        rnd = event.rounds.get(number=number)
    raise AssertionError("the event did not finish")


def bots(event: Event, make_user, n: int, prefix: str = "bot"):
    return [
        register(event, user=make_user(f"{prefix}{k}"), display_name=f"Bot {k}", is_bot=True)
        for k in range(n)
    ]


# ---------------------------------------------------------------- the formats


def test_the_registry_offers_the_duel_free_for_all_pods_and_teams_of_two():
    info = registry.get("tactics")
    duel, ffa, teams = (info.format(key) for key in ("duel", "ffa", "2v2"))
    assert duel.players_per_game == (2,) and not duel.is_team
    assert ffa.players_per_game == (3, 4) and not ffa.is_team
    assert teams.team_size == 2 and teams.players_per_game == (2,)
    # A match of two teams is seated by the game's own 2 vs 2 table mode.
    assert info.table_mode("2v2").teams == ((0, 2), (1, 3))
    assert 2 * teams.team_size <= info.max_players


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"format": "ffa", "players_per_game": 2}, "3 / 4 players a game"),
        ({"format": "duel", "players_per_game": 4}, "2 players a game"),
        ({"format": "2v2", "players_per_game": 4}, "2 players a game"),
        ({"format": "ffa", "players_per_game": 5}, "2 to 4 players"),
        ({"format": "ffa", "players_per_game": 4, "best_of": 3}, "best of 1"),
        ({"format": "ffa", "players_per_game": 3, "structure": "single_elim"}, "Swiss"),
        ({"format": "solo", "players_per_game": 2}, "no format"),
    ],
)
def test_an_event_the_format_does_not_seat_is_refused_and_nothing_is_made(alice, fields, message):
    with pytest.raises(TournamentError, match=message):
        create_event(alice, name="Refused", game_system="tactics", play_online=True, **fields)
    assert not Event.objects.exists()


def test_an_events_format_cannot_be_changed_to_one_that_does_not_seat_its_players(alice):
    from tournaments.services.events import update_event

    event = create_event(alice, name="Pods", game_system="tactics", format="ffa",
                         players_per_game=4, best_of=1)  # fmt: skip
    with pytest.raises(TournamentError, match="2 players a game"):
        update_event(alice, event, format="duel")
    event.refresh_from_db()
    assert (event.format, event.players_per_game) == ("ffa", 4)


def test_the_new_event_page_offers_the_formats_and_explains_a_refusal(client, alice):
    client.force_login(alice)
    url = reverse("tournaments:event_create")
    page = client.get(url).content.decode()
    assert 'value="ffa"' in page and 'value="2v2"' in page
    data = {
        "name": "Pod night", "game_system": "tactics", "format": "ffa", "structure": "swiss",
        "players_per_game": "2", "top_cut": "0", "best_of": "1", "round_minutes": "50",
        "tiebreaks": "mtr",
    }  # fmt: skip
    refused = client.post(url, data)
    assert refused.status_code == 200 and "seats 3 / 4 players a game" in refused.content.decode()
    assert not Event.objects.exists()
    assert client.post(url, {**data, "players_per_game": "3"}).status_code == 302
    event = Event.objects.get()
    assert (event.format, event.players_per_game, event.uses_pods) == ("ffa", 3, True)


# ---------------------------------------------------------------- duels


def test_a_swiss_of_tactics_duels_is_played_online_to_the_final_standings(
    alice, bob, client, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Tactics Swiss", game_system="tactics", format="duel", swiss_rounds=2,
        best_of=1, play_online=True, auto_advance=True,
    )  # fmt: skip
    register(event, user=bob)
    bots(event, make_user, 3)
    rounds = run_to_the_end(alice, event, django_capture_on_commit_callbacks, rounds=2)
    assert [r.number for r in rounds] == [1, 2]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    sessions = GameSession.objects.filter(match__round__event=event)
    for match in Match.objects.filter(round__event=event):
        # Best of 1: one game, unless a drawn game (round 40 reached) is played again.
        games = list(sessions.filter(match=match).order_by("game_number"))
        assert 1 <= len(games) <= 2
        assert all(g.result["draw"] for g in games[:-1])
    for session in sessions:
        assert session.seats.count() == 2 and session.state["mode"] == "duel"
        assert session.status == GameSession.Status.FINISHED
    # Bob played his own games from his seat: a person's moves, the draft included.
    bobs = sessions.filter(seats__user=bob)
    assert bobs.values("match").distinct().count() == 2
    for session in bobs:
        seat = session.seats.get(user=bob).number
        picks = session.actions.filter(seat=seat, action__type="pick")
        assert picks.count() == 4  # T-77: 4 champions each with 2 players
        assert replay_state(session) == session.state
    rows = refresh_standings(event).rows
    assert len(rows) == 4
    drawn = Match.objects.filter(round__event=event, winner__isnull=True).count()
    assert sum(row["points"] for row in rows) == 3 * 4 - drawn
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "bob" in page


def test_a_single_elimination_of_tactics_duels_is_played_online_to_a_champion(
    alice, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Tactics Knockout", game_system="tactics", format="duel",
        structure="single_elim", best_of=1, play_online=True, auto_advance=True,
    )  # fmt: skip
    bots(event, make_user, 4)
    rounds = run_to_the_end(alice, event, django_capture_on_commit_callbacks, rounds=2)
    assert [r.matches.count() for r in rounds] == [2, 1]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    (final,) = rounds[-1].matches.all()
    assert final.winner_id is not None
    semis = rounds[0].matches.all()
    assert {m.winner_id for m in semis} == set(
        final.seats.values_list("registration_id", flat=True)
    )


# ---------------------------------------------------------------- free-for-all pods


@pytest.mark.slow
def test_a_swiss_of_free_for_all_pods_ranks_by_placement_points(
    alice, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Tactics Pods", game_system="tactics", format="ffa", players_per_game=4,
        swiss_rounds=2, best_of=1, play_online=True, auto_advance=True,
    )  # fmt: skip
    bots(event, make_user, 7)
    rounds = run_to_the_end(alice, event, django_capture_on_commit_callbacks, rounds=2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    points: dict[int, int] = {}
    for rnd in rounds:
        sizes = []
        for match in rnd.matches.all():
            (session,) = GameSession.objects.filter(match=match)
            seats = list(match.seats.order_by("seat"))
            sizes.append(len(seats))
            assert session.state["mode"] == "ffa" and session.seats.count() == len(seats)
            assert session.status == GameSession.Status.FINISHED
            # Placements follow the final glory (T-80: one winner, the others by glory).
            glory = {
                s.match_seat.seat: session.result["scores"][str(s.number)]
                for s in session.seats.select_related("match_seat")
            }
            assert [s.score for s in seats] == [glory[n] for n in range(len(seats))]
            assert [s.placement for s in seats] == list(
                placements_from_scores([s.score for s in seats])
            )
            # the winner places first (at the round limit, level leaders share it)
            for winner in [] if session.result["draw"] else session.result["winners"]:
                assert session.seats.get(number=winner).match_seat.placement == 1
            for s in seats:
                got = PLACEMENT_POINTS[len(seats)][s.placement - 1]
                points[s.registration_id] = points.get(s.registration_id, 0) + got
        assert sorted(sizes) == [3, 4]  # 7 players: a pod of four and a pod of three
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.ruleset == PLACEMENT_RULESET
    assert {r["player"]: r["points"] for r in snapshot.rows} == points
    assert [r["points"] for r in snapshot.rows] == sorted(points.values(), reverse=True)


# ---------------------------------------------------------------- teams of two


@pytest.mark.slow
def test_a_swiss_of_two_against_two_teams_seats_every_member_and_finishes(
    alice, client, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Tactics Pairs", game_system="tactics", format="2v2", swiss_rounds=2,
        best_of=1, play_online=True, auto_advance=True,
    )  # fmt: skip
    for n in range(4):
        is_bot = n >= 2
        members = [make_user(f"{'bot' if is_bot else 'pl'}{n}{k}") for k in "ab"]
        register_team(
            event,
            name=f"{'Bots' if is_bot else 'People'} {n}",
            members=members,
            actor=alice if is_bot else members[0],
            is_bot=is_bot,
        )
    event = start_event(alice, event)
    capture = django_capture_on_commit_callbacks
    with capture(execute=False):
        rnd = publish_round(alice, pair_next_round(alice, event))
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 2
    for session in GameSession.objects.filter(match__round=rnd):
        assert session.config["teams"] == [[0, 2], [1, 3]]  # the table mode "2v2"
        assert session.state["mode"] == "teams" and session.state["phase"] == "draft"
        seats = list(session.seats.select_related("match_seat__registration").order_by("number"))
        assert len(seats) == 4 and session.decks == [None] * 4
        by_team = [s.match_seat_id for s in seats]
        assert by_team[0] == by_team[2] != by_team[1] == by_team[3]
        for seat in seats:  # each member at their own seat, in the team's order
            members = list(
                seat.match_seat.registration.members.order_by("position").values_list(
                    "user_id", flat=True
                )
            )
            assert seat.user_id == members[seat.number // 2]
            assert seat.is_bot == seat.match_seat.registration.is_bot

    # Each teammate of a team of people finds the game at their own seat.
    people = GameSession.objects.filter(match__round=rnd, seats__is_bot=False).first()
    for seat in people.seats.filter(is_bot=False).select_related("user"):
        client.force_login(seat.user)
        page = client.get(reverse("tournaments:my_match", args=[event.slug])).content.decode()
        assert reverse("play:game", args=[people.pk]) in page
        assert client.get(reverse("play:game", args=[people.pk])).status_code == 200

    drive(rnd, capture)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    for session in GameSession.objects.filter(match__round=rnd):
        match = Match.objects.get(pk=session.match_id)
        assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
        result = session.result
        if result["draw"]:
            assert match.winner_id is None
            continue
        # T-79: both teammates win together, and their team wins the match.
        winners = set(result["winners"])
        assert winners in ({0, 2}, {1, 3})
        seat = session.seats.get(number=min(winners))
        assert match.winner_id == seat.match_seat.registration_id
        # T-78: each teammate drafted 3 of the team's 6 champions, by their own picks.
        for number in range(4):
            picks = session.actions.filter(seat=number, action__type="pick")
            assert picks.count() == 3

    with capture(execute=False):
        assert advance_event.apply(args=(event.pk,)).get() == 2
    second = event.rounds.get(number=2)
    assert tasks.start_round_games.apply(args=(second.pk,)).get() == 2
    drive(second, capture)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = refresh_standings(event).rows
    assert len(rows) == 4 and all(len(row["members"]) == 2 for row in rows)
    drawn = Match.objects.filter(round__event=event, winner__isnull=True).count()
    assert sum(row["points"] for row in rows) == 3 * 4 - drawn
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "People 0" in page and '>@pl0a</a>, <a href="/players/pl0b/"' in page  # 0066


# ---------------------------------------------------------------- top cut and knockouts


@pytest.mark.slow
def test_a_top_cut_of_free_for_all_pods_ends_in_a_final_pod_played_to_the_end(
    alice, make_user, django_capture_on_commit_callbacks
):
    """A Swiss round of free-for-all pods (T-80), then the top cut: one final pod of the
    best four, played online by bots; its placements (by glory) decide the top places."""
    event = create_event(
        alice, name="Tactics Pod Final", game_system="tactics", format="ffa",
        players_per_game=4, swiss_rounds=1, top_cut=4, best_of=1, play_online=True,
        auto_advance=True,
    )  # fmt: skip
    bots(event, make_user, 8)
    rounds = run_to_the_end(alice, event, django_capture_on_commit_callbacks, rounds=2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    swiss, final = rounds
    assert swiss.kind == Round.Kind.SWISS and swiss.matches.count() == 2
    assert final.kind == Round.Kind.ELIMINATION
    (match,) = final.matches.all()
    seats = list(match.seats.order_by("seat"))
    assert len(seats) == 4
    (session,) = GameSession.objects.filter(match=match)
    assert session.state["mode"] == "ffa" and session.status == GameSession.Status.FINISHED
    assert replay_state(session) == session.state
    assert [s.placement for s in seats] == list(placements_from_scores([s.score for s in seats]))
    rows = StandingsSnapshot.objects.get(event=event).rows
    finishers = {r["player"]: r["playoff_finish"] for r in rows[:4]}
    assert set(finishers) == {s.registration_id for s in seats}
    by_seat = {s.registration_id: s.placement for s in seats}
    assert finishers == by_seat  # the final pod's places are the event's top places
    assert all(r["playoff_finish"] is None for r in rows[4:])


@pytest.mark.slow
def test_a_knockout_of_two_against_two_teams_is_played_by_bots_to_a_champion_team(
    alice, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Tactics Pairs Knockout", game_system="tactics", format="2v2",
        structure="single_elim", best_of=1, play_online=True, auto_advance=True,
    )  # fmt: skip
    for n in range(4):
        members = [make_user(f"ko{n}{k}") for k in "ab"]
        register_team(event, name=f"Team {n}", members=members, actor=alice, is_bot=True)
    rounds = run_to_the_end(alice, event, django_capture_on_commit_callbacks, rounds=2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert [r.matches.count() for r in rounds] == [2, 1]
    for rnd in rounds:
        for match in rnd.matches.all():
            games = list(GameSession.objects.filter(match=match).order_by("game_number"))
            assert games and all(g.state["mode"] == "teams" for g in games)
            assert all(g.seats.count() == 4 for g in games)
            # a knockout match has a winner: drawn games (round limit) are played again
            assert match.winner_id is not None
            assert all(g.result["draw"] for g in games[:-1])
            last = games[-1].result
            assert set(last["winners"]) in ({0, 2}, {1, 3})  # T-79: a team wins together
    (final,) = rounds[-1].matches.all()
    semis = rounds[0].matches.all()
    assert {m.winner_id for m in semis} == set(
        final.seats.values_list("registration_id", flat=True)
    )
    rows = refresh_standings(event).rows
    assert rows[0]["player"] == final.winner_id and len(rows[0]["members"]) == 2
