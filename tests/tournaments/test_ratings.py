"""Ratings: the pure OpenSkill module alone (convergence on simulated players of known
strength, pods, teams, seeding), then the service, its task hook, the pages and the API."""

from __future__ import annotations

import math
import random
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from engine.core import registry
from tests.tournaments.factories import make_event, play_round
from tournaments import ratings as core
from tournaments import recovery, sweeps, tasks
from tournaments.models import Match, PlayerRating, RatedMatch
from tournaments.services import ratings
from tournaments.services.corrections import correct_result
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.penalties import issue_penalty, penalty_types
from tournaments.services.placements import enter_placements
from tournaments.services.results import enter_result
from tournaments.services.starting import start_event
from tournaments.services.teams import register_team

# ---------------------------------------------------------------- the pure module


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation of two lists without ties."""
    n = len(xs)
    rank_x = {i: r for r, i in enumerate(sorted(range(n), key=lambda i: xs[i]))}
    rank_y = {i: r for r, i in enumerate(sorted(range(n), key=lambda i: ys[i]))}
    d2 = sum((rank_x[i] - rank_y[i]) ** 2 for i in range(n))
    return 1 - 6 * d2 / (n * (n * n - 1))


def strengths(n: int) -> list[float]:
    """Known strengths, evenly spread: the strongest beats the weakest 99.8 % of the time."""
    return [-3 + 6 * i / (n - 1) for i in range(n)]


def simulate_two_player(n: int, rounds: int, seed: int) -> tuple[list[float], dict]:
    rng = random.Random(seed)
    strength = strengths(n)
    skills: dict[int, core.Skill] = {}
    for _ in range(rounds):
        players = list(range(n))
        rng.shuffle(players)
        for a, b in zip(players[::2], players[1::2], strict=True):
            p_a = 1 / (1 + math.exp(strength[b] - strength[a]))  # logistic in the difference
            winner = 0 if rng.random() < p_a else 1
            skills.update(core.rate(skills, core.two_player_outcome([a], [b], winner)))
    return strength, skills


def placement_order(pod: list[int], strength: list[float], rng: random.Random) -> list[int]:
    """A pod's finishing order drawn as Plackett–Luce with weights e^strength."""
    left, order = list(pod), []
    while left:
        weights = [math.exp(strength[p]) for p in left]
        x = rng.random() * sum(weights)
        chosen = left[-1]
        for p, w in zip(left, weights, strict=True):
            x -= w
            if x <= 0:
                chosen = p
                break
        order.append(chosen)
        left.remove(chosen)
    return order


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ratings_converge_on_players_of_known_strength_in_30_rounds(seed):
    strength, skills = simulate_two_player(n=32, rounds=30, seed=seed)
    rho = spearman(strength, [skills[p].ordinal for p in range(32)])
    print(f"two-player, 32 players, 30 rounds, seed {seed}: Spearman {rho:.3f}")
    assert rho >= 0.9
    assert all(skills[p].matches == 30 for p in range(32))


def test_pod_placements_converge_too():
    rng = random.Random(7)
    strength = strengths(32)
    skills: dict[int, core.Skill] = {}
    for _ in range(30):
        players = list(range(32))
        rng.shuffle(players)
        for k in range(0, 32, 4):
            pod = players[k : k + 4]
            order = placement_order(pod, strength, rng)
            outcome = core.Outcome(
                sides=tuple((p,) for p in pod), ranks=tuple(order.index(p) + 1 for p in pod)
            )
            skills.update(core.rate(skills, outcome))
    rho = spearman(strength, [skills[p].ordinal for p in range(32)])
    print(f"pods of 4, 32 players, 30 rounds: Spearman {rho:.3f}")
    assert rho >= 0.9


