"""Ratings: every final match of a game system moves its players' OpenSkill ratings
(the pure model in ``tournaments.ratings``; see docs/decisions/0049-ratings.md).

A match is rated once: ``rate_match`` first writes its ``RatedMatch`` row (unique per
match) and rates it only if that row is new, so a task run twice, or two workers on one
match, count it once. When a match becomes final its round queues ``rate_round`` on
commit (``rate_round_on_commit``, called by ``completing.maybe_complete_round``).
``rebuild`` replays a game system's final matches from scratch in the order they
finished (``manage.py rebuild_ratings``); a result changed after it was rated (a
correction, a penalty) queues one (``rerate_on_commit``, the task ``rebuild_ratings``).

A player is a user: an entrant's side is its user, or a team's members. An entrant with
no account (a bot, a name typed by an organiser) plays as a fresh rating that is not kept.
Byes are not rated.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence

from django.db import IntegrityError, connection, transaction
from django.db.models import Prefetch, QuerySet

from tournaments import ratings as core
from tournaments.models import (
    Event,
    Match,
    MatchSeat,
    PlayerRating,
    RatedMatch,
    Registration,
    TeamMember,
)

Key = int | tuple[str, int]  # a user id, or ("entrant", registration id) for a guest


def _seats_prefetch() -> Prefetch:
    seats = MatchSeat.objects.select_related("registration").prefetch_related(
        Prefetch("registration__members", queryset=TeamMember.objects.order_by("position"))
    )
    return Prefetch("seats", queryset=seats.order_by("seat"))


def _players(reg: Registration) -> tuple[Key, ...]:
    members = [member.user_id for member in reg.members.all()]
    if members:
        return tuple(members)
    if reg.user_id is not None:
        return (reg.user_id,)
    return (("entrant", reg.pk),)


def outcome_of(match: Match) -> core.Outcome | None:
    """The match as the rating model sees it, or ``None`` when it is not rated (a bye, or
    not final). Seats must be prefetched with ``_seats_prefetch`` (or are queried)."""
    if match.status != Match.Status.FINAL or match.is_bye:
        return None
    seats = list(match.seats.all())
    if len(seats) < 2:
        return None
    sides = tuple(_players(seat.registration) for seat in seats)
    if len({key for side in sides for key in side}) != sum(len(side) for side in sides):
        return None  # a player on two sides: nothing sensible to rate
    if any(seat.placement is not None for seat in seats):
        last = len(seats)
        ranks = tuple(seat.placement if seat.placement is not None else last for seat in seats)
        return core.Outcome(sides=sides, ranks=ranks)
    if len(seats) != 2:
        return None
    winner = next(
        (n for n, seat in enumerate(seats) if seat.registration_id == match.winner_id), None
    )
    return core.two_player_outcome(sides[0], sides[1], winner)


def _store(game_system: str, skills: dict[Key, core.Skill]) -> None:
    """Write the users' new skills (guests are dropped); rows are locked by the caller."""
    users = {key: skill for key, skill in skills.items() if isinstance(key, int)}
    if not users:
        return
    rows = [
        PlayerRating(
            user_id=user_id,
            game_system=game_system,
            mu=skill.mu,
            sigma=skill.sigma,
            ordinal=skill.ordinal,
            matches=skill.matches,
        )
        for user_id, skill in users.items()
    ]
    PlayerRating.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["user", "game_system"],
        update_fields=["mu", "sigma", "ordinal", "matches", "updated_at"],
    )


def _locked_skills(game_system: str, users: Iterable[int]) -> dict[Key, core.Skill]:
    """The users' skills, their rating rows locked in a fixed order (new players created)."""
    users = sorted(set(users))
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                user_id=u,
                game_system=game_system,
                mu=core.NEW.mu,
                sigma=core.NEW.sigma,
                ordinal=core.NEW.ordinal,
            )
            for u in users
        ],
        ignore_conflicts=True,
    )
    rows = (
        PlayerRating.objects.select_for_update()
        .filter(game_system=game_system, user_id__in=users)
        .order_by("user_id")
    )
    return {row.user_id: core.Skill(row.mu, row.sigma, row.matches) for row in rows}


def rate_match(match_id: int) -> bool:
    """Count a final match in its players' ratings, once. True if this call counted it."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))  # a result changing waits, or us
            .select_related("round__event")
            .prefetch_related(_seats_prefetch())
            .filter(pk=match_id)
            .first()
        )
        if match is None or match.status != Match.Status.FINAL or match.is_bye:
            return False
        game_system = match.round.event.game_system
        try:
            with transaction.atomic():
                RatedMatch.objects.create(match=match, game_system=game_system)
        except IntegrityError:
            return False  # counted already
        outcome = outcome_of(match)
        if outcome is None:
            return False  # nothing to rate; marked, so nobody looks again
        users = [key for side in outcome.sides for key in side if isinstance(key, int)]
        skills = _locked_skills(game_system, users)
        _store(game_system, core.rate(skills, outcome))
    return True


def _unrated_final_matches() -> QuerySet[Match]:
    return Match.objects.filter(status=Match.Status.FINAL, is_bye=False, rated__isnull=True)


def rate_round(round_id: int) -> int:
    """Rate every final match of a round not rated yet, in the order they finished."""
    pks = (
        _unrated_final_matches()
        .filter(round_id=round_id)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return sum(rate_match(pk) for pk in list(pks))


def rate_round_on_commit(round_id: int) -> None:
    """Queue the round's ratings once the transaction that made a result final commits."""
    from tournaments.tasks import rate_round_soon

    transaction.on_commit(lambda: rate_round_soon(round_id), robust=True)


