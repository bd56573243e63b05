"""Pairing: the next round made as a draft (Swiss, pods, round robin or bracket), re-paired
or fixed by hand (two players swapped, or every table set), then published; ``advance``
does both for a self-running event.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import announce, swiss
from tournaments import bracket as bracket_core
from tournaments import pods as pods_core
from tournaments import ratings as ratings_core
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Match, MatchSeat, Registration, Round
from tournaments.services.brackets import bracket_tables, start_bracket
from tournaments.services.common import audit, lock_event, said
from tournaments.services.completing import maybe_complete_round
from tournaments.services.errors import PairingError, TournamentError
from tournaments.services.permissions import User, check_organiser
from tournaments.services.players import active_player_ids
from tournaments.services.ratings import entrant_skills, seeds_for
from tournaments.services.results import finalise
from tournaments.services.standings import compute_rows, match_history

logger = logging.getLogger("gauntlet.tournaments")


def _pair_swiss(event: Event, number: int) -> tuple[list[tuple[int, ...]], list[str]]:
    players = active_player_ids(event, number)
    if len(players) < 2:
        raise TournamentError(_("Fewer than two active players: nothing to pair."))
    history = match_history(event)
    if event.uses_pods:
        return _pair_pods(event, number, players, history)
    if number == 1 or (not any(history["opponents"].values()) and not history["byes"]):
        if event.seeding == Event.Seeding.RATING:
            ordered = sorted(players, key=lambda p: _seed_key(event, p))  # ties: at random
            pairs, bye = ratings_core.seeded_first_round(ordered, entrant_skills(event, ordered))
            result = swiss.Pairings(pairs=tuple(pairs), bye=bye, rematches=0, score_diff=0)
        else:
            result = swiss.pair_first_round(players, seed=event.seed)
    else:
        rows = {row.player: row for row in compute_rows(event)}
        swiss_players = [
            swiss.SwissPlayer(
                id=pid,
                points=rows[pid].points if pid in rows else 0,
                rank=rows[pid].rank if pid in rows else len(rows) + 1,
                opponents=frozenset(history["opponents"].get(pid, ())),
                had_bye=pid in history["byes"],
            )
            for pid in players
        ]
        result = swiss.pair_round(swiss_players, round_number=number, seed=event.seed + number)
    tables: list[tuple[int, ...]] = [tuple(pair) for pair in result.pairs]
    if result.bye is not None:
        tables.append((result.bye,))
    return tables, [""] * len(tables)


def _pair_pods(
    event: Event, number: int, players: list[int], history: dict
) -> tuple[list[tuple[int, ...]], list[str]]:
    """A Swiss round of pods of ``players_per_game`` (some one smaller), by placement points.

    The first round of an event seeded by rating deals the players to the pods by rating
    (``ratings.seeded_pods``; each pod's seats in the event's random order)."""
    fresh = number == 1 or (not any(history["opponents"].values()) and not history["byes"])
    if fresh and event.seeding == Event.Seeding.RATING:
        ordered = sorted(players, key=lambda p: _seed_key(event, p))  # ties: at random
        try:
            sizes = pods_core.pod_sizes(
                len(ordered), event.players_per_game, event.players_per_game - 1
            )
        except pods_core.PairingError as exc:
            raise TournamentError(str(exc)) from None
        pods = ratings_core.seeded_pods(ordered, entrant_skills(event, ordered), sizes)
        tables = [tuple(sorted(pod, key=lambda p: _seed_key(event, p))) for pod in pods]
        return tables, [""] * len(tables)
    rows = {row.player: row for row in compute_rows(event)} if number > 1 else {}
    pod_players = [
        swiss.SwissPlayer(
            id=pid,
            points=rows[pid].points if pid in rows else 0,
            rank=rows[pid].rank if pid in rows else len(rows) + 1,
            opponents=frozenset(history["opponents"].get(pid, ())),
        )
        for pid in players
    ]
    try:
        result = pods_core.pair_pods(
            pod_players,
            pod_size=event.players_per_game,
            min_size=event.players_per_game - 1,
            seed=event.seed + number,
        )
    except pods_core.PairingError as exc:
        raise TournamentError(str(exc)) from None
    tables = [tuple(pod) for pod in result.pods]
    return tables, [""] * len(tables)


def pair_next_round(
    actor: User | None, event: Event, audit_action: str = AuditEntry.Action.PAIR
) -> Round:
    """Create the next round as a draft for review. Two concurrent calls make one round."""
    if actor is not None:
        check_organiser(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        if event.status != Event.Status.RUNNING:
            raise TournamentError(
                _("Start the event before pairing.")
                if event.status == Event.Status.REGISTRATION
                else _("This event has finished.")
            )
        open_round = event.rounds.exclude(status=Round.Status.COMPLETED).order_by("-number").first()
        if open_round is not None:
            if open_round.status == Round.Status.DRAFT:
                raise TournamentError(
                    _("%(round)s is paired but not published yet.") % {"round": open_round}
                )
            missing = open_round.matches.exclude(status=Match.Status.FINAL).count()
            raise TournamentError(
                _("%(round)s still has %(n)d result(s) missing.")
                % {"round": open_round, "n": missing}
            )
        number = event.rounds.count() + 1
        title = ""
        kind = Round.Kind.SWISS
        if event.structure == Event.Structure.ROUND_ROBIN:
            kind = Round.Kind.ROUND_ROBIN
            players = active_player_ids(event, 1)
            schedule = bracket_core.round_robin(_seeded(event, players))
            if number > len(schedule):
                raise TournamentError(_("Every round of the round robin has been played."))
            dropped = set(
                event.registrations.filter(status=Registration.Status.DROPPED).values_list(
                    "pk", flat=True
                )
            )
            tables = []
            for a, b in schedule[number - 1]:
                # Sitting out (the odd player, or a dropped opponent) is not a scored bye here.
                pair = tuple(p for p in (a, b) if p is not None and p not in dropped)
                if len(pair) == 2:
                    tables.append(pair)
            codes = [""] * len(tables)
        elif event.phase == Event.Phase.SWISS:
            if number > (event.swiss_rounds or 0):
                raise TournamentError(_("All Swiss rounds have been played; start the top cut."))
            tables, codes = _pair_swiss(event, number)
        elif event.uses_pods:
            kind = Round.Kind.ELIMINATION
            tables, codes, title = _final_pod_table(event)
        else:
            kind = Round.Kind.ELIMINATION
            if event.bracket is None:
                seeds = _seeded(event, active_player_ids(event, 1))
                start_bracket(event, seeds)
            tables, codes, title = bracket_tables(event)
        rnd = Round.objects.create(event=event, number=number, kind=kind, title=title)
        conflicts = _create_matches(event, rnd, tables, codes)
        line = (
            gettext_noop("Re-paired %(round)s")
            if audit_action == AuditEntry.Action.REPAIR
            else gettext_noop("Paired %(round)s")
        )
        extra = {"table_conflicts": _conflicts_for_audit(conflicts)} if conflicts else {}
        audit(event, actor, audit_action, said(line, round=rnd), round=number, **extra)
    return rnd


def _final_pod_table(event: Event) -> tuple[list[tuple[int, ...]], list[str], str]:
    """The top cut of a pod event: one final pod of the best ``top_cut`` players still in."""
    if event.rounds.filter(kind=Round.Kind.ELIMINATION).exists():
        raise TournamentError(_("The final pod has been played: the event is over."))
    cut = [row.player for row in compute_rows(event) if not row.dropped][: event.top_cut]
    if len(cut) < 2:
        raise TournamentError(_("Fewer than two active players: nothing to pair."))
    # Seated by standing; by rating (the highest rated in seat 1) when the event says so.
    return [tuple(seeds_for(event, cut))], [""], "Final"


def _seed_key(event: Event, player_id: int) -> int:
    # A stable random order from the event's seed (brackets and round robins have no standings).
    return random.Random(f"{event.seed}:{player_id}").getrandbits(64)


def _seeded(event: Event, players: Sequence[int]) -> list[int]:
    """Seeds for a bracket or a round robin: by rating (best first, equal ratings in the
    event's random order) when the event is seeded by rating, else in the event's random
    order."""
    return seeds_for(event, sorted(players, key=lambda p: _seed_key(event, p)))


def fixed_tables(event: Event) -> dict[int, int]:
    """Registration id -> the table that player always sits at (``fixed_table``)."""
    return dict(
        event.registrations.filter(fixed_table__isnull=False).values_list("pk", "fixed_table")
    )


def _create_matches(
    event: Event, rnd: Round, tables: Sequence[tuple[int, ...]], codes: Sequence[str]
) -> list[swiss.TableConflict]:
    """The round's matches and seats. Matches are numbered in the order given, a player's
    fixed table honoured (``swiss.assign_tables``); byes come after the last table.
    Returns the fixed tables that could not be given (two players fixed to one table)."""
    played = []
    byes = []
    for players, code in zip(tables, codes, strict=True):
        is_bye = len(players) == 1 and rnd.kind == Round.Kind.SWISS
        (byes if is_bye else played).append((players, code))
    numbers = swiss.assign_tables([players for players, _code in played], fixed_tables(event))
    matches = [
        (number, players, code, False)
        for number, (players, code) in zip(numbers.tables, played, strict=True)
    ]
    number = max(numbers.tables, default=0) + 1
    for players, code in byes:
        matches.append((number, players, code, True))
        number += 1
    created = Match.objects.bulk_create(
        [
            Match(round=rnd, table=table, bracket_code=code, best_of=event.best_of, is_bye=is_bye)
            for table, _players, code, is_bye in matches
        ]
    )
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, round=rnd, registration_id=pid, seat=seat)
            for match, (_t, players, _c, _b) in zip(created, matches, strict=True)
            for seat, pid in enumerate(players)
        ]
    )
    return list(numbers.conflicts)


def _conflicts_for_audit(conflicts: Sequence[swiss.TableConflict]) -> list[dict]:
    return [{"player": c.player, "wanted": c.wanted, "table": c.table} for c in conflicts]


def repair_round(actor: User, rnd: Round) -> Round:
    """Throw away a draft round's pairings and pair it again (all or nothing)."""
    event = rnd.event
    check_organiser(actor, event)
    with transaction.atomic():
        lock_event(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("Only a round that is not published yet can be re-paired."))
        rnd.delete()
        return pair_next_round(actor, event, audit_action=AuditEntry.Action.REPAIR)


def swap_players(actor: User, rnd: Round, first: Registration, second: Registration) -> None:
    """Exchange two players' seats in a draft round (manual pairing fix)."""
    event = rnd.event
    check_organiser(actor, event)
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("Pairings can only be changed before the round is published."))
        seats = {
            s.registration_id: s
            for s in MatchSeat.objects.select_for_update().filter(
                round=rnd, registration__in=[first, second]
            )
        }
        if first.pk == second.pk:
            raise TournamentError(_("Choose two different players to swap."))
        if len(seats) != 2:
            raise TournamentError(_("Both players must be paired in this round."))
        a, b = seats[first.pk], seats[second.pk]
        if a.match_id == b.match_id:
            raise TournamentError(_("These two players are already playing each other."))
        if rnd.kind != Round.Kind.SWISS:
            raise TournamentError(_("Bracket matches follow the bracket and cannot be swapped."))
        # Move through a temporary registration-less state to keep the unique constraints happy.
        a_match, b_match, a_seat, b_seat = a.match_id, b.match_id, a.seat, b.seat
        MatchSeat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        MatchSeat.objects.create(match_id=b_match, round=rnd, registration=first, seat=b_seat)
        MatchSeat.objects.create(match_id=a_match, round=rnd, registration=second, seat=a_seat)
        Match.objects.filter(pk__in=[a_match, b_match]).update(is_bye=False)
        for match in Match.objects.filter(pk__in=[a_match, b_match]).prefetch_related("seats"):
            if match.seats.count() == 1:
                match.is_bye = True
                match.save(update_fields=["is_bye"])
        audit(
            event,
            actor,
            AuditEntry.Action.SWAP,
            said(
                gettext_noop("Swapped %(first)s and %(second)s in %(round)s"),
                first=first.display_name,
                second=second.display_name,
                round=rnd,
            ),
            round=rnd.number,
        )


