"""The judge's log: penalties issued to players, and the list of penalties an event uses.

An event's list (``PenaltyType``) starts with the four penalties of the Magic Tournament
Rules, each a name and what it does; its organisers add their own and remove those never
issued. A judge or organiser issues a penalty to a player, for a match of a published
round or for no match at all, with a reason:

* a warning is recorded, nothing else;
* a match loss settles the match for the opponent (2-0 in a best-of-3) through the results
  service, whether it was being played or already final, so standings follow;
* a game loss gives the opponent one more game: the games recorded for the match (all of
  them once it is final, those the engine decided while it is played online, those earlier
  game losses recorded) plus one won by the opponent. When that decides the match, or the
  match was already final but undecided (time called at 1-1), it is entered through the
  results service (online, the game in progress then ends, its state kept). A match at a
  table that one game does not decide goes on with that game recorded (a ``Game`` row,
  the seats' game wins): the players report the whole match beginning with it
  (``results.report_result`` refuses a report that leaves it out; the report form and
  the result desk show it filled in). Online the game loss takes the match's next game
  number in the same way, no game is played for it, and the game in progress plays on
  as the game after it (``announce.online_games`` renumbers it): 1-0 and a game loss is
  1-1, and the game being played decides (decision 0066). A match already decided, or
  one whose players have already reported, is refused: a game loss after a match
  applies to the player's next match;
* in a pod (``Event.uses_pods``) a game is the whole match, so a game loss and a match
  loss are the same: the player takes the last place of the pod. A final pod is entered
  again with the player last (the others keep their order); a pod being played is
  finalised so, whatever its players report (``placements.finalise_pod`` reads the
  penalties issued for it);
* a disqualification drops the player (``players.drop``) with the penalty's reason; the
  match they are playing (the one named, or with none named their match of a published
  round not yet final) is first lost as with a match loss, through the same path, and
  revoking puts it back as it would a match loss's (decision 0067). A final match stays.

The organisers (the head judge) revoke. Revoking a game or match loss that changed a result
puts back the result it replaced, while the match is as the penalty left it and that result
was final; otherwise the log says what the organiser must put right, and the result stays.

Every change writes an audit entry; the rows involved are locked (penalty, then the
match's games being played online, then match) in one transaction, and a refusal changes
nothing. The games are locked before the match, the order the end of a game takes them
in, so a game ending while a penalty is issued is settled one before the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import announce
from tournaments.audit_text import AuditText, Term, said
from tournaments.live import broadcast_on_commit
from tournaments.models import (
    AuditEntry,
    Event,
    Game,
    Match,
    Penalty,
    PenaltyType,
    Registration,
    Round,
)
from tournaments.results import evaluate, games_needed, placements_with_last
from tournaments.services.common import audit
from tournaments.services.errors import TournamentError
from tournaments.services.matches import lock_match
from tournaments.services.permissions import User, check_official, check_organiser
from tournaments.services.placements import enter_placements, placement_text
from tournaments.services.players import drop
from tournaments.services.results import enter_result

Effect = PenaltyType.Effect

# The Magic Tournament Rules' penalties, the list every event starts with.
DEFAULT_TYPES: tuple[tuple[str, str], ...] = (
    (gettext_noop("Warning"), Effect.WARNING),
    (gettext_noop("Game loss"), Effect.GAME_LOSS),
    (gettext_noop("Match loss"), Effect.MATCH_LOSS),
    (gettext_noop("Disqualification"), Effect.DISQUALIFICATION),
)
RESULT_EFFECTS = (Effect.GAME_LOSS, Effect.MATCH_LOSS)
MAX_REASON = 500


# ---------------------------------------------------------------- the list


def penalty_types(event: Event) -> list[PenaltyType]:
    """The event's penalty types; the defaults are written the first time they are asked
    for (concurrent first askers are settled by the unique name per event)."""
    types = list(PenaltyType.objects.filter(event=event))
    if types:
        return types
    PenaltyType.objects.bulk_create(
        [
            PenaltyType(event=event, name=name, effect=effect, position=n)
            for n, (name, effect) in enumerate(DEFAULT_TYPES)
        ],
        ignore_conflicts=True,
    )
    return list(PenaltyType.objects.filter(event=event))


def add_penalty_type(actor: User, event: Event, name: str, effect: str) -> PenaltyType:
    """An organiser adds a penalty to the event's list."""
    check_organiser(actor, event)
    name = (name or "").strip()
    if not name:
        raise TournamentError(_("A penalty needs a name."))
    if len(name) > 60:
        raise TournamentError(_("A penalty's name has at most 60 characters."))
    if effect not in Effect.values:
        raise TournamentError(
            _("Unknown effect %(effect)s: choose one of %(choices)s.")
            % {"effect": effect, "choices": ", ".join(Effect.values)}
        )
    existing = penalty_types(event)
    try:
        with transaction.atomic():
            kind = PenaltyType.objects.create(
                event=event,
                name=name,
                effect=effect,
                position=max((t.position for t in existing), default=-1) + 1,
            )
            audit(
                event,
                actor,
                AuditEntry.Action.PENALTY_TYPES,
                said(
                    gettext_noop("Penalty added to the list: %(name)s (%(effect)s)"),
                    name=Term(name),
                    effect=Term(_english(Effect(effect).label)),
                ),
                penalty_type=kind.pk,
            )
    except IntegrityError:
        raise TournamentError(
            _("The list already has a penalty called %(name)s.") % {"name": name}
        ) from None
    return kind


