"""Online games through the services and tasks the site uses, with the Ascension engine.

The tasks run in-process (``task.apply(...)``) as a worker would run them; the
websocket tests use Channels' communicator against the real channel layer.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse
from django.utils import timezone

from engine.ascension.bots import make_bot
from engine.ascension.game import SYSTEM
from play import tasks
from play.models import ActionLog, GameSession, SessionSeat
from play.services.acting import apply_action, concede, submit_action
from play.services.errors import NotAllowed, PlayError
from play.services.payloads import payload
from play.services.reading import replay_state
from play.services.starting import (
    MATCH_TIME_BANK,
    create_bot_game,
    create_friend_game,
    join_game,
    start_match,
)
from tests.play.helpers import communicator, fresh
from tests.tournaments.factories import make_event, seat_users
from tournaments.models import Match
from tournaments.services.engine_results import record_engine_game
from tournaments.services.errors import TournamentError
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

HUMAN = 0


def snapshot(session: GameSession):
    session = fresh(session)
    return (
        session.status,
        session.seq,
        session.state,
        session.result,
        list(ActionLog.objects.filter(session=session).values_list("seq", "seat", "action")),
        list(session.seats.values_list("number", "time_left", "deadline")),
    )


def run_bots(session: GameSession) -> GameSession:
    """What the workers would do: while a bot is to act, its task fires."""
    for _ in range(10_000):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        to_act = SYSTEM.to_act(session.state)
        if not session.seats.filter(is_bot=True, number__in=list(to_act)).exists():
            return session
        tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the bots did not stop")


def act(session: GameSession, seat: int, action: dict) -> str:
    session = fresh(session)
    return tasks.apply_action.apply(args=(session.pk, seat, session.seq, action)).get()


def play_out(session: GameSession, seats_by_user: dict[int, int] | None = None) -> GameSession:
    """Play the game to its end: people choose like the heuristic bot, bots through their task."""
    brain = make_bot("heuristic", SYSTEM, 11)
    for _ in range(20_000):
        session = run_bots(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        (seat,) = SYSTEM.to_act(session.state)
        assert act(session, seat, brain.choose(session.state, seat)) == "applied"
    raise AssertionError("the game did not end")


@pytest.fixture
def bot_game(alice):
    return create_bot_game(alice, "ascension", "heuristic")


def my_turn(session: GameSession) -> GameSession:
    session = run_bots(session)
    assert SYSTEM.to_act(session.state) == (HUMAN,)
    return session


# ---------------------------------------------------------------- a game against a bot


def test_a_game_against_a_bot_is_played_to_the_end_and_the_log_replays_it(bot_game):
    assert bot_game.status == GameSession.Status.RUNNING
    assert list(bot_game.seats.values_list("number", "is_bot")) == [(0, False), (1, True)]
    session = play_out(bot_game)
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.RULES
    assert session.result["winners"] == list(SYSTEM.result(session.state).winners)
    assert session.seq == ActionLog.objects.filter(session=session).count() > 10
    assert replay_state(session) == session.state
    assert session.seats.filter(deadline__isnull=False).count() == 0


def test_the_bot_acts_through_the_same_path_and_a_second_bot_task_changes_nothing(bot_game):
    session = fresh(bot_game)
    if SYSTEM.to_act(session.state) == (HUMAN,):
        act(session, HUMAN, {"type": "end_turn"})
        session = fresh(session)
    seq = session.seq
    assert tasks.bot_move.apply(args=(session.pk, seq)).get() == "applied"
    before = snapshot(session)
    assert tasks.bot_move.apply(args=(session.pk, seq)).get() is None
    assert snapshot(session) == before
    assert ActionLog.objects.get(session=session, seq=seq).seat == 1


def test_submit_action_checks_the_seat_and_enqueues_the_task(
    bot_game, bob, django_capture_on_commit_callbacks
):
    session = my_turn(bot_game)
    with django_capture_on_commit_callbacks() as callbacks:
        assert (
            submit_action(session.created_by, session, session.seq, {"type": "end_turn"}) == HUMAN
        )
    assert len(callbacks) == 1
    with pytest.raises(NotAllowed):
        submit_action(bob, session, session.seq, {"type": "end_turn"})
    with pytest.raises(PlayError, match="moved on"):
        submit_action(session.created_by, session, session.seq + 1, {"type": "end_turn"})


def test_an_action_out_of_turn_is_refused_and_changes_nothing(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    waiting = session.seats.exclude(number=acting).get()
    before = snapshot(session)
    with pytest.raises(NotAllowed, match="not your turn"):
        submit_action(waiting.user, session, session.seq, {"type": "end_turn"})
    # A task for the waiting seat (a forged or outdated request) is refused by the worker too.
    assert act(session, waiting.number, {"type": "end_turn"}) == "not_yours"
    assert snapshot(session) == before


def test_a_stale_seq_changes_nothing(bot_game):
    session = my_turn(bot_game)
    stale = session.seq
    assert act(session, HUMAN, {"type": "end_turn"}) == "applied"
    session = run_bots(session)
    before = snapshot(session)
    result = tasks.apply_action.apply(args=(session.pk, HUMAN, stale, {"type": "end_turn"})).get()
    assert result == "stale"
    assert snapshot(session) == before


def test_an_illegal_action_changes_nothing_and_returns_the_engines_message(bot_game):
    session = my_turn(bot_game)
    before = snapshot(session)
    applied = apply_action(session.pk, HUMAN, session.seq, {"type": "acquire", "iid": 99_999})
    assert applied.status == "illegal"
    assert applied.message  # the engine's own words
    with pytest.raises(Exception) as engine_error:
        SYSTEM.apply(session.state, HUMAN, {"type": "acquire", "iid": 99_999})
    assert applied.message == str(engine_error.value)
    assert snapshot(session) == before


def test_a_retry_of_the_same_action_applies_it_once(bot_game):
    session = my_turn(bot_game)
    seq = session.seq
    args = (session.pk, HUMAN, seq, {"type": "end_turn"})
    assert tasks.apply_action.apply(args=args).get() == "applied"
    after = snapshot(session)
    assert tasks.apply_action.apply(args=args).get() == "stale"
    assert snapshot(session) == after
    assert ActionLog.objects.filter(session=session, seq=seq).count() == 1


# ---------------------------------------------------------------- concede, clocks


def test_a_player_may_concede_at_any_time_and_loses(bot_game, bob):
    session = fresh(bot_game)
    with pytest.raises(NotAllowed):
        concede(bob, session)
    concede(session.created_by, session)
    session = fresh(session)
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.CONCEDE
    assert session.result["winners"] == [1]
    with pytest.raises(PlayError):
        concede(session.created_by, session)


def timed_game(alice, bob) -> GameSession:
    session = create_friend_game(alice, "ascension", time_bank=60)
    return join_game(bob, session.invite_token)


def test_a_friend_joins_through_the_invite_and_the_game_starts_with_clocks(alice, bob, charlie):
    session = create_friend_game(alice, "ascension", time_bank=60)
    assert session.status == GameSession.Status.WAITING
    with pytest.raises(PlayError):
        join_game(bob, "not-a-token")
    session = join_game(bob, session.invite_token)
    session = fresh(session)
    assert session.status == GameSession.Status.RUNNING
    with pytest.raises(PlayError, match="started"):
        join_game(charlie, session.invite_token)
    (acting,) = SYSTEM.to_act(session.state)
    seat = session.seats.get(number=acting)
    assert seat.deadline is not None
    assert 59 <= (seat.deadline - timezone.now()).total_seconds() <= 60
    assert session.seats.exclude(number=acting).get().deadline is None


def test_running_out_of_time_loses_and_a_late_or_repeated_clock_changes_nothing(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    seq = session.seq
    # Too early: the clock task waits for the real deadline.
    assert tasks.clock_expired.apply(args=(session.pk, acting, seq)).get() is False
    assert fresh(session).status == GameSession.Status.RUNNING
    SessionSeat.objects.filter(session=session, number=acting).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.clock_expired.apply(args=(session.pk, acting, seq)).get() is True
    session = fresh(session)
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.TIME
    assert session.result["winners"] == [1 - acting]
    before = snapshot(session)
    assert tasks.clock_expired.apply(args=(session.pk, acting, seq)).get() is False
    assert snapshot(session) == before


def test_a_clock_task_from_an_earlier_move_changes_nothing(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    old_seq = session.seq
    assert act(session, acting, {"type": "end_turn"}) == "applied"
    SessionSeat.objects.filter(session=session).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    before = snapshot(session)
    assert tasks.clock_expired.apply(args=(session.pk, acting, old_seq)).get() is False
    assert snapshot(session) == before


def test_the_clock_charges_the_time_used_and_runs_for_who_acts_next(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    SessionSeat.objects.filter(session=session, number=acting).update(
        deadline=timezone.now() + timedelta(seconds=45)
    )
    assert act(session, acting, {"type": "end_turn"}) == "applied"
    seats = {s.number: s for s in fresh(session).seats.all()}
    assert 44 <= seats[acting].time_left <= 45
    assert seats[acting].deadline is None
    assert seats[1 - acting].deadline is not None


def test_a_seat_that_acts_again_keeps_its_deadline_and_no_seat_row_is_written(
    alice, bob, django_assert_num_queries
):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    deadline = timezone.now() + timedelta(seconds=45)
    SessionSeat.objects.filter(session=session, number=acting).update(deadline=deadline)
    session = fresh(session)
    again = next(a for a in SYSTEM.legal_actions(session.state, acting) if a["type"] != "end_turn")
    state, _events = SYSTEM.apply(session.state, acting, again)
    assert list(SYSTEM.to_act(state)) == [acting]  # the same player acts on
    # Read, savepoint, lock, seats, log row, session row, release: no seat row written.
    with django_assert_num_queries(7):
        assert act(session, acting, again) == "applied"
    seat = fresh(session).seats.get(number=acting)
    assert seat.deadline == deadline and seat.time_left == 60
    # The turn passes: the time used is charged from the unchanged deadline.
    assert act(fresh(session), acting, {"type": "end_turn"}) == "applied"
    seat = fresh(session).seats.get(number=acting)
    assert seat.deadline is None and 44 <= seat.time_left <= 45


def test_an_action_after_the_deadline_loses_on_time(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    SessionSeat.objects.filter(session=session, number=acting).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert act(session, acting, {"type": "end_turn"}) == "over"
    session = fresh(session)
    assert session.end_reason == GameSession.EndReason.TIME
    # The move was not applied; the player's departure on time is the only log entry.
    (row,) = ActionLog.objects.filter(session=session)
    assert row.seat == acting and row.action == {"type": "@leave", "reason": "time"}
    assert session.seq == 1


# ---------------------------------------------------------------- tournaments


def online_event(alice, best_of: int = 3, players: int = 2):
    event, _regs = make_event(
        alice, players=players, game_system="ascension", best_of=best_of, swiss_rounds=1
    )
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, rnd


def test_a_best_of_three_online_match_is_decided_by_the_engine_and_updates_the_standings(alice):
    event, rnd = online_event(alice)
    match = rnd.matches.get()
    players = seat_users(match)
    session = start_match(match)
    assert start_match(match) == session  # idempotent
    assert [s.user for s in session.seats.order_by("number")] == players
    assert session.time_bank == MATCH_TIME_BANK
    games = 0
    while session is not None:
        session = play_out(session)
        games += 1
        assert session.status == GameSession.Status.FINISHED
        match.refresh_from_db()
        following = GameSession.objects.filter(
            match=match, game_number=session.game_number + 1
        ).first()
        if match.status == Match.Status.FINAL:
            assert following is None
        else:
            # the next game starts at once, with what was left in each player's bank
            left = {s.match_seat_id: s.time_left for s in session.seats.all()}
            assert {s.match_seat_id: s.time_left for s in following.seats.all()} == left
        session = following
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.result_source == Match.Source.ENGINE
    assert 2 <= games <= 3 and match.games.count() == games
    assert max(match.seats.values_list("game_wins", flat=True)) == 2
    rnd.refresh_from_db()
    assert rnd.status == rnd.Status.COMPLETED
    event.refresh_from_db()
    rows = event.standings_snapshot.rows
    assert json.dumps(rows)  # the standings were rebuilt with the match in them
    winner = match.winner
    assert winner is not None


def test_a_conceded_game_counts_in_the_match_and_the_next_game_starts(alice):
    _event, rnd = online_event(alice)
    match = rnd.matches.get()
    first, second = seat_users(match)
    session = start_match(match)
    concede(first, session)
    match.refresh_from_db()
    assert list(match.games.values_list("number", "winner_seat")) == [(1, 1)]
    assert list(match.seats.order_by("seat").values_list("game_wins", flat=True)) == [0, 1]
    game2 = GameSession.objects.get(match=match, game_number=2)
    assert game2.status == GameSession.Status.RUNNING
    concede(first, game2)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.winner.user == second
    assert start_match(match) is None


def test_recording_the_same_engine_game_twice_changes_nothing(alice):
    _event, rnd = online_event(alice)
    match = rnd.matches.get()
    record_engine_game(match, 1, 0)
    record_engine_game(match, 1, 0)
    assert list(match.games.values_list("number", "winner_seat")) == [(1, 0)]
    with pytest.raises(TournamentError):
        record_engine_game(match, 1, 1)
    with pytest.raises(TournamentError):
        record_engine_game(match, 3, 1)


# ---------------------------------------------------------------- hidden information


def hand_of(state: dict, seat: int) -> list[int]:
    return list(state["players"][seat]["hand"])


def test_a_seat_is_sent_only_its_own_hand(alice, bob):
    session = fresh(timed_game(alice, bob))
    alice_seat = session.seats.get(user=alice).number
    bob_seat = session.seats.get(user=bob).number
    data = payload(session, alice_seat)
    assert data["view"]["players"][alice_seat]["hand"] != len(hand_of(session.state, alice_seat))
    assert data["view"]["players"][bob_seat]["hand"] == len(hand_of(session.state, bob_seat))
    public = payload(session, None)
    assert all(isinstance(p["hand"], int) for p in public["view"]["players"])
    assert public["legal"] == []


def hidden_iids(session: GameSession, seat: int) -> set[str]:
    """Markers of the other seat's hand: ``"iid": n`` for its cards (never shown to others)."""
    return {f'"iid": {i},' for i in hand_of(session.state, seat)}