def _pairs_of(rnd: Round) -> list[dict]:
    """The round's tables as plain data for the audit log: table number and player ids."""
    tables: dict[int, list[int]] = {}
    for table, pid in (
        MatchSeat.objects.filter(round=rnd)
        .order_by("match__table", "seat")
        .values_list("match__table", "registration_id")
    ):
        tables.setdefault(table, []).append(pid)
    return [{"table": table, "players": players} for table, players in sorted(tables.items())]


def _checked_tables(
    event: Event, rnd: Round, tables: Sequence[tuple[Sequence[int], int | None]]
) -> list[tuple[int, tuple[int, ...]]]:
    """The tables sent, checked against the round's players: (table number, players)."""
    if not tables:
        raise PairingError(_("Give at least one table."))
    active = set(active_player_ids(event, rnd.number))
    names = dict(event.registrations.values_list("pk", "display_name"))
    seated: set[int] = set()
    numbers: set[int] = set()
    for players, number in tables:
        if not 1 <= len(players) <= 2:
            raise PairingError(
                _("A table has two players, or one for a bye (got %(n)d).") % {"n": len(players)}
            )
        for pid in players:
            if pid not in names:
                raise PairingError(
                    _("Player %(id)s is not registered for this event.") % {"id": pid}
                )
            if pid not in active:
                raise PairingError(
                    _("%(name)s cannot play this round (dropped, or entered later).")
                    % {"name": names[pid]}
                )
            if pid in seated:
                raise PairingError(_("%(name)s is seated at two tables.") % {"name": names[pid]})
            seated.add(pid)
        if number is not None:
            if number < 1:
                raise PairingError(_("Table numbers start at 1."))
            if number in numbers:
                raise PairingError(_("Table %(n)d is used twice.") % {"n": number})
            numbers.add(number)
    missing = sorted(names[pid] for pid in active - seated)
    if missing:
        raise PairingError(
            _("Every player of the round needs a table; missing: %(names)s.")
            % {"names": ", ".join(missing)}
        )
    # Tables sent without a number: fixed tables first, then the lowest numbers left in order.
    given = iter(
        swiss.assign_tables(
            [tuple(players) for players, number in tables if number is None],
            fixed_tables(event),
            taken=numbers,
        ).tables
    )
    return [
        (number if number is not None else next(given), tuple(players))
        for players, number in tables
    ]


