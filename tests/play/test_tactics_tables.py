"""Ascension Tactics at casual tables of more than two, started from the /play/ form:
free-for-all for three and four (T-80) and two against two (T-78/T-79).

Each game opens with the champion draft (T-76..T-78): bots pick through their task, the
person picks (and plays on) through the act endpoint, as the page does; every move a
worker would run is run here in-process (``task.apply``). The games are played to the
end and replayed from the log.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.reading import replay_state
from tests.play.helpers import fresh

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 11)


@pytest.fixture
def queued(monkeypatch):
    """The moves the act endpoint hands to workers, in order (instead of the broker)."""
    moves: list[tuple] = []
    monkeypatch.setattr(tasks.apply_action, "delay", lambda *args: moves.append(args))
    return moves


class Table:
    """One casual game seen by its only person (seat 0), through the pages."""

    def __init__(self, client, capture, queued):
        self.client, self.capture, self.queued = client, capture, queued
        self.person_picks = 0
        self.bot_picks = 0

    def start(self, players: int, bots: int, mode: str = "") -> GameSession:
        form = {"system": "tactics", "players": players, "bots": bots, "bot": "heuristic"}
        if mode:
            form["mode"] = mode
        response = self.client.post(reverse("play:new_game"), form)
        session = GameSession.objects.get(system="tactics")
        assert response.status_code == 302 and response["Location"] == reverse(
            "play:game", args=[session.pk]
        )
        assert session.status == GameSession.Status.RUNNING
        return session

    def post(self, session: GameSession, action, seq=None):
        body = {"seq": session.seq if seq is None else seq, "action": action}
        with self.capture(execute=True):  # the move is queued when the request commits
            return self.client.post(
                reverse("play:act", args=[session.pk]),
                data=json.dumps(body),
                content_type="application/json",
            )

    def act(self, session: GameSession, action) -> str:
        """The person's move through the endpoint, then the worker's task for it."""
        response = self.post(session, action)
        assert response.status_code == 202, response.content
        (args,) = self.queued
        self.queued.clear()
        with self.capture(execute=False):
            return tasks.apply_action.apply(args=args).get()

    def step(self, session: GameSession) -> None:
        to_act = SYSTEM.to_act(session.state)
        drafting = session.state.get("phase") == "draft"
        if session.seats.filter(is_bot=True, number__in=to_act).exists():
            with self.capture(execute=False):
                assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
            self.bot_picks += drafting
            return
        assert 0 in to_act
        assert self.act(session, BRAIN.choose(session.state, 0)) == "applied"
        self.person_picks += drafting

    def play_out(self, session: GameSession, limit: int = 5000) -> GameSession:
        for _ in range(limit):
            session = fresh(session)
            if session.status != GameSession.Status.RUNNING:
                return session
            self.step(session)
        raise AssertionError("the game did not end")


def draft_of(session: GameSession, seat: int | None = 0) -> dict:
    """The draft as a seat's view shows it, its picks by seat number (as the page gets them, JSON)."""
    return json.loads(json.dumps(SYSTEM.view(session.state, seat)["draft"]))


def play_the_draft(table: Table, session: GameSession) -> GameSession:
    """The draft up to the first turn, checking the person's picks go to their reserve."""
    for _ in range(50):
        session = fresh(session)
        draft = draft_of(session)
        if draft["finished"]:
            return session
        if draft["to_pick"] == 0:
            before = list(draft["picked"]["0"])
            pick = SYSTEM.legal_actions(session.state, 0)[-1]  # not the bots' choice
            assert table.act(session, pick) == "applied"
            table.person_picks += 1
            after = draft_of(fresh(session))["picked"]["0"]
            assert after == [*before, pick["champion"]]
        else:
            table.step(session)
    raise AssertionError("the draft did not end")


def check_the_draft(session: GameSession, seats: int, quota: int) -> None:
    draft = draft_of(session)
    assert draft["finished"] and draft["quota"] == quota
    assert sorted(map(int, draft["picked"])) == list(range(seats))
    picked = [card for cards in draft["picked"].values() for card in cards]
    assert all(len(cards) == quota for cards in draft["picked"].values())
    assert len(set(picked)) == len(picked) == seats * quota  # T-77: every pick its own


