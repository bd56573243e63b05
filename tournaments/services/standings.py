"""Standings: results loaded as the input of the pure modules (``tournaments.standings``,
``tournaments.pods``), the snapshot written when results change (in the transaction up
to ``SYNC_STANDINGS_MAX_PLAYERS`` players, by a debounced task above), and the rounds
with their matches for the pages.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch

from tournaments import bracket_places
from tournaments import pods as pods_core
from tournaments import standings as standings_core
from tournaments.live import broadcast_on_commit
from tournaments.models import (
    Event,
    Match,
    MatchSeat,
    Registration,
    Round,
    StandingsSnapshot,
    TeamMember,
)
from tournaments.services.brackets import bracket_state
from tournaments.services.errors import TournamentError


def match_history(event: Event) -> dict:
    """Who has played whom and who has had a bye, over the published rounds."""
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    seats = (
        MatchSeat.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("match_id", "registration_id", "match__is_bye")
    )
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, reg_id, is_bye in seats:
        if is_bye:
            byes.add(reg_id)
        else:
            by_match[match_id].append(reg_id)
    for players in by_match.values():
        for p in players:
            opponents[p].update(q for q in players if q != p)
    return {"opponents": opponents, "byes": byes}


def match_records(event: Event) -> tuple[list[int], list, set[int], dict]:
    """Load an event's final results as the pure standings module's input."""
    regs = list(event.registrations.values_list("pk", "status", "first_round"))
    players = [pk for pk, _s, _f in regs]
    dropped = {pk for pk, status, _f in regs if status == Registration.Status.DROPPED}
    seats = (
        MatchSeat.objects.filter(match__round__event=event, match__status=Match.Status.FINAL)
        .values_list(
            "match_id",
            "seat",
            "registration_id",
            "game_wins",
            "match__game_draws",
            "match__is_bye",
            "match__round__number",
            "match__round__kind",
            "match__bracket_code",
        )
        .order_by("match_id", "seat")
    )
    grouped: dict[int, list] = defaultdict(list)
    for row in seats:
        grouped[row[0]].append(row)
    records = []
    playoff_codes: dict[int, list[str]] = defaultdict(list)
    for rows in grouped.values():
        first = rows[0]
        round_number, kind, code = first[6], first[7], first[8]
        phase = "playoff" if kind == Round.Kind.ELIMINATION else "swiss"
        if first[5]:
            records.append(
                standings_core.MatchRecord(
                    round_number, first[2], None, 2, 0, 0, kind="bye", phase=phase
                )
            )
            continue
        if len(rows) != 2:
            continue  # multiplayer matches get their own standings with multiplayer games
        a, b = rows
        records.append(
            standings_core.MatchRecord(
                round_number, a[2], b[2], a[3], b[3], first[4], kind="played", phase=phase
            )
        )
        if code:
            playoff_codes[a[2]].append(code)
            playoff_codes[b[2]].append(code)
    for pk, _status, first_round in regs:
        for number in range(1, first_round):
            records.append(standings_core.MatchRecord(number, pk, None, 0, 2, 0, kind="loss"))
    return players, records, dropped, playoff_codes


def _playoff_finish(event: Event) -> dict[int, int]:
    if not event.bracket:
        return {}
    data = event.bracket
    state = bracket_state(event)
    finish = dict(state.placements)
    # Players still in the bracket rank above everyone out of it: they would
    # finish at (alive // 2 + 1) if they lost their next match.
    alive = [pid for pid in data["seeds"] if pid not in finish]
    for pid in alive:
        finish[pid] = 1 if len(alive) == 1 else len(alive) // 2 + 1
    return finish


def bracket_finish(event: Event) -> dict[int, dict]:
    """A bracket-only event's finish per player: the shared places (``place``, e.g. "3–4",
    see ``tournaments.bracket_places``) and the record in the bracket's matches (a split
    final counts as a draw). Empty unless the event is bracket-only and has its bracket."""
    if not (event.is_elimination_only and event.bracket):
        return {}
    seeds = event.bracket["seeds"]
    state = bracket_state(event)
    alive = [pid for pid in seeds if pid not in state.placements]
    places = bracket_places.bracket_places(state.placements, alive, len(seeds))
    record = {pid: [0, 0, 0] for pid in seeds}
    seats = (
        MatchSeat.objects.filter(
            match__round__event=event, match__status=Match.Status.FINAL, match__is_bye=False
        )
        .exclude(match__bracket_code="")
        .values_list("registration_id", "match__winner_id")
    )
    for reg_id, winner_id in seats:
        if reg_id in record:
            record[reg_id][0 if winner_id == reg_id else 2 if winner_id is None else 1] += 1
    return {
        pid: {"place": bracket_places.place_text(*places[pid]), "bracket_record": record[pid]}
        for pid in seeds
    }


@dataclass(frozen=True)
class PodRow:
    """A standings row of a pod event: the pure row plus whether the player dropped."""

    rank: int
    player: int
    points: int
    pods: int
    firsts: int
    average_placement: float
    opponents_average: float
    dropped: bool
    playoff_finish: int | None = None  # place in the final pod (top cut), if played


def pod_results(event: Event) -> tuple[list[int], list[pods_core.PodResult], set[int]]:
    """Load a pod event's final placements as the pure pod standings' input.

    Placements are handed over as scores (``-placement``), which ``pods.placements``
    turns back into the same placements, ties included.
    """
    regs = list(event.registrations.values_list("pk", "status"))
    players = [pk for pk, _s in regs]
    dropped = {pk for pk, status in regs if status == Registration.Status.DROPPED}
    seats = (
        MatchSeat.objects.filter(
            match__round__event=event,
            match__status=Match.Status.FINAL,
            match__is_bye=False,
            placement__isnull=False,
            match__round__kind=Round.Kind.SWISS,
        )
        .values_list("match_id", "registration_id", "placement", "match__round__number")
        .order_by("match_id", "seat")
    )
    grouped: dict[int, dict] = defaultdict(dict)
    rounds: dict[int, int] = {}
    for match_id, reg_id, placement, number in seats:
        grouped[match_id][reg_id] = -placement
        rounds[match_id] = number
    results = [pods_core.PodResult(round=rounds[m], scores=scores) for m, scores in grouped.items()]
    return players, results, dropped


def _final_pod_finish(event: Event) -> dict[int, int]:
    """Placements in the final pod (the top cut of a pod event), once it is final."""
    return dict(
        MatchSeat.objects.filter(
            match__round__event=event,
            match__round__kind=Round.Kind.ELIMINATION,
            match__status=Match.Status.FINAL,
            placement__isnull=False,
        ).values_list("registration_id", "placement")
    )


def _compute_pod_rows(event: Event) -> list[PodRow]:
    """Swiss placement points; the final pod's players, if it was played, rank first by it."""
    players, results, dropped = pod_results(event)
    try:
        rows = pods_core.standings_by_placement(players, results)
    except pods_core.PodStandingsError as exc:
        raise TournamentError(str(exc)) from None
    finish = _final_pod_finish(event)
    ordered = sorted(rows, key=lambda r: (r.player not in finish, finish.get(r.player, 0), r.rank))
    return [
        PodRow(
            rank=rank,
            player=r.player,
            points=r.points,
            pods=r.pods,
            firsts=r.firsts,
            average_placement=r.average_placement,
            opponents_average=r.opponents_average,
            dropped=r.player in dropped,
            playoff_finish=finish.get(r.player),
        )
        for rank, r in enumerate(ordered, start=1)
    ]