def remove_penalty_type(actor: User, kind: PenaltyType) -> None:
    """An organiser removes a penalty from the list; one already issued stays."""
    event = kind.event
    check_organiser(actor, event)
    with transaction.atomic():
        kind = PenaltyType.objects.select_for_update().get(pk=kind.pk)
        if kind.penalties.exists():
            raise TournamentError(
                _("%(name)s has been issued: it stays in the list.") % {"name": kind.name}
            )
        audit(
            event,
            actor,
            AuditEntry.Action.PENALTY_TYPES,
            said(gettext_noop("Penalty removed from the list: %(name)s"), name=Term(kind.name)),
            penalty_type=kind.pk,
        )
        kind.delete()


def _english(label) -> str:
    """A lazily translated label's msgid (its English)."""
    with translation.override("en"):
        return str(label)


# ---------------------------------------------------------------- issuing


@dataclass(frozen=True)
class ResultChange:
    games: list[int | None]  # the games the match is settled with (or has recorded so far)
    text: AuditText  # what the log says happened
    record_only: bool = False  # True: the games are recorded and the match goes on


@dataclass(frozen=True)
class PodChange:
    placements: list[int] | None  # the pod's placements now (None: it is still played)
    text: AuditText


def _seats(match: Match) -> list:
    return list(match.seats.select_related("registration").order_by("seat"))


def _recorded_games(match: Match) -> list[int | None]:
    return list(match.games.order_by("number").values_list("winner_seat", flat=True))


def _score(games: list[int | None], match: Match, seats: int) -> str:
    return evaluate(games, match.best_of, seats=seats, allow_draw=True).score


def check_target(
    event: Event, kind: PenaltyType, registration: Registration, match: Match | None
) -> None:
    """Refuse a penalty that cannot be issued as asked (nothing is written yet)."""
    if kind.event_id != event.pk:
        raise TournamentError(_("That penalty is not in this event's list."))
    if registration.event_id != event.pk:
        raise TournamentError(_("%(name)s does not play in this event.") % {"name": registration})
    if match is None:
        if kind.effect in RESULT_EFFECTS:
            raise TournamentError(
                _("A %(penalty)s changes a match's result: choose the match.")
                % {"penalty": _(kind.name)}
            )
        return
    if match.round.event_id != event.pk:
        raise TournamentError(_("That match is not a match of this event."))
    if match.round.status == Round.Status.DRAFT:
        raise TournamentError(_("That match's round is not published yet."))
    if not match.seats.filter(registration=registration).exists():
        raise TournamentError(
            _("%(name)s does not play in table %(table)d of %(round)s.")
            % {"name": registration, "table": match.table, "round": match.round}
        )
    if kind.effect in RESULT_EFFECTS and match.is_bye:
        raise TournamentError(_("A bye has no result to change."))