@pytest.mark.parametrize("players", [3, 4])
def test_a_free_for_all_table_drafts_and_is_played_to_one_winner(
    client, alice, players, queued, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    table = Table(client, django_capture_on_commit_callbacks, queued)
    session = table.start(players, players - 1)
    assert session.config.get("teams") is None
    assert session.state["mode"] == "ffa" and session.state["phase"] == "draft"
    assert list(session.seats.values_list("number", "is_bot")) == [(0, False)] + [
        (n, True) for n in range(1, players)
    ]
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200

    session = play_the_draft(table, session)
    assert table.person_picks == 3 and table.bot_picks == 3 * (players - 1)  # T-77: 3 each
    check_the_draft(session, players, 3)
    assert session.state["phase"] != "draft"
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200

    session = table.play_out(session)
    assert session.status == GameSession.Status.FINISHED
    result = session.result
    assert sorted(map(int, result["scores"])) == list(range(players))  # glory places the rest
    if not result["draw"]:
        (winner,) = result["winners"]  # T-80: a single winner
        assert result["scores"][str(winner)] == max(result["scores"].values())
    assert replay_state(session) == session.state
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 200


def test_a_two_against_two_table_drafts_by_teams_and_both_teammates_win_together(
    client, alice, queued, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    table = Table(client, django_capture_on_commit_callbacks, queued)
    session = table.start(4, 3, mode="2v2")
    assert session.config["teams"] == [[0, 2], [1, 3]]  # the registry's table mode
    assert session.state["mode"] == "teams" and session.state["phase"] == "draft"
    # T-78: the team moving second picks first, then the teams alternate.
    first = SYSTEM.view(session.state, 0)["first"]
    assert draft_of(session)["to_pick"] % 2 != first % 2

    session = play_the_draft(table, session)
    assert table.person_picks == 3 and table.bot_picks == 9  # 6 a team, split 3 and 3
    check_the_draft(session, 4, 3)

    # T-79: a joint turn; the person's bot teammate acts beside them and neither acts
    # for the other's seat.
    session = table.play_out(session)
    assert session.status == GameSession.Status.FINISHED
    result = session.result
    if not result["draw"]:
        assert sorted(result["winners"]) in ([0, 2], [1, 3])
        first, second = sorted(result["winners"])
        assert result["scores"][str(first)] == result["scores"][str(second)]  # one team total
    assert replay_state(session) == session.state


def test_draft_picks_out_of_turn_or_off_the_row_change_nothing(
    client, alice, bob, queued, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    table = Table(client, django_capture_on_commit_callbacks, queued)
    session = table.start(3, 2)
    while draft_of(session)["to_pick"] != 0:  # bots pick until it is the person's turn
        table.step(session)
        session = fresh(session)
    draft = draft_of(session)
    assert draft == draft_of(session, None)  # the same for everyone
    taken = set(draft["row"]).union(*map(set, draft["picked"].values()))

    # Off the row (a champion still in the hidden deck or no card at all): queued, since
    # the endpoint checks turn and seq only, and refused by the worker.
    for champion in [
        next(f"TC1-{n:03d}" for n in range(1, 99) if f"TC1-{n:03d}" not in taken),
        "TC1-999",
        7,
    ]:
        assert table.act(session, {"type": "pick", "champion": champion}) == "illegal"
        after = fresh(session)
        assert (after.seq, after.state) == (session.seq, session.state)
    row = draft["row"]

    # A stale seq is refused at once; nothing is queued.
    response = table.post(session, {"type": "pick", "champion": row[0]}, seq=session.seq - 1)
    assert response.status_code == 409 and response.json()["error"]
    assert not queued

    # Someone not seated cannot pick for anyone.
    client.force_login(bob)
    response = table.post(session, {"type": "pick", "champion": row[0]})
    assert response.status_code == 403 and not queued
    after = fresh(session)
    assert (after.seq, after.state) == (session.seq, session.state)

    # The person picks; the next pick is a bot's (T-77: reverse turn order), and a second
    # pick of the person's is refused at once.
    client.force_login(alice)
    assert table.act(session, {"type": "pick", "champion": row[0]}) == "applied"
    session = fresh(session)
    assert draft_of(session)["picked"]["0"] == [row[0]]
    assert draft_of(session)["to_pick"] != 0
    response = table.post(session, {"type": "pick", "champion": draft_of(session)["row"][0]})
    assert response.status_code == 403 and response.json()["error"] and not queued
    assert fresh(session).seq == session.seq


def test_the_turn_badge_follows_the_pick_during_the_champion_draft(
    client, alice, queued, django_capture_on_commit_callbacks
):
    """T-77: while the champions are drafted the seat to pick has the turn, so the "turn"
    badge sits on that seat's panel, the one the header names as picking."""
    client.force_login(alice)
    table = Table(client, django_capture_on_commit_callbacks, queued)
    session = table.start(3, 2)
    seen = set()
    for _ in range(6):
        session = fresh(session)
        to_pick = draft_of(session)["to_pick"]
        html = client.get(reverse("play:game", args=[session.pk])).content.decode()
        panels = re.findall(r'data-zone="player" data-seat="(\d)">\s*<h3>(.*?)</h3>', html, re.S)
        assert len(panels) == 3
        badged = [int(seat) for seat, head in panels if '<span class="badge">' in head]
        assert badged == [to_pick], (badged, to_pick)
        seen.add(to_pick)
        table.step(session)
    assert len(seen) > 1  # the badge moved with the picks
