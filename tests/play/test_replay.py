"""The replay of a game (its own table, stepped through the recorded moves), the end
screen every table shares, the rematch, and the game log."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from engine.ascension.game import SYSTEM as ASCENSION
from play import tasks
from play.models import GameSession
from play.services import reading
from play.services.acting import concede
from play.services.errors import NotAllowed, PlayError
from play.services.reading import replay_state
from play.services.rematches import rematch
from play.services.starting import create_bot_game, create_friend_game, join_game
from tests.play.helpers import fresh
from tests.play.test_hidden_information import (
    Secrets,
    _public_iids,
    assert_page_keeps,
    event_game,
    move,
    play_until_both_hold_cards,
)

pytestmark = pytest.mark.django_db


def run_bots(session: GameSession) -> GameSession:
    """What the workers would do: while a bot is to act, its task fires."""
    for _ in range(1000):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        to_act = ASCENSION.to_act(session.state)
        if not session.seats.filter(is_bot=True, number__in=list(to_act)).exists():
            return session
        tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the bots did not stop")


def played(session: GameSession, moves: int) -> GameSession:
    """``moves`` moves of the person at seat 0 (the first legal one), the bots answering."""
    for _ in range(moves):
        session = run_bots(session)
        if session.status != GameSession.Status.RUNNING:
            break
        action = ASCENSION.legal_actions(session.state, 0)[0]
        result = tasks.apply_action.apply(args=(session.pk, 0, session.seq, action)).get()
        assert result == "applied"
    return run_bots(session)


@pytest.fixture
def conceded(alice):
    """alice's Ascension game against a bot: a few moves, then she concedes."""
    session = played(create_bot_game(alice, "ascension", "heuristic"), 6)
    concede(alice, session)
    session = fresh(session)
    assert session.status == GameSession.Status.FINISHED and session.seq >= 3
    return session


def seat_rows(session: GameSession) -> list[tuple]:
    return list(
        session.seats.order_by("number").values_list("number", "user", "is_bot", "bot_name")
    )


def replay_url(session: GameSession) -> str:
    return reverse("play:replay", args=[session.pk])


# ---------------------------------------------------------------- the replay


def test_the_replay_shows_the_games_own_table_at_every_step_with_controls(client, conceded):
    session = conceded
    for step in range(session.seq + 1):
        page = client.get(replay_url(session), {"step": step})
        assert page.status_code == 200
        text = page.content.decode()
        assert 'class="play-table asc"' in text  # Ascension's own table, not the generic one
        assert 'class="act"' not in text and "Concede" not in text  # nothing to do in a replay
        assert f'value="{step}"' in text and f'max="{session.seq}"' in text  # the slider
        assert f'href="?step={session.seq}"' in text  # the last move, without a script
        assert text.count("<li value=") == sum(
            1 for _ in session.actions.filter(seq__lt=step)
        )  # the log up to the step
        if step:
            assert f"Move {step} of {session.seq}" in text
        fragment = client.get(reverse("play:replay_step", args=[session.pk]), {"step": step})
        assert fragment.status_code == 200
        assert "<html" not in fragment.content.decode()
        assert 'class="play-table asc"' in fragment.content.decode()
    # Stepping rebuilds the stored game exactly.
    assert replay_state(session, session.seq) == session.state


def test_play_does_not_look_like_a_step_forward_in_the_replay_controls(client, conceded):
    """On a phone the controls are their symbols only (the words are for screen readers):
    Play must not wear the same symbol as Forward or Back, or a tap on one is taken for
    the other."""
    text = client.get(replay_url(conceded), {"step": 1}).content.decode()

    def symbol(marker: str) -> str:
        found = re.search(marker + r'.*?<span aria-hidden="true"[^>]*>([^<]+)</span>', text, re.S)
        assert found, marker
        return found.group(1).strip()

    symbols = [symbol(f'data-go="{go}"') for go in ("first", "back", "forward", "last")]
    symbols.append(symbol('class="when-paused"'))
    assert len(set(symbols)) == 5, symbols


def test_the_last_step_of_the_replay_ends_with_the_end_screen(client, conceded):
    final = client.get(replay_url(conceded)).content.decode()
    assert "play-end" in final and "Bot (heuristic)" in final and "alice conceded." in final
    assert "Rematch" not in final  # a replay offers no rematch, even to a player
    first = client.get(replay_url(conceded), {"step": 0}).content.decode()
    assert "play-end" not in first and "Before the first move" in first


@pytest.mark.parametrize("step", ["abc", "-1", "1e3", "٣", "99999999999999", " ", "1.5"])
def test_a_step_that_is_not_in_the_game_gets_a_clear_page(client, conceded, step):
    for name in ("play:replay", "play:replay_step"):
        page = client.get(reverse(name, args=[conceded.pk]), {"step": step})
        text = page.content.decode()
        assert page.status_code == 400, (step, page.status_code)
        assert "No such move" in text and f"moves 0 to {conceded.seq}" in text
        assert "Traceback" not in text and "URLconf" not in text