def test_a_win_moves_the_winner_up_the_loser_down_and_both_become_surer():
    before = {"a": core.NEW, "b": core.NEW}
    after = core.rate(before, core.two_player_outcome(["a"], ["b"], 0))
    assert after["a"].mu > core.MU > after["b"].mu
    assert after["a"].sigma < core.SIGMA and after["b"].sigma < core.SIGMA
    assert after["a"].matches == after["b"].matches == 1
    assert before == {"a": core.NEW, "b": core.NEW}  # the input is not changed


def test_a_draw_between_equals_moves_neither_mean():
    after = core.rate({}, core.two_player_outcome(["a"], ["b"], None))
    assert after["a"].mu == pytest.approx(core.MU)
    assert after["b"].mu == pytest.approx(core.MU)


def test_in_a_pod_each_place_gains_more_than_the_next():
    outcome = core.Outcome(sides=(("w",), ("x",), ("y",), ("z",)), ranks=(2, 1, 4, 3))
    after = core.rate({}, outcome)
    assert after["x"].mu > after["w"].mu > after["z"].mu > after["y"].mu


def test_two_against_two_moves_both_teammates():
    after = core.rate({}, core.two_player_outcome(["a", "b"], ["c", "d"], 1))
    assert after["c"].mu > core.MU and after["d"].mu > core.MU
    assert after["a"].mu < core.MU and after["b"].mu < core.MU


def test_rate_all_folds_outcomes_in_order():
    outcomes = [core.two_player_outcome(["a"], ["b"], 0)] * 3
    after = core.rate_all(outcomes)
    step = {}
    for outcome in outcomes:
        step.update(core.rate(step, outcome))
    assert after == step and after["a"].matches == 3


@pytest.mark.parametrize(
    ("sides", "ranks"),
    [
        ((("a",),), (1,)),
        ((("a",), ("b",)), (1,)),
        ((("a",), ()), (1, 2)),
        ((("a",), ("a",)), (1, 2)),
    ],
)
def test_an_outcome_that_cannot_be_rated_is_refused(sides, ranks):
    with pytest.raises(ValueError):
        core.Outcome(sides=sides, ranks=ranks)


def test_a_rating_seeded_first_round_pairs_top_half_against_bottom_half():
    skills = {p: core.Skill(mu=30 - p, sigma=1) for p in range(7)}
    pairs, bye = core.seeded_first_round([3, 0, 6, 5, 1, 4, 2], skills)
    assert bye == 6  # the weakest
    assert pairs == [(0, 3), (1, 4), (2, 5)]


def test_new_players_rank_below_proven_ones_of_the_same_mean():
    proven = core.Skill(mu=core.MU, sigma=2.0, matches=20)
    assert core.seeded_order(["new", "proven"], {"proven": proven}) == ["proven", "new"]


# ---------------------------------------------------------------- the service


def user_ids(match: Match) -> list[int]:
    return [seat.registration.user_id for seat in match.seats.order_by("seat")]


@pytest.mark.django_db
def test_a_final_match_is_counted_once_however_often_it_is_rated(alice):
    event, _ = make_event(alice, players=4)
    rnd = play_round(alice, event)  # seat 0 wins 2-0 everywhere
    match = rnd.matches.order_by("table").first()
    winner, loser = user_ids(match)
    assert ratings.rate_round(rnd.pk) == 2
    assert ratings.rate_match(match.pk) is False
    assert ratings.rate_round(rnd.pk) == 0
    assert RatedMatch.objects.filter(match__round=rnd).count() == 2
    won = PlayerRating.objects.get(user_id=winner, game_system=event.game_system)
    lost = PlayerRating.objects.get(user_id=loser, game_system=event.game_system)
    assert won.matches == lost.matches == 1
    assert won.mu > lost.mu
    assert won.ordinal == pytest.approx(won.mu - 3 * won.sigma)


