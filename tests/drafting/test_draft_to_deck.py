"""From the draft to a deck: the pass direction and both neighbours, one wording of the
seat a player waits on, a double click that is no error, what a legal deck still needs
while drafting, a suggestion that says why no legal deck exists, a refusal that lists
every broken rule, and the deck builder's columns and cost curve."""

from __future__ import annotations

import re

import pytest

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.decks import check_deck
from drafting.services.kits import kit
from drafting.services.picks import auto_pick, highlight, make_pick
from drafting.services.pools import deck_needs, pool_of, supply_choices
from drafting.views import passing
from engine.berserk.limited import KIT as BERSERK
from engine.voskhozhdenie.limited import KIT as VOSKHOZHDENIE
from engine.voskhozhdenie.loader import load_system
from tests.drafting.test_pods import draft_all, fresh, my_seat, snapshot, started_pod
from tests.toygame.decks import KIT as TOY

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- passing


def test_the_pass_direction_alternates_and_names_both_neighbours():
    names = {n: f"P{n + 1}" for n in range(8)}
    first = passing({"seats": 8, "round": 0}, 0, names)
    assert first["pass_left"] is True
    assert (first["pass_to"]["number"], first["pass_to"]["name"]) == (2, "P2")
    assert (first["pass_from"]["number"], first["pass_from"]["name"]) == (8, "P8")
    second = passing({"seats": 8, "round": 1}, 0, names)
    assert second["pass_left"] is False
    assert second["pass_to"]["number"] == 8 and second["pass_from"]["number"] == 2
    # An open-row draft has no direction.
    assert passing({"kind": "open_row", "seats": 2, "round": 0}, 0, names) == {}


def test_the_room_shows_the_direction_and_names_the_waited_seat_as_the_table_does(client, alice):
    pod, seat, pack = started_pod(alice)
    seats = {s.number: s for s in pod.seats.all()}
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    left = seats[(seat.number + 1) % 8]
    right = seats[(seat.number - 1) % 8]
    assert "Passing left" in page
    assert f"to {left.name} (seat {left.number + 1})" in page
    assert f"from {right.name} (seat {right.number + 1})" in page

    make_pick(alice, pod, 1, pack["cards"][0])  # the bots have not picked: alice waits
    pod = fresh(pod)
    waited = draft_core.waiting_on(pod.state)[seat.number]
    assert waited == right.number
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    words = f"{right.name} (seat {right.number + 1})"
    assert f"Waiting for {words} to pass you a pack…" in page
    assert f"waiting on {words}" in page  # the seats table, same seat, same words
    # The page's script words live updates from the same templates.
    assert 'data-waiting="Waiting for {name} (seat {n}) to pass you a pack…"' in page
    assert 'data-waiting="waiting on {name} (seat {n})"' in page


def test_a_seat_done_with_its_booster_waits_for_the_next_one_not_on_a_neighbour(client, alice):
    # Lock-step: alice, then every bot, picks once from the pack it holds, until alice
    # takes the last card of booster 1. Each bot still holds a pack of one card, which
    # goes to no one: alice waits for the booster to end (3.2.5.1.4), not for a pack.
    pod, seat, _pack = started_pod(alice)
    for _ in range(15):
        pod = fresh(pod)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
        if len(pack["cards"]) == 1:
            break
        for bot in pod.seats.exclude(pk=seat.pk):
            pod = fresh(pod)
            auto_pick(pod.pk, bot.number, draft_core.pick_number(pod.state, bot.number))
    pod = fresh(pod)
    assert pod.state["round"] == 0 and pod.state["cards_left"] == 7
    assert seat.number not in draft_core.waiting_on(pod.state)
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert "Waiting for the next pack…</p>" in page
    assert "to pass you a pack…</p>" not in page
    # A live update that names no seat words it so too.
    assert 'data-idle="Waiting for the next pack…"' in page


def test_a_pushed_pack_names_the_neighbours_too(alice):
    from drafting.views import pack_context_from_message

    message = {
        "pod": 1,
        "system": "voskhozhdenie",
        "seat": 2,
        "names": ["A", "B", "C", "D"],
        "cards": [],
        "pick": 16,
        "round": 1,
        "round_pick": 1,
        "rounds": 4,
        "queue": 1,
        "deadline": None,
    }
    ctx = pack_context_from_message(message)
    assert ctx["pass_left"] is False
    assert ctx["pass_to"]["name"] == "B" and ctx["pass_from"]["name"] == "D"


# ---------------------------------------------------------------- highlight


