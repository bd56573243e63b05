"""Events: creating one, changing its settings (checked against the game in the registry
and, once it has started, frozen where they shape the rounds), and its staff.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from engine.core import registry
from tournaments import standings as standings_core
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, EventStaff, RoundsRecommendation
from tournaments.services.common import audit, lock_event, said
from tournaments.services.decklists import recheck_decklists, schedule_decklist_deadline
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, check_organiser


def recommended_rounds(player_count: int) -> tuple[int, int]:
    """Swiss rounds and top cut recommended for a player count (MTR Appendix E table)."""
    row = (
        RoundsRecommendation.objects.filter(min_players__lte=player_count)
        .order_by("-min_players")
        .first()
    )
    if row is None:
        return (max(1, (max(player_count, 2) - 1).bit_length()), 0)
    return row.swiss_rounds, row.top_cut


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "event"
    slug = base
    n = 2
    while Event.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


EDITABLE_FIELDS = (
    "name",
    "game_system",
    "format",
    "structure",
    "swiss_rounds",
    "top_cut",
    "best_of",
    "grand_final_reset",
    "allow_split_finals",
    "seeding",
    "round_minutes",
    "tiebreaks",
    "starts_at",
    "location",
    "description",
    "max_players",
    "decklist_deadline",
    "auto_advance",
    "play_online",
    "is_public",
    "decklists_public",
    "players_per_game",
    "time_bank_minutes",
)


# Settings that shape the rounds and cannot change once the event has started.
STRUCTURAL_FIELDS = frozenset(
    {
        "game_system",
        "format",
        "structure",
        "best_of",
        "top_cut",
        "grand_final_reset",
        "players_per_game",
    }
)


def _game(system: str | None):
    """The game ``system`` of the registry, or a TournamentError in the reader's language."""
    try:
        return registry.get(system)
    except registry.UnknownGameSystem:
        raise TournamentError(_("There is no game %(game)s.") % {"game": system}) from None


def _check_settings(fields: dict, event: Event | None = None) -> None:
    """The settings given (over the event's, when it exists): the game and its format
    come from the registry (``engine.core.registry``), never from a list of our own."""
    if "game_system" in fields or "format" in fields:
        system = fields.get("game_system") or (event.game_system if event else None)
        info = _game(system)
        fmt = fields.get("format") or (event.format if event else None)
        try:
            info.format(fmt)
        except registry.UnknownGameSystem:  # the engine's message is English: ours is not
            raise TournamentError(
                _("%(game)s has no format %(format)s.")
                % {"game": info.label(get_language() or "en"), "format": fmt}
            ) from None
    if "tiebreaks" in fields and fields["tiebreaks"] not in standings_core.RULESETS:
        raise TournamentError(_("Unknown tiebreak ruleset %(key)r.") % {"key": fields["tiebreaks"]})
    if fields.get("best_of") not in (None, 1, 3, 5):
        raise TournamentError(_("Matches are best of 1, 3 or 5."))
    if fields.get("top_cut") not in (None, 0, 2, 4, 8, 16):
        raise TournamentError(_("The top cut is 2, 4, 8 or 16 players, or none."))
    ppg = fields.get("players_per_game")
    if "players_per_game" in fields and (isinstance(ppg, bool) or not isinstance(ppg, int)):
        raise TournamentError(_("Players per game must be a whole number."))


def _check_pods(values: dict) -> None:
    """Players per game against the game and the event's structure (all settings merged).

    More than two players per game means pods: Swiss rounds only and one game per pod.
    The top cut of a pod event is a single final pod of the top 2 to ``players_per_game``
    players (a bracket of pods is not offered).
    """
    ppg = values["players_per_game"]
    info = _game(values["game_system"])
    if values.get("play_online") and not info.engine:
        raise TournamentError(
            _("%(game)s has no rules engine yet: its games are played at the table, not online.")
            % {"game": info.label(get_language() or "en")}
        )
    if not max(2, info.min_players) <= ppg <= info.max_players:
        if info.min_players == info.max_players:
            raise TournamentError(
                _("%(game)s is played by %(n)d players: players per game must be %(n)d.")
                % {"game": info.label(get_language() or "en"), "n": info.max_players}
            )
        raise TournamentError(
            _(
                "%(game)s is played by %(min)d to %(max)d players: players per game must be in that range."
            )
            % {
                "game": info.label(get_language() or "en"),
                "min": max(2, info.min_players),
                "max": info.max_players,
            }
        )
    try:
        fmt = info.format(values["format"])
    except registry.UnknownGameSystem:
        raise TournamentError(
            _("%(game)s has no format %(format)s.")
            % {"game": info.label(get_language() or "en"), "format": values["format"]}
        ) from None
    if not fmt.seats(ppg):
        raise TournamentError(
            _("%(format)s seats %(n)s players a game: choose that many players per game.")
            % {
                "format": fmt.label(get_language() or "en"),
                "n": " / ".join(map(str, fmt.players_per_game)),
            }
        )
    if ppg <= 2:
        return
    if values["structure"] != Event.Structure.SWISS:
        raise TournamentError(
            _(
                "Games of %(n)d players are paired in pods by Swiss rounds only: choose the Swiss structure."
            )
            % {"n": ppg}
        )
    if values["top_cut"] > ppg:
        raise TournamentError(
            _(
                "With pods the top cut is one final pod: at most %(n)d players. Choose a smaller "
                "top cut or none."
            )
            % {"n": ppg}
        )
    if values["best_of"] != 1:
        raise TournamentError(
            _("A pod plays a single game: choose best of 1 for games of more than two players.")
        )


