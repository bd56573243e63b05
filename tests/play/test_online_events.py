"""An online event: the platform starts the games, the engine decides them, results flow on.

Eight players of «Восхождение» (Blitz decks built from the real card sets), six of them
bots; every task a worker would run is run here in-process (``task.apply``).
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.decks import deck_text, to_engine_deck
from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck
from play import tasks
from play.models import GameSession
from tests.play.helpers import legal_deck_text
from tournaments import announce
from tournaments.models import Event, Match, Round
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.results import enter_result
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event
from tournaments.tasks import advance_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_event(alice, bob, charlie, make_user):
    event = create_event(
        alice,
        name="Online Open",
        format="blitz",
        swiss_rounds=3,
        best_of=3,
        play_online=True,
        auto_advance=True,
    )
    for n, user in enumerate([bob, charlie], start=1):
        reg = register(event, user=user)
        submit_decklist(user, reg, legal_deck_text(n))
    for n in range(6):
        bot = make_user(f"bot{n}")
        reg = register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
        submit_decklist(bot, reg, legal_deck_text(10 + n))
    return start_event(alice, event)


def publish_next(alice, event, capture) -> Round:
    with capture(execute=False) as callbacks:
        rnd = publish_round(alice, pair_next_round(alice, event))
    # The round's news goes out on commit; the play app deals its games on it.
    assert any(
        any(cell.cell_contents is announce.round_published for cell in c.__closure__ or ())
        for c in callbacks
    )
    return rnd


BRAIN = make_bot("heuristic", SYSTEM, 5)


def step(session: GameSession) -> None:
    """One move, through the task a worker would run: a bot's, or a person's (chosen like a bot)."""
    (seat,) = SYSTEM.to_act(session.state)
    if session.seats.get(number=seat).is_bot:
        tasks.bot_move.apply(args=(session.pk, session.seq))
    else:
        action = BRAIN.choose(session.state, seat)
        tasks.apply_action.apply(args=(session.pk, seat, session.seq, action))


def drive(rnd: Round, limit: int = 5_000) -> None:
    for _ in range(limit):
        running = list(GameSession.objects.filter(match__round=rnd, status="running"))
        if not running:
            return
        for session in running:
            step(session)
    raise AssertionError("the games did not end")


def test_deck_text_round_trip():
    deck = sample_deck(SYSTEM.db, 3, cities=2, main=20)
    back = to_engine_deck(deck_text(deck, SYSTEM.db), SYSTEM.db)
    assert back["cities"] == deck["cities"]
    assert len(back["main"]) == len(deck["main"])
    assert len(back["reinforcement"]) == len(deck["reinforcement"])


def test_online_round_runs_itself(
    alice, bob, charlie, dave, client, online_event, settings, django_capture_on_commit_callbacks
):
    # Bot games on real decks can run to thousands of moves; the cap keeps the test bounded.
    settings.PLAY_MAX_MOVES = 300
    event = online_event
    rnd = publish_next(alice, event, django_capture_on_commit_callbacks)
    assert not GameSession.objects.filter(match__round=rnd).exists()  # after commit only
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 4
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 4  # idempotent
    sessions = GameSession.objects.filter(match__round=rnd)
    assert sessions.count() == 4
    for session in sessions:
        assert session.status == "running"
        assert all(isinstance(d, dict) and d["cities"] for d in session.decks)
        bots = {
            s.number: s.is_bot for s in session.seats.select_related("match_seat__registration")
        }
        for seat in session.seats.select_related("match_seat__registration"):
            assert seat.is_bot == seat.match_seat.registration.is_bot == bots[seat.number]

    # The human player's page links to the game, and shows it instead of the report form.
    client.force_login(bob)
    page = client.get(reverse("tournaments:my_match", args=[event.slug])).content.decode()
    bob_game = GameSession.objects.get(match__round=rnd, seats__user=bob)
    assert reverse("play:game", args=[bob_game.pk]) in page
    assert "Play your game" in page
    assert "Report result" not in page

    # Nobody else sees bob's hand, on any page of the game.
    bob_seat = bob_game.seats.get(user=bob).number
    with django_capture_on_commit_callbacks(execute=False):
        for _ in range(500):  # play on until bob holds cards
            bob_game.refresh_from_db()
            if bob_game.state["players"][bob_seat]["hand"] and bob_game.status == "running":
                break
            step(bob_game)
    view = SYSTEM.view(bob_game.state, bob_seat)
    public = json.dumps(SYSTEM.view(bob_game.state, None), ensure_ascii=False)
    hand = {card["card"] for card in view["players"][bob_seat]["hand"]}
    assert hand
    client.force_login(bob)
    own = client.get(reverse("play:game", args=[bob_game.pk])).content.decode()
    assert 'data-zone="hand"' in own and 'data-zone="battlefield"' in own  # the game's own table
    assert "Coins" in own and "Supply" in own and 'data-zone="queue"' in own
    secret_names = set()
    for card_id in hand:
        name = SYSTEM.db.card(card_id).name_en
        if card_id not in public and name not in public:
            secret_names.add(name)
    # Viewers who hold no seat in bob's game: an outsider, and the other registered person
    # unless the pairing (drawn from the event's seed) made charlie bob's opponent.
    viewers = [dave] + ([] if bob_game.seats.filter(user=charlie).exists() else [charlie])
    urls = ("play:game", "play:spectate", "play:table", "play:state")
    for viewer, name_of_url in ((v, u) for v in viewers for u in urls):
        client.force_login(viewer)
        response = client.get(reverse(name_of_url, args=[bob_game.pk]), follow=True)
        assert response.status_code == 200
        text = response.content.decode()
        for card_id in hand:
            if card_id not in public:
                assert f'"{card_id}"' not in text and f">{card_id}<" not in text
        for name in secret_names:
            assert name not in text, (viewer, name_of_url, name)
        assert 'data-zone="hand"' not in text
    assert any(name in own for name in secret_names) or not secret_names

    before = refresh_standings(event).rows
    with django_capture_on_commit_callbacks(execute=False):
        drive(rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    for match in rnd.matches.all():
        assert match.status == Match.Status.FINAL
        assert match.result_source == (Match.Source.BYE if match.is_bye else Match.Source.ENGINE)
        assert match.winner_id is not None or match.game_draws
        assert match.games.count() == match.play_sessions.filter(status="finished").count()
    after = refresh_standings(event).rows
    assert sum(r["points"] for r in after) > sum(r["points"] for r in before)

    # A self-running event pairs and publishes the next round, whose games start too.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert advance_event.apply(args=(event.pk,)).get() == 2
    # The round's news goes out on commit; the play app deals its games on it.
    assert any(
        any(cell.cell_contents is announce.round_published for cell in c.__closure__ or ())
        for c in callbacks
    )
    second = event.rounds.get(number=2)
    assert second.status == Round.Status.PUBLISHED
    assert tasks.start_round_games.apply(args=(second.pk,)).get() == 4

    # An organiser can still override an engine-decided match.
    match = rnd.matches.filter(is_bye=False).first()
    enter_result(alice, match, [0, 0])
    match.refresh_from_db()
    assert match.result_source == Match.Source.ORGANISER


def test_offline_event_starts_no_games(alice, django_capture_on_commit_callbacks):
    from tests.tournaments.factories import make_event

    event, _regs = make_event(alice, players=4, format="blitz")
    assert not event.play_online
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        publish_round(alice, pair_next_round(alice, event))
    assert not any(
        "start_round_games" in repr(c.__code__.co_freevars + c.__code__.co_names) for c in callbacks
    )
    assert Event.objects.get(pk=event.pk).play_online is False


def test_capped_game_is_a_drawn_game(
    alice, online_event, settings, django_capture_on_commit_callbacks
):
    settings.PLAY_MAX_MOVES = 5
    rnd = publish_next(alice, online_event, django_capture_on_commit_callbacks)
    tasks.start_round_games.apply(args=(rnd.pk,))
    session = GameSession.objects.filter(match__round=rnd).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=False):
        for _ in range(5):
            session.refresh_from_db()
            step(session)
    session.refresh_from_db()
    assert session.status == "finished" and session.end_reason == "time"
    assert session.result["draw"] is True
    assert list(session.match.games.values_list("winner_seat", flat=True)) == [None]
    assert session.match.play_sessions.filter(game_number=2, status="running").exists()