def test_a_highlight_that_arrives_after_its_pick_is_harmless(client, alice):
    pod, _seat, pack = started_pod(alice)
    client.force_login(alice)
    url = f"/draft/{pod.pk}/highlight/"
    card = pack["cards"][1]
    assert client.post(url, {"card": card, "pick": 1}).status_code == 204
    assert client.post(url, {"card": card, "pick": 1}).status_code == 204  # the same again
    make_pick(alice, pod, 1, card)
    before = snapshot(pod)
    # A double click: the highlight of pick 1 reaches the server after the pick.
    assert client.post(url, {"card": card, "pick": 1}).status_code == 204
    assert snapshot(pod) == before
    # A card outside the pack of the pick the page shows is still refused.
    assert client.post(url, {"card": "VS1-999", "pick": 2}).status_code == 409
    for bad in ("x", "0", "-3"):
        assert client.post(url, {"card": card, "pick": bad}).status_code == 409
    assert snapshot(pod) == before


def test_the_highlight_service_counts_the_pick_number(alice):
    pod, _seat, pack = started_pod(alice)
    highlight(alice, pod, pack["cards"][2], 1)
    assert my_seat(pod, alice).highlighted == pack["cards"][2]
    make_pick(alice, pod, 1, pack["cards"][0])
    after_pick = my_seat(pod, alice).highlighted
    highlight(alice, pod, pack["cards"][3], "1")  # late: nothing changes
    assert my_seat(pod, alice).highlighted == after_pick


# ---------------------------------------------------------------- what a deck needs


def test_each_kit_says_what_a_legal_deck_needs_from_a_pool():
    db = load_system("voskhozhdenie")
    cities = [c.id for c in db.all_cards() if c.type == "city" and not c.minor]
    neutral = [c.id for c in db.all_cards() if c.type == "squad" and not c.colours and not c.minor]
    needs = {n.key: n for n in VOSKHOZHDENIE.deck_needs([cities[0], *neutral[:3]])}
    assert (needs["cities"].have, needs["cities"].need, needs["cities"].rule) == (1, 2, "4.5.5.1")
    assert (needs["main"].have, needs["main"].need, needs["main"].rule) == (3, 20, "4.5.5.3")
    assert not needs["cities"].met and needs["cities"].missing == 1
    assert needs["main"].label("ru") == "Основная колода"
    # A coloured card counts only with a City of its colour.
    red_city = next(
        c for c in db.all_cards() if c.type == "city" and set(c.colours) == {"red"} and not c.minor
    )
    red = next(
        c.id
        for c in db.all_cards()
        if c.type == "squad" and set(c.colours) == {"red"} and not c.minor
    )
    other = [
        c.id for c in db.all_cards() if c.type == "city" and "red" not in c.colours and not c.minor
    ][:2]

    def main(pool: list[str]) -> int:
        return {n.key: n.have for n in VOSKHOZHDENIE.deck_needs(pool)}["main"]

    assert main([*other, red]) == 0  # two Cities, neither red
    assert main([red_city.id, other[0], red]) == 1
    # A City still to be drafted counts as one of the pool's main colour.
    assert main([other[0], red]) == 1
    pool = BERSERK.sealed_pool(["BK1"], 1)
    (deck,) = BERSERK.deck_needs(pool)
    assert (deck.have, deck.need) == (len(pool), 20)
    (toy,) = TOY.deck_needs(["HC1-01"] * 3)
    assert (toy.have, toy.need, toy.rule) == (3, 8, "HC-3")


def test_the_pool_shows_what_a_legal_deck_still_needs_while_drafting(client, alice):
    pod, _seat, pack = started_pod(alice)
    client.force_login(alice)
    response = client.post(
        f"/draft/{pod.pk}/pick/", {"pick": 1, "card": pack["cards"][0]}, HTTP_HX_REQUEST="true"
    )
    answer = response.content.decode()
    assert "A legal deck needs" in answer
    assert re.search(r"Cities [01]/2", answer) and re.search(r"Main Deck \d+/20", answer)
    needs = {n["key"]: n for n in deck_needs(fresh(pod), my_seat(pod, alice))}
    assert needs["cities"]["need"] == 2 and needs["main"]["need"] == 20
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert "A legal deck needs" in page and 'class="need need-short"' in page


def test_supplied_cards_count_towards_what_a_deck_needs(alice):
    pod, seat, _pack = started_pod(alice)
    before = {n["key"]: n["have"] for n in deck_needs(pod, seat)}
    Pod.objects.filter(pk=pod.pk).update(supplied_cards=supply_choices(pod)[:1])
    after = {n["key"]: n["have"] for n in deck_needs(fresh(pod), seat)}
    assert after["cities"] == before["cities"] + kit(pod).supply.copies


# ---------------------------------------------------------------- suggest and submit