# The snapshot's ruleset for events ranked by placement points.
PLACEMENT_RULESET = "placement"


def compute_rows(event: Event):
    """The event's standings rows, computed now (pod rows for an event with pods)."""
    if event.uses_pods:
        return _compute_pod_rows(event)
    players, records, dropped, _codes = match_records(event)
    finish = _playoff_finish(event)
    return standings_core.compute_standings(
        players, records, ruleset=event.tiebreaks, dropped=dropped, playoff_finish=finish or None
    )


def member_names(event: Event) -> dict[int, list[str]]:
    """Each team's members' usernames by registration id, in seat order (one query; empty
    unless the event is for teams)."""
    return {reg_id: [name for name, _active in team] for reg_id, team in members_of(event).items()}


def members_of(event: Event, registrations=None) -> dict[int, list[tuple[str, bool]]]:
    """Each team's members by registration id, in seat order: (username, whether the
    account is active, so has a profile to link). One query; ``registrations``: only
    those teams."""
    found: dict[int, list[tuple[str, bool]]] = {}
    rows = TeamMember.objects.filter(event=event)
    if registrations is not None:
        rows = rows.filter(registration_id__in=list(registrations))
    for reg_id, username, active in rows.order_by("registration_id", "position").values_list(
        "registration_id", "user__username", "user__is_active"
    ):
        found.setdefault(reg_id, []).append((username, active))
    return found


