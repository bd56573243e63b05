"""A player's profile across events: the events they played, their finishes in the final
standings, their match record (overall and per game), their decklists where the event
has finished and publishes them, and their head-to-head record against another player.

A player is a user: their own entries and the teams they played in. Only events listed
publicly count, and a decklist is shown only once its event has finished and the event
publishes its decklists (``Event.decklists_public``): a running event's list never
leaves the officials' desk. A two-player match counts as a win, a loss or a draw (a
drawn match, or no winner); a pod counts as a win for the only first place, a draw for a
shared first place and a loss otherwise; byes are not matches. The page reads a fixed
number of queries, however many events the player played.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.utils.translation import get_language

from engine.core import registry
from tournaments.bracket_places import row_finish
from tournaments.models import Decklist, Event, Match, MatchSeat, Registration, TeamMember


@dataclass
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def as_dict(self) -> dict:
        return {"wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass
class Entry:
    """One event the player played (or is registered for)."""

    event: Event
    registration: Registration
    game_name: str
    rank: int | None = None  # in the final standings
    place: str | None = None  # the rank as the standings show it: "3–4" when shared
    of: int | None = None  # entrants in the final standings
    record: Record = field(default_factory=Record)
    deck: str | None = None


@dataclass
class HeadToHead:
    opponent: object  # the other user
    record: Record
    matches: list[dict]  # {"event", "round", "round_title", "outcome"}, newest first


@dataclass
class Profile:
    user: object
    entries: list[Entry]
    record: Record
    by_game: list[tuple[str, str, Record]]  # (game key, game name, record)
    head_to_head: HeadToHead | None = None


def game_name(key: str) -> str:
    try:
        return registry.get(key).label(get_language() or "en")
    except registry.UnknownGameSystem:
        return key


def find_user(username: str):
    """The user of a profile, or None (an inactive account has no public profile)."""
    if not username or "\x00" in username or len(username) > 150:
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def entries_of(user) -> list[Registration]:
    """The user's own entries and their teams', in public events, newest event first."""
    return list(
        Registration.objects.filter(Q(user=user) | Q(members__user=user), event__is_public=True)
        .distinct()
        .select_related("event", "event__standings_snapshot")
        .order_by(F("event__starts_at").desc(nulls_last=True), "-event__created_at", "-pk")
    )


def _outcome(reg_id: int, match: dict, seats: list[dict]) -> str:
    mine = next(s for s in seats if s["registration_id"] == reg_id)
    if mine["placement"] is not None:
        firsts = [s for s in seats if s["placement"] == 1]
        if mine["placement"] != 1:
            return "losses"
        return "wins" if len(firsts) == 1 else "draws"
    if match["winner_id"] is None:
        return "draws"
    return "wins" if match["winner_id"] == reg_id else "losses"


def _final_seats(reg_ids: list[int]) -> tuple[dict[int, dict], dict[int, list[dict]]]:
    """Every final, played match of these entries, and every seat of those matches."""
    matches = {
        row["match_id"]: row
        for row in MatchSeat.objects.filter(
            registration_id__in=reg_ids, match__status=Match.Status.FINAL, match__is_bye=False
        ).values(
            "match_id",
            "registration_id",
            winner_id=F("match__winner_id"),
            event_id=F("match__round__event_id"),
            round_number=F("match__round__number"),
            round_title=F("match__round__title"),
        )
    }
    seats: dict[int, list[dict]] = defaultdict(list)
    for seat in MatchSeat.objects.filter(match_id__in=list(matches)).values(
        "match_id", "registration_id", "placement"
    ):
        seats[seat["match_id"]].append(seat)
    return matches, seats


def _users_of(reg_ids: set[int]) -> dict[int, set[int]]:
    """The users who play for each entry: its own user and its team's members."""
    users: dict[int, set[int]] = defaultdict(set)
    for pk, user_id in Registration.objects.filter(pk__in=reg_ids, user__isnull=False).values_list(
        "pk", "user_id"
    ):
        users[pk].add(user_id)
    for reg_id, user_id in TeamMember.objects.filter(registration_id__in=reg_ids).values_list(
        "registration_id", "user_id"
    ):
        users[reg_id].add(user_id)
    return users