@pytest.fixture
def built_pod(alice):
    pod, _seat, _pack = started_pod(alice, bots_inline=True)
    pod = draft_all(pod, alice)
    assert pod.status == Pod.Status.BUILDING
    return pod


def one_city_only(pod: Pod, seat: Seat) -> Pod:
    """The seat's pool keeps a single City: no legal deck can be built from it."""
    db = load_system(pod.game_system)
    pool = pool_of(pod, seat)
    cities = [c for c in pool if db.card(c).type == "city"]
    state = dict(pod.state)
    pools = list(state["pools"])
    city = cities[0] if cities else supply_choices(pod)[0]
    pools[seat.number] = [c for c in pool if c not in cities] + [city]
    state["pools"] = pools
    Pod.objects.filter(pk=pod.pk).update(state=state)
    return fresh(pod)


def test_suggest_gives_a_legal_deck_when_the_pool_allows_one(client, alice, built_pod):
    client.force_login(alice)
    page = client.get(f"/draft/{built_pod.pk}/deck/?suggest=1").content.decode()
    # The person's picks in this fixture are arbitrary, so now and then the pool itself
    # allows no legal deck: then the page must say so instead.
    if all(need["met"] for need in deck_needs(built_pod, my_seat(built_pod, alice))):
        assert "This deck is legal." in page and "No legal deck" not in page
    else:
        assert "No legal deck" in page


def test_suggest_says_which_rule_no_deck_can_meet_and_what_the_organiser_supplies(
    client, alice, built_pod
):
    seat = my_seat(built_pod, alice)
    pod = one_city_only(built_pod, seat)
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/deck/?suggest=1").content.decode()
    assert "No legal deck can be built from this pool." in page
    assert "Rule 4.5.5.1:" in page
    assert "Cities: the pool gives 1 of 2, 1 missing." in page
    assert "The organiser supplies no Cities in this pod." in page
    # With Cities supplied by the organiser, the same pool has a legal deck.
    Pod.objects.filter(pk=pod.pk).update(supplied_cards=supply_choices(pod))
    page = client.get(f"/draft/{pod.pk}/deck/?suggest=1").content.decode()
    assert "No legal deck" not in page and "This deck is legal." in page
    assert my_seat(pod, alice).deck is None  # a suggestion saves nothing


def test_submitting_an_illegal_deck_lists_every_broken_rule_and_saves_nothing(
    client, alice, built_pod
):
    client.force_login(alice)
    pool = pool_of(built_pod, my_seat(built_pod, alice))
    post = {f"slot-{i}": "main" for i in range(5)}  # five cards, no City
    before = snapshot(built_pod)
    response = client.post(f"/draft/{built_pod.pk}/deck/", post)
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r"it breaks \d+ rules\.", page) and "Nothing was saved." in page
    assert "<strong>Rule 4.5.5.1:</strong>" in page and "<strong>Rule 4.5.5.3:</strong>" in page
    assert snapshot(built_pod) == before
    # The builder keeps what was sent: the five cards in the Main Deck column.
    assert len(pool) > 5


# ---------------------------------------------------------------- the builder


def test_the_builder_has_deck_and_sideboard_columns_counts_and_a_curve(client, alice, built_pod):
    client.force_login(alice)
    page = client.get(f"/draft/{built_pod.pk}/deck/?suggest=1").content.decode()
    for key in ("cities", "main", "reinforcement", ""):
        assert 'class="deck-column' in page and f'data-section="{key}"' in page
    assert "Sideboard" in page and 'class="curve"' in page
    seat = my_seat(built_pod, alice)
    deck = kit(built_pod).bot_deck(pool_of(built_pod, seat))
    main = re.search(r'id="col-main">[^<]*<span class="col-count" data-count>(\d+)<', page)
    assert main and int(main.group(1)) == len(deck["main"])
    assert check_deck(built_pod, seat, deck) == []
    # The live check answers with the counts, the curve and the problems.
    check = client.post(f"/draft/{built_pod.pk}/deck/check/", {"slot-0": "main"})
    text = check.content.decode()
    assert 'data-count-of="main"' in text and "rule 4.5.5.1" in text
    # Every card keeps its menu: the form works without script.
    pool_size = len(pool_of(built_pod, seat))
    assert page.count('<select name="slot-') == pool_size
    assert page.count('draggable="true"') == pool_size


def test_the_builder_reads_in_russian(client, alice, built_pod):
    client.force_login(alice)
    client.cookies["django_language"] = "ru"
    page = client.get(f"/draft/{built_pod.pk}/deck/?suggest=1", HTTP_ACCEPT_LANGUAGE="ru").content
    text = page.decode()
    assert "Основная колода" in text