def _result_change(effect: str, match: Match, registration: Registration) -> ResultChange:
    """The result a game or match loss gives a two-player match; ``TournamentError`` when
    it cannot be applied."""
    seats = _seats(match)
    opponent = next(n for n, s in enumerate(seats) if s.registration_id != registration.pk)
    name = seats[opponent].registration.display_name
    if effect == Effect.MATCH_LOSS:
        games = [opponent] * games_needed(match.best_of)
        return ResultChange(
            games,
            said(
                gettext_noop("Match settled for %(player)s: %(score)s"),
                player=name,
                score=_score(games, match, len(seats)),
            ),
        )
    recorded = _recorded_games(match)
    if recorded:
        outcome = evaluate(recorded, match.best_of, seats=len(seats), allow_draw=True)
        if max(outcome.wins, default=0) >= games_needed(match.best_of):
            raise TournamentError(
                _(
                    "Table %(table)d of %(round)s is already decided (%(score)s): a game loss "
                    "after a match applies to the player's next match."
                )
                % {"table": match.table, "round": match.round, "score": outcome.score}
            )
    games = [*recorded, opponent]
    outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
    decided = max(outcome.wins) >= games_needed(match.best_of)
    if decided or match.is_final:
        return ResultChange(
            games,
            said(
                gettext_noop("Game %(number)s to %(player)s: %(score)s"),
                number=len(games),
                player=name,
                score=outcome.score,
            ),
        )
    if match.round.event.play_online:
        # No game is played for it: the game in progress plays on as the one after it.
        return ResultChange(
            games,
            said(
                gettext_noop(
                    "Game %(number)s to %(player)s: %(score)s; table %(table)s of %(round)s "
                    "is played online and goes on with game %(next)s"
                ),
                number=len(games),
                player=name,
                score=outcome.score,
                table=match.table,
                round=match.round,
                next=len(games) + 1,
            ),
            record_only=True,
        )
    if match.reports.exists():
        raise TournamentError(
            _(
                "The players of table %(table)d of %(round)s have already reported their "
                "result: settle it first; a game loss after a match applies to the player's "
                "next match."
            )
            % {"table": match.table, "round": match.round}
        )
    return ResultChange(
        games,
        said(
            gettext_noop(
                "Game %(number)s to %(player)s: %(score)s; table %(table)s of %(round)s goes "
                "on, and the players report the rest of the match after that game"
            ),
            number=len(games),
            player=name,
            score=outcome.score,
            table=match.table,
            round=match.round,
        ),
        record_only=True,
    )


def _record_games(match: Match, games: list[int | None]) -> None:
    """Record the games of a match still being played (it stays open); the match row is
    locked by the caller."""
    seats = list(match.seats.order_by("seat"))
    outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
    Game.objects.filter(match=match).delete()
    Game.objects.bulk_create(
        [Game(match=match, number=n, winner_seat=g) for n, g in enumerate(games, start=1)]
    )
    for seat, wins in zip(seats, outcome.wins, strict=True):
        if seat.game_wins != wins:
            seat.game_wins = wins
            seat.save(update_fields=["game_wins"])
    match.game_draws = outcome.draws
    match.version += 1
    match.save(update_fields=["game_draws", "version"])
    broadcast_on_commit(match.round.event_id, "pairings")


def _pod_placements(match: Match) -> list[int | None]:
    return list(match.seats.order_by("seat").values_list("placement", flat=True))


def _pod_change(match: Match, registration: Registration) -> PodChange:
    """In a pod one game is the match: a game or match loss puts the player last."""
    seats = _seats(match)
    seat = next(n for n, s in enumerate(seats) if s.registration_id == registration.pk)
    if not match.is_final:
        return PodChange(
            None,
            said(
                gettext_noop(
                    "%(player)s takes the last place of table %(table)s of %(round)s when its "
                    "result is recorded"
                ),
                player=registration.display_name,
                table=match.table,
                round=match.round,
            ),
        )
    current = _pod_placements(match)
    placements = list(placements_with_last(current, {seat}))
    if placements == current:
        return PodChange(
            None,
            said(gettext_noop("%(player)s already placed last"), player=registration.display_name),
        )
    return PodChange(
        placements,
        said(
            gettext_noop("%(player)s placed last: %(placements)s"),
            player=registration.display_name,
            placements=placement_text(placements),
        ),
    )