def set_pairings(
    actor: User, rnd: Round, tables: Sequence[tuple[Sequence[int], int | None]]
) -> Round:
    """Replace every table of a draft Swiss round with pairings given by hand.

    ``tables`` lists (players, table number): two registration ids for a match, one for a
    bye; a table number of ``None`` takes the lowest number left free. Every player who may
    play the round (``active_player_ids``) is seated exactly once; anything else is refused
    with a ``PairingError`` and changes nothing. Rematches are allowed (the organiser
    decides) and counted in the audit entry, which keeps the pairings before and after.
    """
    event = rnd.event
    check_organiser(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("Pairings can only be changed before the round is published."))
        if rnd.kind != Round.Kind.SWISS:
            raise TournamentError(
                _(
                    "Bracket and round-robin rounds follow their schedule and cannot be paired by hand."
                )
            )
        if event.uses_pods:
            raise TournamentError(_("Pods are seated by the pairing; swap players instead."))
        checked = _checked_tables(event, rnd, tables)
        opponents = match_history(event)["opponents"]
        rematches = sum(
            1
            for _n, players in checked
            if len(players) == 2 and players[1] in opponents[players[0]]
        )
        before = _pairs_of(rnd)
        rnd.matches.all().delete()
        created = Match.objects.bulk_create(
            [
                Match(
                    round=rnd,
                    table=number,
                    best_of=event.best_of,
                    is_bye=len(players) == 1,
                )
                for number, players in checked
            ]
        )
        MatchSeat.objects.bulk_create(
            [
                MatchSeat(match=match, round=rnd, registration_id=pid, seat=seat)
                for match, (_n, players) in zip(created, checked, strict=True)
                for seat, pid in enumerate(players)
            ]
        )
        audit(
            event,
            actor,
            AuditEntry.Action.SWAP,
            said(
                gettext_noop("Pairings of %(round)s set by hand (%(rematches)s rematch(es))"),
                round=rnd,
                rematches=rematches,
            )
            if rematches
            else said(gettext_noop("Pairings of %(round)s set by hand"), round=rnd),
            round=rnd.number,
            before=before,
            after=_pairs_of(rnd),
            rematches=rematches,
        )
    return rnd