def _public_decks(user, regs: list[Registration]) -> dict[int, str]:
    """Decklists that may be shown: their event finished and publishes its lists."""
    shown = [
        r.pk for r in regs if r.event.status == Event.Status.FINISHED and r.event.decklists_public
    ]
    if not shown:
        return {}
    decks = dict(
        Decklist.objects.filter(registration_id__in=shown, registration__user=user).values_list(
            "registration_id", "text"
        )
    )
    for reg_id, deck in TeamMember.objects.filter(registration_id__in=shown, user=user).values_list(
        "registration_id", "deck"
    ):
        if deck:
            decks[reg_id] = deck
    return decks


def _finish(reg: Registration) -> tuple[int | None, str | None, int | None]:
    """The entry's rank, its place as the standings show it ("3–4" shared in a bracket)
    and the number of entrants; Nones before the event finishes."""
    event = reg.event
    if event.status != Event.Status.FINISHED:
        return None, None, None
    snapshot = getattr(event, "standings_snapshot", None)
    if snapshot is None:
        return None, None, None
    rows = snapshot.rows or []
    row = next((row for row in rows if row.get("player") == reg.pk), None)
    if row is None:
        return None, None, len(rows)
    rank, place = row_finish(row)
    return rank, place, len(rows)


def player_profile(user, vs=None) -> Profile:
    """The profile of ``user``; with ``vs`` (another user), their matches against each other."""
    regs = entries_of(user)
    reg_ids = [r.pk for r in regs]
    by_reg = {r.pk: r for r in regs}
    matches, seats = _final_seats(reg_ids)
    decks = _public_decks(user, regs)
    entries: dict[int, Entry] = {}
    for reg in regs:
        rank, place, of = _finish(reg)
        entries[reg.pk] = Entry(
            event=reg.event,
            registration=reg,
            game_name=game_name(reg.event.game_system),
            rank=rank,
            place=place,
            of=of,
            deck=decks.get(reg.pk),
        )
    overall = Record()
    per_game: dict[str, Record] = defaultdict(Record)
    outcomes: dict[int, str] = {}
    for match_id, match in matches.items():
        outcome = _outcome(match["registration_id"], match, seats[match_id])
        outcomes[match_id] = outcome
        overall.add(outcome)
        entries[match["registration_id"]].record.add(outcome)
        per_game[by_reg[match["registration_id"]].event.game_system].add(outcome)
    by_game = sorted(
        ((key, game_name(key), record) for key, record in per_game.items()),
        key=lambda item: item[1],
    )
    profile = Profile(user=user, entries=list(entries.values()), record=overall, by_game=by_game)
    if vs is not None and vs.pk != user.pk:
        profile.head_to_head = _head_to_head(vs, matches, seats, outcomes, by_reg)
    return profile


def _head_to_head(vs, matches, seats, outcomes, by_reg) -> HeadToHead:
    other_regs = {
        s["registration_id"]
        for match_id, match in matches.items()
        for s in seats[match_id]
        if s["registration_id"] != match["registration_id"]
    }
    players = _users_of(other_regs)
    record = Record()
    played = []
    for match_id, match in matches.items():
        against = any(
            vs.pk in players.get(s["registration_id"], ())
            for s in seats[match_id]
            if s["registration_id"] != match["registration_id"]
        )
        if not against:
            continue
        record.add(outcomes[match_id])
        played.append(
            {
                "event": by_reg[match["registration_id"]].event,
                "round": match["round_number"],
                "round_title": match["round_title"],  # "Quarterfinals"; "" for Swiss
                "outcome": outcomes[match_id],
            }
        )
    played.sort(
        key=lambda m: (
            m["event"].starts_at is not None,
            m["event"].starts_at,
            m["event"].pk,
            m["round"],
        ),
        reverse=True,
    )
    return HeadToHead(opponent=vs, record=record, matches=played)