def _apply_loss(
    actor: User,
    event: Event,
    effect: str,
    match: Match,
    registration: Registration,
    games: announce.OnlineGames | None,
) -> tuple[AuditText, dict | None, int | None, Match]:
    """Apply a game or match loss to the locked ``match``: what the log says, the result it
    replaced (``Penalty.result_before``), the match's version after it, and the match."""
    before = None
    version = None
    if event.uses_pods:
        change = _pod_change(match, registration)
        if change.placements is not None:
            before = {
                "status": match.status,
                "source": match.result_source,
                "placements": _pod_placements(match),
            }
            enter_placements(actor, match, change.placements)
            match = lock_match(match)
            version = match.version
        return change.text, before, version, match
    change = _result_change(effect, match, registration)
    if change.record_only:
        if change.games != _recorded_games(match):
            before = {
                "status": match.status,
                "source": match.result_source,
                "games": None,
                "recorded": _recorded_games(match),
            }
            _record_games(match, change.games)
            version = match.version
            if games is not None:  # the game in progress is the one after it
                before["online"] = True
                games.renumber(match.pk, len(change.games) + 1)
    else:
        before = {
            "status": match.status,
            "source": match.result_source,
            "games": _recorded_games(match) if match.is_final else None,
        }
        enter_result(actor, match, change.games)
        match = lock_match(match)
        version = match.version
    return change.text, before, version, match


# The audit line of a penalty issued: (for a match, with what it changed).
_ISSUED_LINES = {
    (False, False): gettext_noop("%(penalty)s to %(player)s: %(reason)s"),
    (False, True): gettext_noop("%(penalty)s to %(player)s: %(reason)s. %(outcome)s"),
    (True, False): gettext_noop(
        "%(penalty)s to %(player)s (table %(table)s of %(round)s): %(reason)s"
    ),
    (True, True): gettext_noop(
        "%(penalty)s to %(player)s (table %(table)s of %(round)s): %(reason)s. %(outcome)s"
    ),
}
# The audit line of a penalty revoked: (with the organiser's note, with what it put back).
_REVOKED_LINES = {
    (False, False): gettext_noop("%(penalty)s to %(player)s revoked"),
    (True, False): gettext_noop("%(penalty)s to %(player)s revoked: %(note)s"),
    (False, True): gettext_noop("%(penalty)s to %(player)s revoked. %(outcome)s"),
    (True, True): gettext_noop("%(penalty)s to %(player)s revoked: %(note)s. %(outcome)s"),
}


def issue_penalty(
    actor: User,
    kind: PenaltyType,
    registration: Registration,
    reason: str,
    match: Match | None = None,
) -> Penalty:
    """A judge or organiser of the event issues a penalty (see the module docstring)."""
    event = kind.event
    check_official(actor, event)
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError(_("Give the reason for the penalty."))
    if len(reason) > MAX_REASON:
        raise TournamentError(_("A reason has at most %(n)d characters.") % {"n": MAX_REASON})
    if "\x00" in reason:
        raise TournamentError(_("Null characters are not allowed."))
    check_target(event, kind, registration, match)
    effect = kind.effect
    if effect == Effect.DISQUALIFICATION:
        # The player loses the match in progress as with a match loss (decision 0067).
        match = match or _match_in_progress(event, registration)
        effect = Effect.MATCH_LOSS
    games = _games_online(event, effect, match)
    for _attempt in range(3):
        try:
            return _issue(actor, event, kind, registration, reason, match, games)
        except _GamesMoved:
            continue  # a game of the match ended as the penalty came: look again
    raise TournamentError(
        _("The games of table %(table)d are changing: issue the penalty again.")
        % {"table": match.table}
    )


def _match_in_progress(event: Event, registration: Registration) -> Match | None:
    """The player's match being played: of a published round, not final, not a bye."""
    return (
        Match.objects.filter(
            round__event=event,
            round__status=Round.Status.PUBLISHED,
            seats__registration=registration,
            is_bye=False,
        )
        .exclude(status=Match.Status.FINAL)
        .order_by("-round__number")
        .first()
    )


class _GamesMoved(Exception):
    """The match's games being played changed between locking them and the match."""


def _games_online(event: Event, effect: str, match: Match | None) -> announce.OnlineGames | None:
    """The play app's reach into the match's games, for a game or match loss in a
    two-player match of an online event; else None."""
    if match is None or effect not in RESULT_EFFECTS or not event.play_online:
        return None
    if event.uses_pods:
        return None
    return announce.online_games()