def publish_round(actor: User | None, rnd: Round) -> Round:
    event = rnd.event
    if actor is not None:
        check_organiser(actor, event)
    with transaction.atomic():
        lock_event(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("%(round)s is already published.") % {"round": rnd})
        now = timezone.now()
        rnd.set_status(Round.Status.PUBLISHED)
        rnd.published_at = now
        rnd.ends_at = now + timedelta(minutes=event.round_minutes)
        rnd.save(update_fields=["status", "published_at", "ends_at"])
        for match in rnd.matches.filter(is_bye=True):
            finalise(match, [], Match.Source.BYE)
        audit(
            event,
            actor,
            AuditEntry.Action.PUBLISH,
            said(gettext_noop("Published %(round)s"), round=rnd),
            round=rnd.number,
        )
        broadcast_on_commit(event.pk, "pairings")
        _announce_published_on_commit(rnd)
        maybe_complete_round(rnd)
    return rnd


def _announce_published_on_commit(rnd: Round) -> None:
    """Once the round is published: an online event's game 1 of every match is dealt (the
    play app, on ``announce.round_published``), and the players are told their tables
    (the notifications app).

    Byes are final already; a match whose game cannot start stays open for reports
    and officials (``play.services.starting.start_round_games`` logs why).
    """
    announce.on_commit(announce.round_published, round_id=rnd.pk)


