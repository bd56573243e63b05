"""Building real activity for the dashboard through the services the site uses."""

from __future__ import annotations

from drafting import draft as draft_core
from drafting.models import Pod
from drafting.services.creating import quick_pod
from drafting.services.picks import make_pick
from engine.ascension.game import SYSTEM
from play import tasks as play_tasks
from play.models import GameSession
from play.services.starting import create_bot_game
from tests.tournaments.factories import make_event, play_round
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.results import enter_result


def running_event(organiser, *, name: str = "Dash Open", decide: int = 1, rounds_played: int = 1):
    """An 8-player event: ``rounds_played`` rounds complete, the next published with
    ``decide`` of its 4 matches decided."""
    event, _regs = make_event(organiser, players=8, name=name, swiss_rounds=4)
    for _ in range(rounds_played):
        play_round(organiser, event)
    rnd = publish_round(organiser, pair_next_round(organiser, event))
    for match in rnd.matches.filter(is_bye=False).order_by("table")[:decide]:
        enter_result(organiser, match, [0, 0])
    return event


def drafting_pod(user, *, human_picks: int = 1) -> Pod:
    """A casual pod of 8 (the user and 7 bots) with the user's first picks made."""
    pod = quick_pod(user)
    for _ in range(human_picks):
        pod = Pod.objects.get(pk=pod.pk)
        seat = pod.seats.get(user=user)
        pack = draft_core.current_pack(pod.state, seat.number)
        assert pack is not None
        number = draft_core.pick_number(pod.state, seat.number)
        make_pick(user, pod, number, pack["cards"][0])
    return Pod.objects.get(pk=pod.pk)


def bot_game(user, *, actions: int = 3) -> GameSession:
    """A game of Ascension against a bot with ``actions`` actions applied by the task."""
    session = create_bot_game(user, "ascension", "heuristic")
    for _ in range(actions):
        session = GameSession.objects.get(pk=session.pk)
        to_act = SYSTEM.to_act(session.state)
        seat = to_act[0]
        if session.seats.get(number=seat).is_bot:
            play_tasks.bot_move.apply(args=(session.pk, session.seq))
            continue
        action = SYSTEM.legal_actions(session.state, seat)[0]
        status = play_tasks.apply_action.apply(args=(session.pk, seat, session.seq, action)).get()
        assert status == "applied"
    return GameSession.objects.get(pk=session.pk)