def _lock_with_games(match: Match, games: announce.OnlineGames | None) -> Match:
    """Lock the match's games being played online, then the match (the order the end of a
    game takes); ``_GamesMoved`` when a game was dealt or ended in between."""
    if games is None:
        return lock_match(match)
    locked = games.lock_open(match.pk)
    match = lock_match(match)
    if games.open_games(match.pk) != locked:
        raise _GamesMoved
    return match


def _issue(
    actor: User,
    event: Event,
    kind: PenaltyType,
    registration: Registration,
    reason: str,
    match: Match | None,
    games: announce.OnlineGames | None,
) -> Penalty:
    with transaction.atomic():
        before = None
        version = None
        outcome: AuditText | None = None
        if match is not None:
            match = _lock_with_games(match, games)
        if kind.effect in RESULT_EFFECTS:
            outcome, before, version, match = _apply_loss(
                actor, event, kind.effect, match, registration, games
            )
        elif kind.effect == Effect.DISQUALIFICATION:
            reg = Registration.objects.get(pk=registration.pk)
            if reg.is_active and event.status != Event.Status.FINISHED:
                lost = None
                if match is not None and not match.is_final and not match.is_bye:
                    # The match in progress is lost first, the player still in the event.
                    lost, before, version, match = _apply_loss(
                        actor, event, Effect.MATCH_LOSS, match, registration, games
                    )
                drop(actor, reg, said(gettext_noop("Disqualified: %(reason)s"), reason=reason))
                outcome = said(gettext_noop("%(player)s dropped"), player=reg.display_name)
                if lost is not None:
                    outcome = said(
                        gettext_noop("%(player)s dropped; %(result)s"),
                        player=reg.display_name,
                        result=lost,
                    )
            else:
                outcome = said(
                    gettext_noop("%(player)s was not playing on: not dropped again"),
                    player=reg.display_name,
                )
        penalty = Penalty.objects.create(
            event=event,
            penalty_type=kind,
            name=kind.name,
            effect=kind.effect,
            registration=registration,
            match=match,
            round_number=match.round.number if match is not None else None,
            table=match.table if match is not None else None,
            judge=actor if actor.is_authenticated else None,
            reason=reason,
            outcome=str(outcome or "")[:300],
            outcome_message=outcome.message if outcome is not None else "",
            outcome_params=outcome.params if outcome is not None else {},
            result_before=before,
            match_version=version,
        )
        audit(
            event,
            actor,
            AuditEntry.Action.PENALTY,
            said(
                _ISSUED_LINES[match is not None, outcome is not None],
                penalty=Term(kind.name),
                player=registration.display_name,
                table=match.table if match is not None else None,
                round=match.round if match is not None else None,
                reason=reason,
                outcome=outcome,
            ),
            penalty=penalty.pk,
            registration=registration.pk,
            match=match.pk if match is not None else None,
            effect=kind.effect,
            result_before=before,
        )
    return penalty


# ---------------------------------------------------------------- revoking


def revoke_penalty(actor: User, penalty: Penalty, note: str = "") -> Penalty:
    """An organiser revokes a penalty; a result it changed is put back where it can be
    (``revoke_outcome`` says what happened, or what the organiser must fix)."""
    event = penalty.event
    check_organiser(actor, event)
    note = (note or "").strip()
    if len(note) > 300:
        raise TournamentError(_("A note has at most 300 characters."))
    if "\x00" in note:
        raise TournamentError(_("Null characters are not allowed."))
    with transaction.atomic():
        penalty = (
            Penalty.objects.select_for_update(of=("self",))
            .select_related("registration")
            .get(pk=penalty.pk)
        )
        if penalty.is_revoked:
            raise TournamentError(_("This penalty has already been revoked."))
        # Revoked first: a pod entered again below no longer puts the player last.
        penalty.set_status(Penalty.Status.REVOKED)
        penalty.save(update_fields=["status"])
        match = penalty.match
        games = _games_online(event, penalty.effect, match) if match is not None else None
        if games is not None:  # locked before the match, as the end of a game locks them
            games.lock_open(match.pk)
        outcome = _undo(actor, penalty)
        penalty.revoked_at = timezone.now()
        penalty.revoked_by = actor if actor.is_authenticated else None
        penalty.revoke_note = note
        penalty.revoke_outcome = str(outcome or "")[:300]
        penalty.revoke_message = outcome.message if outcome is not None else ""
        penalty.revoke_params = outcome.params if outcome is not None else {}
        penalty.save(
            update_fields=[
                "status",
                "revoked_at",
                "revoked_by",
                "revoke_note",
                "revoke_outcome",
                "revoke_message",
                "revoke_params",
            ]
        )
        audit(
            event,
            actor,
            AuditEntry.Action.PENALTY_REVOKED,
            said(
                _REVOKED_LINES[bool(note), outcome is not None],
                penalty=Term(penalty.name),
                player=penalty.registration.display_name,
                note=note,
                outcome=outcome,
            ),
            penalty=penalty.pk,
            registration=penalty.registration_id,
            match=penalty.match_id,
        )
    return penalty