def advance(event: Event) -> Round | None:
    """Pair and publish the next round if the event can move on (idempotent)."""
    event.refresh_from_db()
    if event.status != Event.Status.RUNNING:
        return None
    if event.rounds.exclude(status=Round.Status.COMPLETED).exists():
        return None
    try:
        rnd = pair_next_round(None, event)
    except TournamentError as exc:
        logger.info("event %s not advanced: %s", event.pk, exc)
        return None
    return publish_round(None, rnd)


MAX_TABLE = 9999


def set_fixed_table(actor: User, registration: Registration, table: int | None) -> Registration:
    """Give a player a table they always sit at from the next pairing on (``None``: none).

    Organisers only. Rounds already paired keep their tables. Two players may share a
    fixed table: the pairing seats the one listed first there and warns about the other
    (``table_warnings``).
    """
    event = registration.event
    check_organiser(actor, event)
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise TournamentError(
            _("A fixed table is a number from 1 to %(most)d.") % {"most": MAX_TABLE}
        )
    with transaction.atomic():
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.fixed_table == table:
            return reg
        reg.fixed_table = table
        reg.save(update_fields=["fixed_table"])
        audit(
            event,
            actor,
            AuditEntry.Action.EDIT,
            said(
                gettext_noop("Fixed table of %(name)s: %(table)s"),
                name=reg.display_name,
                table=table,
            )
            if table is not None
            else said(gettext_noop("Fixed table of %(name)s removed"), name=reg.display_name),
            registration=reg.pk,
            fixed_table=table,
        )
    return reg


def table_warnings(rnd: Round | None) -> list[str]:
    """What the organiser should know about fixed tables in ``rnd``: each player with a
    fixed table who sits elsewhere (another player fixed to the same table was paired
    first, or the seats were changed by hand)."""
    if rnd is None:
        return []
    rows = (
        MatchSeat.objects.filter(round=rnd, registration__fixed_table__isnull=False)
        .exclude(match__is_bye=True)
        .select_related("match", "registration")
        .order_by("match__table", "seat")
    )
    return [
        _("%(name)s has fixed table %(fixed)d but sits at table %(table)d this round.")
        % {
            "name": seat.registration.display_name,
            "fixed": seat.registration.fixed_table,
            "table": seat.match.table,
        }
        for seat in rows
        if seat.match.table != seat.registration.fixed_table
    ]