def save_standings(event: Event) -> StandingsSnapshot:
    """Recompute the standings and store the snapshot, inside the caller's transaction.

    In a team event each row is a team and also lists its ``members``."""
    rows = compute_rows(event)
    names = {}
    usernames = {}  # each single player's profile, for the pages' links (not for teams)
    for pk, name, username, active in event.registrations.values_list(
        "pk", "display_name", "user__username", "user__is_active"
    ):
        names[pk] = name
        if username and active and not event.is_team_event:
            usernames[pk] = username
    members = members_of(event) if event.is_team_event else {}
    after = event.rounds.filter(status=Round.Status.COMPLETED).count()
    if event.uses_pods:
        data = [
            {
                "rank": row.rank,
                "player": row.player,
                "name": names.get(row.player, "?"),
                "username": usernames.get(row.player),
                "points": row.points,
                "pods": row.pods,
                "firsts": row.firsts,
                "average_placement": row.average_placement,
                "opponents_average": row.opponents_average,
                "dropped": row.dropped,
                "playoff_finish": row.playoff_finish,
            }
            for row in rows
        ]
        snapshot, _created = StandingsSnapshot.objects.update_or_create(
            event=event, defaults={"rows": data, "ruleset": PLACEMENT_RULESET, "after_round": after}
        )
        return snapshot
    data = [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names.get(row.player, "?"),
            "username": usernames.get(row.player),
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "matches": row.matches,
            "byes": row.byes,
            "mw": row.mw,
            "gw": row.gw,
            "omw": row.omw,
            "ogw": row.ogw,
            "oomw": row.oomw,
            "dropped": row.dropped,
            "playoff_finish": row.playoff_finish,
        }
        for row in rows
    ]
    finish = bracket_finish(event)
    for item in data:
        item.update(finish.get(item["player"], {}))
    if members:
        for item in data:
            team = members.get(item["player"], [])
            item["members"] = [name for name, _active in team]
            # The members with a profile to link (a snapshot from before has none).
            item["member_accounts"] = [name for name, active in team if active]
    snapshot, _created = StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": data, "ruleset": event.tiebreaks, "after_round": after}
    )
    return snapshot


# Up to this many players the snapshot is recomputed inside the transaction that
# changed a result (a few milliseconds); above it a task does it, at most once a
# second per event, so a round of 1000 results does not cost 1000 recomputations.
SYNC_STANDINGS_MAX_PLAYERS = 512


def standings_changed(event: Event) -> None:
    """A result changed: store the snapshot now (small events) or queue its task."""
    if event.registrations.count() <= SYNC_STANDINGS_MAX_PLAYERS:
        save_standings(event)
        broadcast_on_commit(event.pk, "standings")
        return
    from tournaments.tasks import refresh_standings_soon

    transaction.on_commit(lambda: refresh_standings_soon(event.pk))


def refresh_standings(event: Event) -> StandingsSnapshot:
    with transaction.atomic():
        return save_standings(event)


def standings_rounds(event: Event) -> tuple[list[str], int | None]:
    """In one query: the kinds of the completed rounds in order, and the number of the
    published round not yet completed that the standings already count results of (they
    count every final match, a bye included, as it is entered), or None; the page and the
    printout name it beside the completed rounds."""
    final = Match.objects.filter(round=OuterRef("pk"), status=Match.Status.FINAL)
    rounds = (
        event.rounds.filter(status__in=(Round.Status.COMPLETED, Round.Status.PUBLISHED))
        .annotate(counted=Exists(final))
        .order_by("number")
        .values_list("kind", "status", "number", "counted")
    )
    kinds: list[str] = []
    in_progress = None
    for kind, status, number, counted in rounds:
        if status == Round.Status.COMPLETED:
            kinds.append(kind)
        elif counted:
            in_progress = number
    return kinds, in_progress


def rounds_with_matches(event: Event):
    """Rounds with their matches, seats and players in a fixed number of queries."""
    seats = MatchSeat.objects.select_related("registration").order_by("seat")
    matches = Match.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by("table")
    return event.rounds.prefetch_related(Prefetch("matches", queryset=matches)).order_by("number")