def test_a_step_after_the_last_move_gets_a_clear_page(client, conceded):
    page = client.get(replay_url(conceded), {"step": conceded.seq + 1})
    assert page.status_code == 400 and "No such move" in page.content.decode()


def test_a_game_that_is_not_over_has_no_replay_yet_and_says_so(client, alice):
    session = create_bot_game(alice, "ascension", "heuristic")
    page = client.get(replay_url(session))
    text = page.content.decode()
    assert "The replay opens when the game ends." in text
    assert reverse("play:spectate", args=[session.pk]) in text  # watch it live instead
    assert "URLconf" not in text
    missing = client.get(reverse("play:replay", args=[session.pk + 1000]))
    assert missing.status_code == 404 and "There is no game with this number." in (
        missing.content.decode()
    )


def test_the_replay_before_the_end_speaks_russian(client, alice):
    session = create_bot_game(alice, "ascension", "heuristic")
    page = client.get(replay_url(session), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Повтор откроется, когда игра закончится." in page.content.decode()


def test_no_replay_step_of_a_game_with_hidden_hands_shows_a_hidden_card(
    client, settings, alice, bob, charlie
):
    settings.PLAY_MAX_MOVES = 60  # the game is called (a drawn game) to keep the test short
    session = play_until_both_hold_cards(event_game(alice, bob, charlie))
    while fresh(session).status == GameSession.Status.RUNNING:
        assert move(session) == "applied"
    session = fresh(session)
    checked = 0
    for user, language in ((bob, "en"), (None, "ru")):
        client.logout()
        if user is not None:
            client.force_login(user)  # a player of the game sees the public view too
        for step in range(session.seq + 1):
            state = replay_state(session, step)
            secrets = Secrets(state, None, _public_iids(session, step))
            url = reverse("play:replay_step", args=[session.pk])
            page = client.get(url, {"step": step}, HTTP_ACCEPT_LANGUAGE=language)
            assert page.status_code == 200
            assert_page_keeps(secrets, page.content.decode(), session.seed, f"step {step}")
            if secrets.hand_iids and secrets.names:
                checked += 1
    assert checked >= 20


def test_replay_states_from_the_snapshots_equal_the_game_rebuilt_from_the_seed(
    monkeypatch, conceded
):
    # Decision 0057: the state at a step starts from the nearest cached snapshot below it.
    monkeypatch.setattr(reading, "SNAPSHOT_EVERY", 2)
    cache.clear()
    for step in [*range(conceded.seq, -1, -1), *range(conceded.seq + 1)]:
        assert replay_state(conceded, step) == reading._full_replay(conceded, step), step
    assert replay_state(conceded, conceded.seq) == conceded.state


def test_a_step_of_a_finished_game_replays_at_most_the_moves_since_its_snapshot(
    monkeypatch, conceded
):
    monkeypatch.setattr(reading, "SNAPSHOT_EVERY", 2)
    cache.clear()
    applied = []
    advance = reading._advance
    monkeypatch.setattr(reading, "_advance", lambda *a: applied.append(1) or advance(*a))
    replay_state(conceded, conceded.seq)
    assert len(applied) == conceded.seq  # the first visit replays the whole game once
    for step in range(conceded.seq + 1):
        applied.clear()
        replay_state(conceded, step)
        assert len(applied) == step % 2, step  # then never more than SNAPSHOT_EVERY - 1
    cache.clear()  # a snapshot lost from the cache is rebuilt, not missed
    applied.clear()
    assert replay_state(conceded, conceded.seq) == conceded.state
    assert len(applied) == conceded.seq


def test_a_game_still_running_is_replayed_from_the_seed_and_leaves_no_snapshot(monkeypatch, alice):
    monkeypatch.setattr(reading, "SNAPSHOT_EVERY", 1)
    cache.clear()
    session = played(create_bot_game(alice, "ascension", "heuristic"), 2)
    assert session.status == GameSession.Status.RUNNING and session.seq >= 2
    assert replay_state(session, session.seq) == session.state
    assert cache.get(reading.snapshot_key(session, 1)) is None


# ---------------------------------------------------------------- the end screen


def test_after_a_concession_the_end_screen_names_the_winner_and_offers_what_next(
    client, alice, conceded
):
    client.force_login(alice)
    text = client.get(reverse("play:game", args=[conceded.pk])).content.decode()
    end = text[text.index('class="play-end') : text.index("</section>", text.index("play-end"))]
    assert "Winner" in end and "Bot (heuristic)" in end and "seat 2" in end
    assert "alice conceded." in end
    assert "to act" not in text
    assert reverse("play:rematch", args=[conceded.pk]) in end
    assert f'href="{reverse("play:replay", args=[conceded.pk])}"' in end
    again = re.search(r'href="(/play/\?[^"]+)"', end).group(1).replace("&amp;", "&")
    assert "system=ascension" in again and "players=2" in again and "bots=1" in again
    form = client.get(again).content.decode()
    section = form[form.index('id="new-ascension"') :]
    assert '<option value="1" selected>' in section[: section.index("</select>", 0) + 500]


def test_a_spectator_sees_the_end_without_a_rematch(client, dave, conceded):
    client.force_login(dave)
    text = client.get(reverse("play:spectate", args=[conceded.pk])).content.decode()
    assert "Game over" in text and "Bot (heuristic)" in text
    assert reverse("play:rematch", args=[conceded.pk]) not in text
    assert "Watch the replay" in text


def test_the_end_screen_speaks_russian(client, alice, conceded):
    client.force_login(alice)
    page = client.get(reverse("play:game", args=[conceded.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    text = page.content.decode()
    for words in ("Реванш", "Сыграть ещё", "Смотреть повтор", "Победитель"):
        assert words in text, words


def test_the_game_log_numbers_each_move_and_folds(client, alice, conceded):
    client.force_login(alice)
    text = client.get(reverse("play:game", args=[conceded.pk])).content.decode()
    assert '<details class="play-log"' in text
    numbers = [int(n) for n in re.findall(r'<li value="(\d+)">', text)]
    assert numbers == list(range(conceded.seq, 0, -1))[: len(numbers)] and numbers


# ---------------------------------------------------------------- rematch


def test_a_rematch_against_a_bot_starts_at_once_with_the_same_seats(client, alice, conceded):
    client.force_login(alice)
    response = client.post(reverse("play:rematch", args=[conceded.pk]))
    new = GameSession.objects.exclude(pk=conceded.pk).get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "play:game", args=[new.pk]
    )
    assert new.status == GameSession.Status.RUNNING
    assert new.config == conceded.config and new.time_bank == conceded.time_bank
    assert new.seed != conceded.seed and new.created_by == alice
    assert seat_rows(new) == seat_rows(conceded)


def test_a_rematch_with_a_friend_waits_for_them_and_their_end_screen_shows_it(client, alice, bob):
    session = create_friend_game(alice, "ascension")
    session = join_game(bob, session.invite_token)
    concede(alice, session)
    session = fresh(session)
    new = rematch(bob, session)
    assert new.status == GameSession.Status.WAITING
    seated = dict(new.seats.values_list("number", "user"))
    assert seated[session.seats.get(user=bob).number] == bob.pk
    assert seated[session.seats.get(user=alice).number] is None
    client.force_login(alice)
    text = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert "bob asks for a rematch." in text
    assert reverse("play:join", args=[new.invite_token]) in text
    join_game(alice, new.invite_token)
    new = fresh(new)
    assert new.status == GameSession.Status.RUNNING
    assert sorted(new.seats.values_list("user", flat=True)) == sorted([alice.pk, bob.pk])
    text = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert "asks for a rematch" not in text  # taken


def test_only_a_player_of_a_finished_casual_game_gets_a_rematch(client, alice, dave, conceded):
    with pytest.raises(NotAllowed):
        rematch(dave, conceded)
    running = create_bot_game(alice, "ascension", "heuristic")
    with pytest.raises(PlayError):
        rematch(alice, running)
    client.force_login(dave)
    response = client.post(reverse("play:rematch", args=[conceded.pk]), follow=True)
    assert response.status_code == 200
    assert "Only the players of this game can ask for a rematch." in response.content.decode()
    assert GameSession.objects.count() == 2


def test_a_rematch_of_no_game_says_so(client, alice):
    client.force_login(alice)
    response = client.post(reverse("play:rematch", args=[987654]), follow=True)
    assert response.status_code == 200
    assert "There is no game with this number." in response.content.decode()


def test_the_end_screen_names_both_winners_of_a_team_a_draw_and_the_clock(client, alice, conceded):
    client.force_login(alice)
    url = reverse("play:game", args=[conceded.pk])
    GameSession.objects.filter(pk=conceded.pk).update(
        result={"winners": [0, 1], "draw": False, "eliminated": [], "scores": {}}
    )
    text = client.get(url).content.decode()
    assert "Winners" in text and "alice and Bot (heuristic)" in text and "You won!" in text
    GameSession.objects.filter(pk=conceded.pk).update(
        result={"winners": [], "draw": True, "eliminated": [], "scores": {}}, end_reason="time"
    )
    text = client.get(url).content.decode()
    end = text[text.index('class="play-end') :]
    assert "<strong>Draw</strong>" in end and "alice ran out of time." in end
    assert "Winner" not in end[: end.index("</section>")]