@pytest.mark.django_db
def test_a_result_queues_the_rating_task_on_commit(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(tasks.rate_round, "apply_async", lambda args, **kw: queued.append(args))
    event, _ = make_event(alice, players=4)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = play_round(alice, event)
    assert queued and set(queued) == {(rnd.pk,)}
    assert tasks.rate_round(rnd.pk) == 2
    assert tasks.rate_round(rnd.pk) == 0  # a second run changes nothing


@pytest.mark.django_db
def test_the_sweep_requeues_a_round_whose_rating_task_was_lost(alice, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.rate_round, "delay", lambda pk: queued.append(pk))
    event, _ = make_event(alice, players=4)
    rnd = play_round(alice, event)  # no task ran: nothing was rated
    now = timezone.now()
    assert recovery._matches_not_rated(now, now - timedelta(minutes=5)) == 0  # not late yet
    later = now + timedelta(minutes=5)
    assert recovery._matches_not_rated(later, later - timedelta(seconds=30)) == 1
    assert queued == [rnd.pk]
    assert recovery._matches_not_rated(later, later - timedelta(seconds=30)) == 0  # claimed
    ratings.rate_round(rnd.pk)
    assert not Match.objects.filter(round=rnd, is_bye=False, rated__isnull=True).exists()


@pytest.mark.django_db
def test_rebuild_gives_the_incremental_ratings_and_counts_nothing_twice(alice):
    event, _ = make_event(alice, players=6)
    rounds = [play_round(alice, event, pick=lambda m: [1, 0, 1]) for _ in range(3)]
    for rnd in rounds:
        ratings.rate_round(rnd.pk)
    incremental = {
        r.user_id: (r.mu, r.sigma, r.matches) for r in PlayerRating.objects.order_by("user_id")
    }
    assert ratings.rebuild(event.game_system) == 9
    rebuilt = {
        r.user_id: (r.mu, r.sigma, r.matches) for r in PlayerRating.objects.order_by("user_id")
    }
    assert rebuilt.keys() == incremental.keys()
    for user_id, (mu, sigma, matches) in incremental.items():
        assert rebuilt[user_id] == (pytest.approx(mu), pytest.approx(sigma), matches)
    assert RatedMatch.objects.count() == 9


def ratings_now() -> dict[int, tuple[float, float, int]]:
    return {r.user_id: (r.mu, r.sigma, r.matches) for r in PlayerRating.objects.order_by("user_id")}


@pytest.mark.django_db
def test_a_corrected_result_re_rates_both_players_as_a_full_rebuild_would(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    event, _ = make_event(alice, players=6)
    rounds = [play_round(alice, event, pick=lambda m: [0, 1, 0]) for _ in range(3)]
    for rnd in rounds:
        ratings.rate_round(rnd.pk)
    match = rounds[0].matches.filter(is_bye=False).order_by("table").first()
    first, second = user_ids(match)
    before = ratings_now()
    queued = []
    monkeypatch.setattr(
        tasks.rebuild_ratings, "apply_async", lambda args, **kw: queued.append(args)
    )
    cache.delete(tasks._rebuild_pending_key(event.game_system))  # none left by another test

    with django_capture_on_commit_callbacks(execute=True):
        correct_result(alice, match, [1, 1])  # was 2-1 to seat 0: now 0-2

    assert queued == [(event.game_system,)]
    assert tasks.rebuild_ratings(event.game_system) == 9  # the queued task, run
    after = ratings_now()
    assert after[first][0] < before[first][0] and after[second][0] > before[second][0]
    ratings.rebuild(event.game_system)  # a full rebuild from scratch gives the same
    assert ratings_now() == {
        u: (pytest.approx(mu), pytest.approx(sigma), n) for u, (mu, sigma, n) in after.items()
    }
    assert tasks.rebuild_ratings(event.game_system) == 9  # a second run changes nothing
    assert ratings_now() == {
        u: (pytest.approx(mu), pytest.approx(sigma), n) for u, (mu, sigma, n) in after.items()
    }


@pytest.mark.django_db
def test_a_lost_rebuild_is_queued_again_by_the_sweep_and_rates_as_a_full_rebuild(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    event, _ = make_event(alice, players=6)
    rounds = [play_round(alice, event, pick=lambda m: [0, 1, 0]) for _ in range(2)]
    for rnd in rounds:
        ratings.rate_round(rnd.pk)
    match = rounds[0].matches.filter(is_bye=False).order_by("table").first()
    before = ratings_now()

    def broker_down(args, **kw):
        raise OperationalError("the broker is down")

    monkeypatch.setattr(tasks.rebuild_ratings, "apply_async", broker_down)
    cache.delete(tasks._rebuild_pending_key(event.game_system))  # none left by another test
    with django_capture_on_commit_callbacks(execute=True):
        correct_result(alice, match, [1, 1])  # the rebuild it queues is lost
    assert ratings_now() == before  # stale: nothing re-rated the change

    ran = []
    monkeypatch.setattr(
        tasks.rebuild_ratings,
        "delay",
        lambda game: ran.append(tasks.rebuild_ratings.apply(args=(game,)).get()),
    )
    now = timezone.now()
    assert recovery._ratings_stale(now, now - timedelta(minutes=5)) == 0  # not late yet
    later = now + timedelta(minutes=5)
    assert recovery._ratings_stale(later, later - timedelta(seconds=30)) == 1
    assert ran == [6]  # the rebuild, run: 2 rounds of 3 matches
    swept = ratings_now()
    assert swept != before
    ratings.rebuild(event.game_system)  # a full rebuild from scratch gives the same
    assert ratings_now() == {
        u: (pytest.approx(mu), pytest.approx(sigma), n) for u, (mu, sigma, n) in swept.items()
    }
    # Nothing is stale any more: later sweeps queue nothing (claimed or not).
    match.refresh_from_db()
    cache.delete(sweeps._claim_key(f"ratings-rebuild:{event.game_system}", 0, match.finished_at))
    assert recovery._ratings_stale(later, later - timedelta(seconds=30)) == 0
    assert not Match.objects.filter(rated__rated_at__lt=F("finished_at")).exists()
    assert ran == [6]


@pytest.mark.django_db
def test_an_override_queues_a_rebuild_only_once_the_result_was_rated(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    event, _ = make_event(alice, players=4)
    rnd = publish_round(alice, pair_next_round(alice, event))
    first, second = rnd.matches.order_by("table")
    enter_result(alice, first, [0, 0])
    enter_result(alice, second, [0, 0])  # the round completes; no task has rated it
    queued = []
    monkeypatch.setattr(
        tasks.rebuild_ratings, "apply_async", lambda args, **kw: queued.append(args)
    )
    cache.delete(tasks._rebuild_pending_key(event.game_system))  # none left by another test

    with django_capture_on_commit_callbacks(execute=True):
        enter_result(alice, first, [1, 1])  # not rated yet: its round's task rates it
    assert queued == []
    ratings.rate_round(rnd.pk)
    with django_capture_on_commit_callbacks(execute=True):
        changed = enter_result(alice, second, [1, 0, 1])
    assert changed.is_final and queued == [(event.game_system,)]


@pytest.mark.django_db
def test_a_penalty_that_changes_a_rated_result_queues_a_rebuild(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    event, _ = make_event(alice, players=4)
    rnd = play_round(alice, event)
    ratings.rate_round(rnd.pk)
    match = rnd.matches.order_by("table").first()
    queued = []
    monkeypatch.setattr(
        tasks.rebuild_ratings, "apply_async", lambda args, **kw: queued.append(args)
    )
    cache.delete(tasks._rebuild_pending_key(event.game_system))  # none left by another test
    loss = next(t for t in penalty_types(event) if t.effect == "match_loss")
    winner = match.seats.get(seat=0).registration

    with django_capture_on_commit_callbacks(execute=True):
        issue_penalty(alice, loss, winner, "Marked cards", match)

    assert queued == [(event.game_system,)]


@pytest.mark.django_db
def test_pod_placements_are_rated_by_place(alice):
    event, _ = make_event(alice, players=4, players_per_game=4, swiss_rounds=2, best_of=1)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    enter_placements(alice, match, [3, 1, 4, 2])
    assert ratings.rate_round(rnd.pk) == 1
    by_user = {r.user_id: r.mu for r in PlayerRating.objects.all()}
    seats = user_ids(match)
    assert by_user[seats[1]] > by_user[seats[3]] > by_user[seats[0]] > by_user[seats[2]]


def a_team_format() -> tuple[str, str]:
    return next(
        (info.key, fmt.key)
        for info in registry.all_systems()
        for fmt in info.formats
        if fmt.team_size == 2
    )


@pytest.mark.django_db
def test_both_members_of_a_team_move_with_its_result(alice, make_user):
    game, fmt = a_team_format()
    event = create_event(
        alice, name="Pairs", game_system=game, format=fmt, swiss_rounds=1, best_of=1
    )
    people = [make_user(f"t{n}") for n in range(8)]
    for n in range(4):
        register_team(event, name=f"Team {n}", members=people[2 * n : 2 * n + 2], actor=alice)
    event = start_event(alice, event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    winners, losers = set(), set()
    for match in rnd.matches.order_by("table"):
        enter_result(alice, match, [0])
        first, second = match.seats.order_by("seat")
        winners |= {m.user_id for m in first.registration.members.all()}
        losers |= {m.user_id for m in second.registration.members.all()}
    assert ratings.rate_round(rnd.pk) == 2
    mu = dict(PlayerRating.objects.values_list("user_id", "mu"))
    assert len(winners) == len(losers) == 4 and mu.keys() == winners | losers
    assert all(mu[u] > core.MU for u in winners) and all(mu[u] < core.MU for u in losers)


@pytest.mark.django_db
def test_an_event_seeded_by_rating_pairs_round_one_top_half_against_bottom_half(alice):
    event, regs = make_event(alice, players=6, start=False, seeding="rating")
    rate_players(regs, event.game_system)  # Player 01 strongest
    event = start_event(alice, event)
    rnd = pair_next_round(alice, event)
    tables = [
        [s.registration.display_name for s in m.seats.order_by("seat")]
        for m in rnd.matches.order_by("table")
    ]
    assert tables == [
        ["Player 01", "Player 04"],
        ["Player 02", "Player 05"],
        ["Player 03", "Player 06"],
    ]


def test_seeded_pods_deal_the_players_to_the_pods_in_a_snake():
    skills = {p: core.Skill(mu=50 - p, sigma=1) for p in range(1, 12)}  # 1 strongest
    players = list(reversed(range(1, 12)))
    pods = core.seeded_pods(players, skills, (4, 4, 3))
    # 1 2 3 | 4 5 6 (back) | 7 8 9 | 10 (pod 3 full: passed over) 11
    assert pods == [[1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]
    with pytest.raises(ValueError):
        core.seeded_pods(players, skills, (4, 4))


@pytest.mark.django_db
def test_a_pod_event_seeded_by_rating_spreads_round_one_and_seats_its_final_pod_by_rating(
    alice,
):
    event, regs = make_event(
        alice,
        players=8,
        start=False,
        seeding="rating",
        players_per_game=4,
        best_of=1,
        swiss_rounds=1,
        top_cut=4,
    )
    rate_players(regs, event.game_system)  # Player 01 strongest
    event = start_event(alice, event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    pods = [
        sorted(s.registration.display_name for s in m.seats.all())
        for m in rnd.matches.order_by("table")
    ]
    assert pods == [
        ["Player 01", "Player 04", "Player 05", "Player 08"],
        ["Player 02", "Player 03", "Player 06", "Player 07"],
    ]
    for match in rnd.matches.all():  # the weakest of each pod wins it
        seats = list(match.seats.select_related("registration").order_by("seat"))
        names = [s.registration.display_name for s in seats]
        order = sorted(range(4), key=lambda k: names[k], reverse=True)
        enter_placements(alice, match, [order.index(k) + 1 for k in range(4)])
    event.refresh_from_db()
    final = pair_next_round(alice, event)
    assert final.kind == "elimination"
    seated = [s.registration.display_name for s in final.matches.get().seats.order_by("seat")]
    assert seated == sorted(seated)  # in rating order, whatever the standings say
    assert set(seated) == {"Player 05", "Player 06", "Player 07", "Player 08"}


def rate_players(regs, game_system: str) -> None:
    """Fixed ratings, the first registration strongest."""
    for n, reg in enumerate(regs):
        PlayerRating.objects.create(
            user=reg.user,
            game_system=game_system,
            mu=40 - 2 * n,
            sigma=2,
            ordinal=34 - 2 * n,
            matches=10,
        )


@pytest.mark.django_db
def test_an_event_seeded_by_rating_seeds_its_top_cut_by_rating(alice):
    event, regs = make_event(
        alice, players=8, start=False, seeding="rating", swiss_rounds=2, top_cut=4
    )
    rate_players(list(reversed(regs)), event.game_system)  # Player 08 strongest
    event = start_event(alice, event)
    for _ in range(2):
        play_round(alice, event)
    event.refresh_from_db()
    rnd = pair_next_round(alice, event)  # the cut's first round
    assert rnd.kind == "elimination"
    cut = {s.registration_id for m in rnd.matches.all() for s in m.seats.all()}
    first = rnd.matches.order_by("table").first()
    strength = {reg.pk: n for n, reg in enumerate(regs)}  # higher n: stronger
    by_rating = sorted(cut, key=lambda pk: -strength[pk])
    seated = {s.registration_id for s in first.seats.all()}
    assert len(cut) == 4
    assert seated == {by_rating[0], by_rating[3]}  # seed 1 meets seed 4


# ---------------------------------------------------------------- pages and API


@pytest.mark.django_db
def test_the_leaderboard_page_and_api_list_players_best_first(alice, client):
    event, _ = make_event(alice, players=4)
    rnd = play_round(alice, event)
    ratings.rate_round(rnd.pk)
    best = PlayerRating.objects.order_by("-ordinal").select_related("user").first()
    page = client.get(reverse("tournaments:leaderboard", args=[event.game_system]))
    assert page.status_code == 200
    assert best.user.username in page.content.decode()
    answer = APIClient().get(f"/api/ratings/{event.game_system}/")
    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    assert rows[0]["player"] == best.user.username
    assert rows == sorted(rows, key=lambda row: -row["rating"])
    assert client.get(reverse("tournaments:leaderboard", args=["nope"])).status_code == 404
    assert APIClient().get("/api/ratings/nope/").status_code == 404


@pytest.mark.django_db
def test_every_game_has_a_leaderboard_even_before_any_match(client):
    for info in registry.all_systems():
        page = client.get(reverse("tournaments:leaderboard", args=[info.key]))
        assert page.status_code == 200
        # The heading and the links to the other games name them, not their dicts.
        assert f"<h1>Ratings: {escape(info.label('en'))}</h1>" in page.content.decode()
        assert "{&#x27;key&#x27;" not in page.content.decode()
        for other in registry.all_systems():
            assert escape(other.label("en")) in page.content.decode()


@pytest.mark.django_db
def test_the_player_page_shows_the_players_rating(alice, client):
    event, regs = make_event(alice, players=4)
    rnd = play_round(alice, event)
    ratings.rate_round(rnd.pk)
    rating = PlayerRating.objects.get(user=regs[0].user)
    page = client.get(reverse("tournaments:player", args=[event.slug, regs[0].pk]))
    assert page.status_code == 200
    assert f"{rating.ordinal:.1f}" in page.content.decode()
