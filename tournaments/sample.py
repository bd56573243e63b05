"""Large sample events written straight to the database, for benchmarks and tests.

Building a 2048-player event round by round through the services would take
minutes; this writes the same rows in bulk (Swiss pairings from ``swiss``,
random results) and then computes the standings snapshot once.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from tournaments import swiss
from tournaments.models import Event, EventStaff, Match, MatchSeat, Registration, Round
from tournaments.services.standings import refresh_standings


@transaction.atomic
def bulk_event(organiser, players: int, rounds: int, seed: int = 1, name: str = "Sample") -> Event:
    rng = random.Random(seed)
    event = Event.objects.create(
        name=name,
        slug=f"{name.lower()}-{players}-{rounds}-{seed}-{rng.randrange(10**6)}",
        swiss_rounds=rounds,
        status=Event.Status.RUNNING,
        created_by=organiser,
        seed=seed,
    )
    EventStaff.objects.create(event=event, user=organiser, role=EventStaff.Role.ORGANISER)
    regs = Registration.objects.bulk_create(
        [
            Registration(
                event=event, display_name=f"Player {n:05d}", status=Registration.Status.CHECKED_IN
            )
            for n in range(1, players + 1)
        ]
    )
    ids = [r.pk for r in regs]
    points = dict.fromkeys(ids, 0)
    opponents: dict[int, set[int]] = {pid: set() for pid in ids}
    had_bye: set[int] = set()
    now = timezone.now()
    for number in range(1, rounds + 1):
        if number == 1:
            result = swiss.pair_first_round(ids, seed=seed)
        else:
            order = sorted(ids, key=lambda p: (-points[p], p))
            rank = {pid: i for i, pid in enumerate(order, start=1)}
            result = swiss.pair_round(
                [
                    swiss.SwissPlayer(
                        pid, points[pid], rank[pid], frozenset(opponents[pid]), pid in had_bye
                    )
                    for pid in ids
                ],
                round_number=number,
                seed=seed + number,
            )
        rnd = Round.objects.create(
            event=event,
            number=number,
            status=Round.Status.COMPLETED,
            published_at=now,
            completed_at=now,
        )
        tables = [tuple(p) for p in result.pairs] + (
            [(result.bye,)] if result.bye is not None else []
        )
        matches = Match.objects.bulk_create(
            [
                Match(
                    round=rnd,
                    table=t,
                    is_bye=len(p) == 1,
                    status=Match.Status.FINAL,
                    result_source=Match.Source.BYE if len(p) == 1 else Match.Source.CONFIRMED,
                    finished_at=now,
                )
                for t, p in enumerate(tables, start=1)
            ]
        )
        seats = []
        for match, pair in zip(matches, tables, strict=True):
            if len(pair) == 1:
                had_bye.add(pair[0])
                points[pair[0]] += 3
                seats.append(
                    MatchSeat(match=match, round=rnd, registration_id=pair[0], seat=0, game_wins=2)
                )
                continue
            a, b = pair
            wins = rng.choice([(2, 0), (2, 1), (0, 2), (1, 2), (1, 1)])
            if wins[0] > wins[1]:
                points[a] += 3
                match.winner_id = a
            elif wins[1] > wins[0]:
                points[b] += 3
                match.winner_id = b
            else:
                points[a] += 1
                points[b] += 1
            opponents[a].add(b)
            opponents[b].add(a)
            seats.append(
                MatchSeat(match=match, round=rnd, registration_id=a, seat=0, game_wins=wins[0])
            )
            seats.append(
                MatchSeat(match=match, round=rnd, registration_id=b, seat=1, game_wins=wins[1])
            )
        Match.objects.bulk_update([m for m in matches if m.winner_id], ["winner"])
        MatchSeat.objects.bulk_create(seats)
    refresh_standings(event)
    return event