def _team_size(values: dict) -> int:
    try:
        return registry.get(values["game_system"]).format(values["format"]).team_size
    except registry.UnknownGameSystem:
        return 1


def _check_teams(values: dict, event: Event | None = None) -> None:
    """A team format (``registry.Format.team_size``): two teams a match, every member
    seated at an online game; an event with entries keeps its kind of entrant."""
    size = _team_size(values)
    if event is not None and size != event.team_size and event.registrations.exists():
        raise TournamentError(
            _(
                "Players or teams have registered already: the format cannot change between "
                "a team format and a format for single players."
            )
        )
    if size < 2:
        return
    if values["players_per_game"] != 2:
        raise TournamentError(
            _("A team event pairs two teams a match: players per game must be 2.")
        )
    info = registry.get(values["game_system"])
    if values.get("play_online") and 2 * size > info.max_players:
        raise TournamentError(
            _("%(game)s seats at most %(n)d players: two teams of %(size)d cannot play online.")
            % {"game": info.label(get_language() or "en"), "n": info.max_players, "size": size}
        )


def _merged_settings(event: Event | None, fields: dict) -> dict:
    keys = (
        "players_per_game",
        "game_system",
        "format",
        "structure",
        "top_cut",
        "best_of",
        "play_online",
    )
    if event is None:
        defaults = {k: Event._meta.get_field(k).get_default() for k in keys}
    else:
        defaults = {k: getattr(event, k) for k in keys}
    return {k: fields[k] if fields.get(k) is not None else defaults[k] for k in keys}


def create_event(user: User, **fields) -> Event:
    if not user.is_authenticated:
        raise NotAllowed(_("Log in to create an event."))
    unknown = set(fields) - set(EDITABLE_FIELDS) - {"slug"}
    if unknown:
        raise TournamentError(_("Unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    if not (fields.get("name") or "").strip():
        raise TournamentError(_("An event needs a name."))
    if not fields.get("game_system"):
        fields["game_system"] = registry.default_system().key
    if not fields.get("format"):
        try:
            fields["format"] = _game(fields["game_system"]).formats[0].key
        except IndexError:
            raise TournamentError(_("This game has no formats.")) from None
    _check_settings(fields)
    _check_pods(_merged_settings(None, fields))
    _check_teams(_merged_settings(None, fields))
    with transaction.atomic():
        slug = fields.pop("slug", None) or _unique_slug(fields["name"])
        event = Event.objects.create(created_by=user, slug=slug, **fields)
        EventStaff.objects.create(event=event, user=user, role=EventStaff.Role.ORGANISER)
        audit(
            event,
            user,
            AuditEntry.Action.CREATE,
            said(gettext_noop("Created %(name)s"), name=event.name),
        )
        schedule_decklist_deadline(event)
    return event


def update_event(user: User, event: Event, **fields) -> Event:
    check_organiser(user, event)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    _check_settings(fields, event)
    with transaction.atomic():
        event = lock_event(event)
        if event.status != Event.Status.REGISTRATION:
            changed = {k for k in STRUCTURAL_FIELDS & set(fields) if getattr(event, k) != fields[k]}
            if changed:
                raise TournamentError(
                    _("These settings cannot change once the event has started: %(f)s")
                    % {"f": ", ".join(sorted(changed))}
                )
        _check_pods(_merged_settings(event, fields))
        _check_teams(_merged_settings(event, fields), event)
        before = {k: str(getattr(event, k)) for k in fields}
        deadline_before = event.decklist_deadline
        for key, value in fields.items():
            setattr(event, key, value)
        event.save()
        after = {k: str(getattr(event, k)) for k in fields}
        diff = {k: [before[k], after[k]] for k in fields if before[k] != after[k]}
        if diff:
            audit(
                event,
                user,
                AuditEntry.Action.EDIT,
                said(gettext_noop("Changed %(fields)s"), fields=", ".join(sorted(diff))),
                changes=diff,
            )
        if event.decklist_deadline != deadline_before:
            schedule_decklist_deadline(event)
        if {"game_system", "format", "starts_at"} & set(diff):
            recheck_decklists(event)  # the rules or the date of the lists changed
        broadcast_on_commit(event.pk, "event")
    return event


def add_staff(actor: User, event: Event, user, role: str) -> EventStaff:
    check_organiser(actor, event)
    if role not in EventStaff.Role.values:
        raise TournamentError(_("Unknown role %(role)r.") % {"role": role})
    with transaction.atomic():
        staff, _created = EventStaff.objects.update_or_create(
            event=event, user=user, defaults={"role": role}
        )
        line = (
            gettext_noop("%(user)s is now an organiser")
            if role == EventStaff.Role.ORGANISER
            else gettext_noop("%(user)s is now a judge")
        )
        audit(event, actor, AuditEntry.Action.STAFF, said(line, user=user.get_username()))
    event.__dict__.pop("_staff_roles", None)
    return staff


def remove_staff(actor: User, event: Event, user) -> None:
    check_organiser(actor, event)
    with transaction.atomic():
        organisers = EventStaff.objects.filter(event=event, role=EventStaff.Role.ORGANISER)
        if organisers.filter(user=user).exists() and organisers.count() == 1:
            raise TournamentError(_("An event must keep at least one organiser."))
        EventStaff.objects.filter(event=event, user=user).delete()
        audit(
            event,
            actor,
            AuditEntry.Action.STAFF,
            said(gettext_noop("%(user)s removed from staff"), user=user.get_username()),
        )
    event.__dict__.pop("_staff_roles", None)
