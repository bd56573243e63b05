"""Who sees what of a «Восхождение» game, over every page, socket and JSON of the play app.

The secrets are read from the engine's own state: the instance ids (iid) of the other
players' Hands and of every Main Deck (their order is hidden from their owner too,
1.4.2.6-1.4.2.7), the card ids and printed names found only there, and the game's seed
(which deals every deck). Every response a viewer gets is searched for them: the game
page, the table fragment, the state JSON, the spectate page, the match page, the join
page, the replay of a finished game, and both websockets. Viewers: the two players,
the organiser of the event (staff, not a player), a logged-in spectator and an
anonymous visitor. A player also cannot act or concede for another seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse

from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.game import SYSTEM
from play import tasks
from play.models import ActionLog, GameSession
from play.services.engines import card_label
from play.services.reading import replay_state
from play.services.starting import create_friend_game, join_game, start_match
from tests.play.helpers import communicator, fresh, legal_deck_text
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 3)


def event_game(organiser, first, second) -> GameSession:
    """An online «Восхождение» event run by ``organiser`` (who does not play): game 1 of
    its only match, between ``first`` and ``second``, with the event's clocks."""
    event = create_event(
        organiser,
        name="Hidden Cup",
        format="blitz",
        swiss_rounds=1,
        best_of=1,
        play_online=True,
    )
    for n, user in enumerate((first, second), start=1):
        reg = register(event, user=user)
        submit_decklist(user, reg, legal_deck_text(n))
    event = start_event(organiser, event)
    rnd = publish_round(organiser, pair_next_round(organiser, event))
    session = start_match(rnd.matches.get())
    assert session is not None and session.status == GameSession.Status.RUNNING
    return session


def move(session: GameSession) -> str:
    """One move of whoever acts, chosen like the heuristic bot, through the worker's task."""
    session = fresh(session)
    (seat,) = SYSTEM.to_act(session.state)
    action = BRAIN.choose(session.state, seat)
    return tasks.apply_action.apply(args=(session.pk, seat, session.seq, action)).get()


def play_until_both_hold_cards(session: GameSession, limit: int = 400) -> GameSession:
    for _ in range(limit):
        session = fresh(session)
        hands = [p["hand"] for p in session.state["players"]]
        if all(hands) and session.status == GameSession.Status.RUNNING:
            return session
        assert move(session) == "applied"
    raise AssertionError("nobody drew a card")


# ---------------------------------------------------------------- the secrets of a state


def _names(card_id: str) -> set[str]:
    return {card_label(SYSTEM, card_id, lang) for lang in ("en", "ru")}


def _public_iids(session: GameSession, upto: int | None = None) -> set[int]:
    """Instances a public event of the first ``upto`` actions named with their card
    (played, discarded, milled, made): everyone saw those, wherever they went after."""
    known = set()
    rows = ActionLog.objects.filter(session=session)
    if upto is not None:
        rows = rows.filter(seq__lt=upto)
    for events in rows.values_list("events", flat=True):
        for event in events:
            if isinstance(event.get("iid"), int) and isinstance(event.get("card"), str):
                known.add(event["iid"])
    return known


class Secrets:
    """What ``seat`` (``None``: anyone without a seat) must never be sent of ``state``."""

    def __init__(self, state: Mapping[str, Any], seat: int | None, public: set[int] = frozenset()):
        hidden: set[int] = set()
        for p in state["players"]:
            looked = set(p.get("looked", ())) if p["seat"] == seat else set()
            hidden |= set(p["main"]) - looked  # 1.4.2.6: nobody, the owner included
            if p["seat"] != seat:
                hidden |= set(p["hand"])  # 1.4.2.7: the owner only
        self.iids = hidden - set(public)
        cards = state["cards"]
        shown = {c["card"] for c in cards if c["iid"] not in self.iids}
        self.card_ids = {cards[i]["card"] for i in self.iids} - shown
        shown_names = set().union(*(_names(c) for c in shown)) if shown else set()
        self.names = set().union(*(_names(c) for c in self.card_ids)) - shown_names
        self.names = {n for n in self.names if len(n) > 3}
        self.seat = seat
        self.hand_iids = {i for p in state["players"] if p["seat"] != seat for i in p["hand"]}
        self.main_iids = {i for p in state["players"] for i in p["main"]}

    def nontrivial(self) -> None:
        """The check means something: there are hidden hands and decks to leak."""
        assert self.hand_iids and self.main_iids and self.card_ids