def test_a_second_user_never_sees_another_seats_hand_through_pages_or_api(
    client, alice, bob, charlie
):
    session = fresh(timed_game(alice, bob))
    bob_seat = session.seats.get(user=bob).number
    bob_cards = {str(i) for i in hand_of(session.state, bob_seat)}
    for user in (alice, charlie, None):
        client.logout()
        if user is not None:
            client.force_login(user)
        for name in ("play:game", "play:table", "play:state", "play:spectate"):
            response = client.get(reverse(name, args=[session.pk]))
            assert response.status_code in (200, 302), (name, response.status_code)
            if name == "play:state" and response.status_code == 200:
                data = response.json()
                assert data["seat"] != bob_seat
                hand = data["view"]["players"][bob_seat]["hand"]
                assert hand == len(bob_cards)
            if response.status_code == 200:
                text = response.content.decode()
                for iid in bob_cards:
                    assert f'data-iid="{iid}"' not in text, (user, name)


# ---------------------------------------------------------------- websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_each_socket_gets_its_own_view_on_connect_and_after_every_move(alice, bob, charlie):
    session = fresh(timed_game(alice, bob))
    bob_seat = session.seats.get(user=bob).number
    alice_seat = 1 - bob_seat

    async def scenario():
        socks = {
            "alice": communicator(session, alice),
            "bob": communicator(session, bob),
            "charlie": communicator(session, charlie),
        }
        for comm in socks.values():
            connected, _ = await comm.connect()
            assert connected
        first = {name: await comm.receive_json_from(timeout=5) for name, comm in socks.items()}
        from channels.db import database_sync_to_async

        current = await database_sync_to_async(fresh)(session)
        (acting,) = SYSTEM.to_act(current.state)
        await database_sync_to_async(tasks.apply_action.apply)(
            args=(session.pk, acting, current.seq, {"type": "end_turn"})
        )
        second = {name: await comm.receive_json_from(timeout=5) for name, comm in socks.items()}
        for name, comm in socks.items():
            # One push reaches every socket of the game: each sent on its own view only.
            assert await comm.receive_nothing(timeout=0.3), name
            await comm.disconnect()
        return first, second

    first, second = async_to_sync(scenario)()
    state = fresh(session).state
    for messages in (first, second):
        assert messages["alice"]["data"]["seat"] == alice_seat
        assert messages["bob"]["data"]["seat"] == bob_seat
        assert messages["charlie"]["data"]["seat"] is None
        for name, seat in (("alice", alice_seat), ("charlie", None)):
            view = messages[name]["data"]["view"]
            assert isinstance(view["players"][bob_seat]["hand"], int), name
            assert messages[name]["data"]["seat"] == seat
        assert isinstance(messages["bob"]["data"]["view"]["players"][alice_seat]["hand"], int)
    assert second["alice"]["data"]["seq"] == 1
    assert [
        c["iid"] for c in second["bob"]["data"]["view"]["players"][bob_seat]["hand"]
    ] == hand_of(state, bob_seat)