def rerate_on_commit(match: Match) -> None:
    """A final result changed (``enter_result``, ``enter_placements``: a correction, a
    penalty, an official's override): if the match was rated already, once the change
    commits queue a rebuild of the game's ratings (``tasks.rebuild_ratings``, one per
    burst of changes), so every rating from that match on is as if it had always had its
    new result. A match not rated yet is rated with its new result by its round's task.
    Call it with the match row locked: ``rate_match`` locks it too, so a rating under way
    either finished before (its marker is seen here) or reads the new result."""
    from tournaments.tasks import rebuild_ratings_soon

    if not RatedMatch.objects.filter(match_id=match.pk).exists():
        return
    game_system = (
        Event.objects.filter(rounds__matches=match.pk).values_list("game_system", flat=True).first()
    )
    if game_system is None:
        return
    transaction.on_commit(lambda: rebuild_ratings_soon(game_system), robust=True)


def _lock_game_system(game_system: str) -> None:
    """Serialise rebuilds of one game system (a transaction-scoped advisory lock)."""
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"ratings:{game_system}".encode()) - 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def rebuild(game_system: str) -> int:
    """Recompute a game system's ratings from scratch, every final match in the order the
    matches finished (then by round and table). Returns how many matches were rated.

    Meant for maintenance (a result changed after it was rated, or the model changed): a
    match that becomes final while it runs is either counted by it or rated by its own
    task afterwards; if both race for one match the rebuild fails and changes nothing.
    """
    matches = (
        Match.objects.filter(
            round__event__game_system=game_system, status=Match.Status.FINAL, is_bye=False
        )
        .select_related("round")
        .prefetch_related(_seats_prefetch())
        .order_by("finished_at", "round__event_id", "round__number", "table", "pk")
    )
    with transaction.atomic():
        _lock_game_system(game_system)
        RatedMatch.objects.filter(game_system=game_system).delete()
        PlayerRating.objects.filter(game_system=game_system).delete()
        skills: dict[Key, core.Skill] = {}
        rated: list[RatedMatch] = []
        for match in matches:
            outcome = outcome_of(match)
            if outcome is None:
                continue
            skills.update(core.rate(skills, outcome))
            rated.append(RatedMatch(match=match, game_system=game_system))
        RatedMatch.objects.bulk_create(rated, batch_size=1000)
        _store(game_system, skills)
    return len(rated)


LEADERBOARD_ORDER = ["-ordinal", "-matches", "pk"]


def leaderboard(game_system: str) -> QuerySet[PlayerRating]:
    """A game system's ratings, best first (the conservative estimate, then most matches)."""
    return (
        PlayerRating.objects.filter(game_system=game_system, matches__gt=0)
        .select_related("user")
        .order_by(*LEADERBOARD_ORDER)
    )


def rating_of(user_id: int | None, game_system: str) -> PlayerRating | None:
    if user_id is None:
        return None
    return PlayerRating.objects.filter(
        user_id=user_id, game_system=game_system, matches__gt=0
    ).first()


def ratings_of_entrant(reg: Registration, game_system: str) -> list[PlayerRating]:
    """The ratings of an entrant's players in a game (its user's, or its members'), for
    the player's page; players with no rated match yet are left out."""
    users = [key for key in _players(reg) if isinstance(key, int)]
    rows = PlayerRating.objects.filter(
        game_system=game_system, user_id__in=users, matches__gt=0
    ).select_related("user")
    return sorted(rows, key=lambda row: users.index(row.user_id))


def entrant_skills(event: Event, registration_ids: Iterable[int]) -> dict[int, core.Skill]:
    """Each entrant's skill in the event's game, for seeding: its user's, or the mean of
    its team members' (a member without a rating, or an entrant without an account, as new)."""
    regs = Registration.objects.filter(event=event, pk__in=list(registration_ids)).prefetch_related(
        "members"
    )
    players = {reg.pk: [k for k in _players(reg) if isinstance(k, int)] for reg in regs}
    users = {u for keys in players.values() for u in keys}
    rows = {
        row.user_id: core.Skill(row.mu, row.sigma, row.matches)
        for row in PlayerRating.objects.filter(game_system=event.game_system, user_id__in=users)
    }
    skills: dict[int, core.Skill] = {}
    for pk, keys in players.items():
        own = [rows.get(u, core.NEW) for u in keys] or [core.NEW]
        skills[pk] = core.Skill(
            mu=sum(s.mu for s in own) / len(own), sigma=sum(s.sigma for s in own) / len(own)
        )
    return skills


def seeds_for(event: Event, players: Sequence[int]) -> list[int]:
    """``players`` (registration ids, in the order the event would seed them otherwise)
    re-ordered strongest first when the event is seeded by rating; else as given. Equal
    ratings keep the order given."""
    if event.seeding != Event.Seeding.RATING:
        return list(players)
    return core.seeded_order(players, entrant_skills(event, players))