def _undo(actor: User, penalty: Penalty) -> AuditText | None:
    """Put back what the penalty changed, where it can be; the line says what happened."""
    player = penalty.registration.display_name
    if penalty.effect == Effect.DISQUALIFICATION:
        # The match it settled is put back as a match loss's is (decision 0067).
        result = _undo_result(actor, penalty) if penalty.result_before is not None else None
        if not penalty.registration.is_active:
            stays = said(
                gettext_noop(
                    "%(player)s stays dropped: re-add them from the players list to play on"
                ),
                player=player,
            )
            if result is None:
                return stays
            return said(gettext_noop("%(result)s; %(dropped)s"), result=result, dropped=stays)
        return result
    if penalty.effect not in RESULT_EFFECTS or penalty.result_before is None:
        return None
    return _undo_result(actor, penalty)


def _undo_result(actor: User, penalty: Penalty) -> AuditText | None:
    """Put back the result a loss (or a disqualification's loss) replaced, where it can be."""
    if penalty.match_id is None:
        return said(gettext_noop("The match no longer exists: nothing to put back"))
    match = lock_match(penalty.match)
    where = {"table": match.table, "round": match.round}
    if match.version != penalty.match_version:
        return said(
            gettext_noop(
                "The result of table %(table)s of %(round)s changed after the penalty: it "
                "stays; check it and enter the right result"
            ),
            **where,
        )
    before = penalty.result_before
    if before.get("recorded") is not None and not match.is_final:
        recorded = list(before["recorded"])
        _record_games(match, recorded)
        games = announce.online_games() if before.get("online") else None
        if games is not None:  # the game being played takes its number back (locked)
            games.renumber(match.pk, len(recorded) + 1)
        return said(
            gettext_noop("Game loss taken off table %(table)s of %(round)s: %(score)s"),
            score=_score(recorded, match, match.seats.count()),
            **where,
        )
    stays = gettext_noop(
        "The result of table %(table)s of %(round)s stays (%(error)s): fix it by hand"
    )
    if before.get("placements") is not None and before.get("status") == Match.Status.FINAL:
        placements = list(before["placements"])
        try:
            enter_placements(actor, match, placements)
        except TournamentError as exc:
            return said(stays, error=str(exc), **where)
        return said(
            gettext_noop("Placements of table %(table)s of %(round)s put back: %(placements)s"),
            placements=placement_text(placements),
            **where,
        )
    if before.get("status") != Match.Status.FINAL or before.get("games") is None:
        return said(
            gettext_noop(
                "Table %(table)s of %(round)s had no final result before the penalty: the "
                "result stays; enter the right result"
            ),
            **where,
        )
    try:
        enter_result(actor, match, list(before["games"]))
    except TournamentError as exc:
        return said(stays, error=str(exc), **where)
    seats = match.seats.count()
    return said(
        gettext_noop("Result of table %(table)s of %(round)s put back: %(score)s"),
        score=_score(list(before["games"]), match, seats),
        **where,
    )


# ---------------------------------------------------------------- reading


def penalties_of(event: Event, registration: Registration | None = None):
    """The event's log (newest first), or one player's."""
    log = Penalty.objects.filter(event=event).select_related("registration", "judge", "revoked_by")
    if registration is not None:
        log = log.filter(registration=registration)
    return log