# ---------------------------------------------------------------- pages


def test_the_play_page_starts_a_bot_game_and_the_table_offers_the_legal_moves(client, alice):
    client.force_login(alice)
    home = client.get(reverse("play:home"))
    assert home.status_code == 200 and b'value="ascension"' in home.content
    response = client.post(
        reverse("play:new_bot_game"), {"system": "ascension", "bot": "random", "minutes": "0"}
    )
    session = GameSession.objects.get(created_by=alice)
    assert response.status_code == 302 and response["Location"] == reverse(
        "play:game", args=[session.pk]
    )
    session = my_turn(session)
    page = client.get(reverse("play:game", args=[session.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="act"') == len(SYSTEM.legal_actions(session.state, HUMAN))
    assert "End turn" in text
    hand = SYSTEM.view(session.state, HUMAN)["players"][HUMAN]["hand"]
    assert hand and all(f'data-iid="{c["iid"]}"' in text for c in hand)


def test_a_move_posted_from_the_page_is_queued_and_errors_are_clear(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    session = my_turn(create_bot_game(alice, "ascension"))
    url = reverse("play:act", args=[session.pk])
    with django_capture_on_commit_callbacks() as callbacks:
        ok = client.post(
            url,
            {"seq": session.seq, "action": '{"type": "end_turn"}'},
            HTTP_ACCEPT="application/json",
        )
    assert ok.status_code == 202 and ok.json()["seat"] == HUMAN
    assert len(callbacks) == 1
    stale = client.post(
        url,
        data=json.dumps({"seq": session.seq + 5, "action": {"type": "end_turn"}}),
        content_type="application/json",
    )
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    broken = client.post(
        url, {"seq": session.seq, "action": "not json"}, HTTP_ACCEPT="application/json"
    )
    assert broken.status_code == 409


def test_the_replay_steps_through_a_finished_game_in_the_public_view(client, alice):
    session = create_bot_game(alice, "ascension")
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 404  # still running
    session = play_out(session)
    for step in (0, session.seq // 2, session.seq):
        response = client.get(reverse("play:replay", args=[session.pk]), {"step": step})
        assert response.status_code == 200
    final = client.get(reverse("play:replay", args=[session.pk])).content.decode()
    public = SYSTEM.view(session.state, None)
    assert all(isinstance(p["hand"], int) for p in public["players"])
    for card in public["players"][0]["discard"]:
        assert f'data-iid="{card["iid"]}"' in final
    # The replay is the stored game: every intermediate state rebuilds from the log.
    assert replay_state(session, session.seq) == session.state


def test_a_game_may_ship_its_own_table_template(client, alice, settings, tmp_path):
    folder = tmp_path / "play" / "ascension"
    folder.mkdir(parents=True)
    (folder / "table.html").write_text('<div id="custom-table">{{ data.seq }}</div>')
    templates = [dict(settings.TEMPLATES[0])]
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    client.force_login(alice)
    session = create_bot_game(alice, "ascension")
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert 'id="custom-table"' in page


def test_an_invitation_page_seats_the_friend(client, alice, bob):
    session = create_friend_game(alice, "ascension")
    client.force_login(bob)
    url = reverse("play:join", args=[session.invite_token])
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 302
    assert fresh(session).status == GameSession.Status.RUNNING
    assert fresh(session).seats.get(number=1).user == bob


def test_a_player_starts_an_online_match_from_its_page(client, alice):
    _event, rnd = online_event(alice)
    match = rnd.matches.get()
    first, _second = seat_users(match)
    client.force_login(first)
    url = reverse("play:match", args=[match.pk])
    assert client.get(url).status_code == 200
    response = client.post(url)
    session = GameSession.objects.get(match=match, game_number=1)
    assert response["Location"] == reverse("play:game", args=[session.pk])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_the_spectate_socket_sends_the_public_view_even_to_a_player_and_acting_is_refused(
    alice, bob
):
    session = fresh(timed_game(alice, bob))
    bob_seat = session.seats.get(user=bob).number
    (acting,) = SYSTEM.to_act(session.state)
    tasks.apply_action.apply(args=(session.pk, acting, 0, {"type": "end_turn"}))

    async def scenario():
        comm = communicator(session, bob, spectate=True)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"seq": 1, "action": {"type": "end_turn"}})
        silent = await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()
        return first, silent

    first, silent = async_to_sync(scenario)()
    assert first["data"]["seat"] is None and first["data"]["seq"] == 1  # current on (re)connect
    assert isinstance(first["data"]["view"]["players"][bob_seat]["hand"], int)
    assert first["data"]["legal"] == []
    assert silent and fresh(session).seq == 1