def _iids_in(value: Any, found: set[int] | None = None) -> set[int]:
    """Every instance id a JSON value names (``iid``, ``source``, ``affected``...)."""
    found = set() if found is None else found
    if isinstance(value, Mapping):
        # A Direct Attack's or a Confrontation's target is a player, not a card (5.6.3.2.2).
        seat_target = value.get("type") in ("direct_attack", "declare")
        for key, item in value.items():
            card_key = key in ("iid", "source") or (key == "target" and not seat_target)
            if card_key and type(item) is int:
                found.add(item)
            _iids_in(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _iids_in(item, found)
    return found


def _strings_in(value: Any) -> Iterable[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings_in(item)
    elif isinstance(value, str):
        yield value


def assert_json_keeps(secrets: Secrets, data: Mapping[str, Any], seed: int, where: str) -> None:
    assert data["seat"] == secrets.seat, where
    leaked = _iids_in(data) & secrets.iids
    assert not leaked, (where, "hidden instances", leaked)
    strings = set(_strings_in(data))
    assert not strings & secrets.card_ids, (where, strings & secrets.card_ids)
    assert not strings & secrets.names, (where, strings & secrets.names)
    text = json.dumps(data, ensure_ascii=False)
    assert str(seed) not in text, where
    for player in data["view"]["players"]:
        if player["seat"] != secrets.seat:
            assert player["hand"] is None, where
        assert player["hand_count"] == len(player["hand"] or ()) or player["hand"] is None


def assert_page_keeps(secrets: Secrets, text: str, seed: int, where: str) -> None:
    for iid in secrets.iids:
        assert f'data-iid="{iid}"' not in text, (where, iid)
    for card_id in secrets.card_ids:
        assert card_id not in text, (where, card_id)
    for name in secrets.names:
        assert name not in text, (where, name)
    assert str(seed) not in text, where


# ---------------------------------------------------------------- pages and JSON


@pytest.fixture
def table(alice, bob, charlie):
    """Bob and Charlie play game 1 of alice's event; both hold cards."""
    return play_until_both_hold_cards(event_game(alice, bob, charlie))


def _viewers(session, alice, bob, charlie, dave):
    seats = {s.user_id: s.number for s in session.seats.all()}
    return [
        ("bob", bob, seats[bob.pk]),
        ("charlie", charlie, seats[charlie.pk]),
        ("organiser", alice, None),
        ("spectator", dave, None),
        ("anonymous", None, None),
    ]


def _check_every_page(client, session, viewers) -> int:
    """Every page and JSON of ``session`` as each viewer gets it; returns the checks made."""
    checks = 0
    public = _public_iids(session)
    for who, user, seat in viewers:
        client.logout()
        if user is not None:
            client.force_login(user)
        own, anyone = Secrets(session.state, seat, public), Secrets(session.state, None, public)
        own.nontrivial()
        pages = [
            ("game", reverse("play:game", args=[session.pk]), own),
            ("table", reverse("play:table", args=[session.pk]), own),
            ("spectate", reverse("play:spectate", args=[session.pk]), anyone),
            ("table?spectate", reverse("play:table", args=[session.pk]) + "?spectate=1", anyone),
            ("match", reverse("play:match", args=[session.match_id]), own),
        ]
        for name, url, secrets in pages:
            response = client.get(url, follow=True)
            if user is None and name == "match":
                assert response.redirect_chain[-1][0].startswith(reverse("login")), who
                continue
            assert response.status_code == 200, (who, name)
            assert_page_keeps(secrets, response.content.decode(), session.seed, f"{who} {name}")
            checks += 1
        data = client.get(reverse("play:state", args=[session.pk])).json()
        assert_json_keeps(own, data, session.seed, f"{who} state")
        if seat is not None:
            # The check would catch a leak: the player's own hand is there, in full.
            mine = {c["iid"] for p in data["view"]["players"] if p["hand"] for c in p["hand"]}
            assert mine == set(session.state["players"][seat]["hand"])
        checks += 1
    return checks


def test_no_viewer_gets_another_seats_hand_or_any_deck_order_from_pages_or_json(
    client, alice, bob, charlie, dave
):
    session = play_until_both_hold_cards(event_game(alice, bob, charlie))
    viewers = _viewers(session, alice, bob, charlie, dave)
    checks = 0
    for _moment in range(4):  # a few moments of the game, the hands changing in between
        checks += _check_every_page(client, fresh(session), viewers)
        for _ in range(12):
            if fresh(session).status == GameSession.Status.RUNNING:
                assert move(session) == "applied"
        if fresh(session).status != GameSession.Status.RUNNING:
            break
        session = play_until_both_hold_cards(session)
    assert checks >= 4 * 5 * 5


def test_the_replay_of_a_finished_game_shows_only_the_public_view_at_every_step(
    client, alice, bob, charlie, settings
):
    settings.PLAY_MAX_MOVES = 120  # the game is called (a drawn game) to keep the test short
    session = play_until_both_hold_cards(event_game(alice, bob, charlie))
    while fresh(session).status == GameSession.Status.RUNNING:
        assert move(session) == "applied"
    session = fresh(session)
    url = reverse("play:replay", args=[session.pk])
    checked = 0
    for user in (bob, alice, None):
        client.logout()
        if user is not None:
            client.force_login(user)
        for step in range(0, session.seq + 1, 7):
            state = replay_state(session, step)
            secrets = Secrets(state, None, _public_iids(session, step))
            response = client.get(url, {"step": step})
            assert response.status_code == 200
            assert_page_keeps(secrets, response.content.decode(), session.seed, f"replay {step}")
            if secrets.hand_iids:
                checked += 1
    assert checked >= 6


def test_the_join_page_of_a_running_casual_game_shows_no_hand(client, alice, bob, charlie):
    session = create_friend_game(alice, "voskhozhdenie")
    token = session.invite_token
    client.force_login(charlie)
    waiting = client.get(reverse("play:join", args=[token]))
    assert waiting.status_code == 200
    session = join_game(bob, token)
    session = play_until_both_hold_cards(session)
    for user in (charlie, bob, None):
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(reverse("play:join", args=[token]))
        if user is None:
            assert response.status_code == 302 and reverse("login") in response["Location"]
            continue
        assert response.status_code == 200
        secrets = Secrets(session.state, None, _public_iids(session))
        assert_page_keeps(secrets, response.content.decode(), session.seed, "join")
    # Taking a seat in a game already under way is refused, and changes nothing.
    client.force_login(charlie)
    before = fresh(session)
    client.post(reverse("play:join", args=[token]))
    after = fresh(session)
    assert after.seats.filter(user=charlie).count() == 0
    assert (after.seq, after.state) == (before.seq, before.state)


# ---------------------------------------------------------------- acting for another


def _other_seats_move(session: GameSession, seat: int) -> dict:
    (acting,) = SYSTEM.to_act(session.state)
    assert acting != seat
    return SYSTEM.legal_actions(session.state, acting)[0]


def test_nobody_acts_or_concedes_for_another_seat_over_http(
    client, table, alice, bob, charlie, dave
):
    session = fresh(table)
    seats = {s.user_id: s.number for s in session.seats.all()}
    (acting,) = SYSTEM.to_act(session.state)
    waiting_user = bob if seats[bob.pk] != acting else charlie
    their_move = _other_seats_move(session, seats[waiting_user.pk])
    url = reverse("play:act", args=[session.pk])
    for user in (waiting_user, alice, dave):
        client.force_login(user)
        body = {"seq": session.seq, "action": their_move, "seat": acting}
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        assert response.status_code == 403, user
        assert response.json()["error"]
    client.logout()
    anonymous = client.post(
        url,
        data=json.dumps({"seq": session.seq, "action": their_move}),
        content_type="application/json",
    )
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    after = fresh(session)
    assert (after.seq, after.state) == (session.seq, session.state)

    # Conceding: the organiser, a spectator and a visitor cannot; a player concedes only
    # their own seat, whatever the form says.
    for user in (alice, dave):
        client.force_login(user)
        client.post(reverse("play:concede", args=[session.pk]), {"seat": acting})
        assert fresh(session).status == GameSession.Status.RUNNING
    client.logout()
    client.post(reverse("play:concede", args=[session.pk]), {"seat": acting})
    assert fresh(session).status == GameSession.Status.RUNNING
    client.force_login(waiting_user)
    client.post(reverse("play:concede", args=[session.pk]), {"seat": acting})
    ended = fresh(session)
    assert ended.status == GameSession.Status.FINISHED and ended.end_reason == "concede"
    assert ended.result["eliminated"] == [seats[waiting_user.pk]]
    assert ended.result["winners"] == [acting]


# ---------------------------------------------------------------- websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_each_socket_of_a_voskhozhdenie_game_keeps_the_secrets_and_acts_only_for_its_seat(
    alice, bob, charlie, dave
):
    session = play_until_both_hold_cards(event_game(alice, bob, charlie))
    seats = {s.user_id: s.number for s in session.seats.all()}
    viewers = {
        "bob": (bob, seats[bob.pk], False),
        "charlie": (charlie, seats[charlie.pk], False),
        "organiser": (alice, None, False),
        "spectator": (dave, None, False),
        "anonymous": (None, None, False),
        "bob-spectating": (bob, None, True),
    }

    async def receive_all(socks) -> dict[str, dict]:
        return {name: await comm.receive_json_from(timeout=5) for name, comm in socks.items()}

    async def scenario():
        socks = {
            name: communicator(session, user, spectate)
            for name, (user, _seat, spectate) in viewers.items()
        }
        for comm in socks.values():
            connected, _ = await comm.connect()
            assert connected
        received = [await receive_all(socks)]
        refusals = []
        for _ in range(25):
            current = await database_sync_to_async(fresh)(session)
            if current.status != GameSession.Status.RUNNING:
                break
            (acting,) = SYSTEM.to_act(current.state)
            waiting = "bob" if viewers["bob"][1] != acting else "charlie"
            their_move = SYSTEM.legal_actions(current.state, acting)[0]
            if len(refusals) < 3:
                # The waiting player sends the acting seat's move, naming that seat: refused
                # to them alone; the organiser's socket and a spectator's send nothing on.
                for name in (waiting, "organiser", "spectator", "bob-spectating"):
                    await socks[name].send_json_to(
                        {"seq": current.seq, "action": their_move, "seat": acting}
                    )
                refusals.append(await socks[waiting].receive_json_from(timeout=5))
                for name, comm in socks.items():
                    assert await comm.receive_nothing(timeout=0.1), name
                again = await database_sync_to_async(fresh)(session)
                assert again.seq == current.seq
            assert await database_sync_to_async(move)(session) == "applied"
            received.append(await receive_all(socks))
        for comm in socks.values():
            await comm.disconnect()
        return received, refusals

    received, refusals = async_to_sync(scenario)()
    assert len(refusals) == 3
    for refusal in refusals:
        assert refusal["type"] == "error" and "not your turn" in refusal["data"]["error"]
    final = fresh(session)
    checked = 0
    for messages in received:
        seq = messages["bob"]["data"]["seq"]
        state = replay_state(final, seq)
        public = _public_iids(final, seq)
        for name, (_user, seat, _spectate) in viewers.items():
            data = messages[name]["data"]
            assert data["seq"] == seq, name
            secrets = Secrets(state, seat, public)
            assert_json_keeps(secrets, data, final.seed, f"{name} socket at {seq}")
            if seat is not None:
                mine = {c["iid"] for p in data["view"]["players"] if p["hand"] for c in p["hand"]}
                assert mine == set(state["players"][seat]["hand"])
            checked += 1
    assert checked >= 6 * 10
