"""Pages of the tournaments app. Thin: parse, authorise, call one service, render."""

from __future__ import annotations

import csv
from collections.abc import Callable
from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import bracket as bracket_core
from tournaments import console
from tournaments.forms import AddPlayerForm, DecklistForm, EventForm, StaffForm
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Registration,
    Round,
    StandingsSnapshot,
    TeamMember,
)
from tournaments.results import ResultError, games_from_counts
from tournaments.services.brackets import bracket_state, bracket_winners
from tournaments.services.decklists import (
    draft_not_over,
    is_limited,
    lock_decklists,
    no_decklists_message,
    submit_decklist,
    submit_member_deck,
)
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import (
    add_staff,
    create_event,
    recommended_rounds,
    remove_staff,
    update_event,
)
from tournaments.services.pairing import pair_next_round, publish_round, repair_round, swap_players
from tournaments.services.permissions import is_official, registration_of, role_of
from tournaments.services.placements import enter_placements, report_placements
from tournaments.services.players import check_in, drop, readd
from tournaments.services.players import register as register_player
from tournaments.services.results import call_time, confirm_result, enter_result, report_result
from tournaments.services.standings import PLACEMENT_RULESET, rounds_with_matches
from tournaments.services.starting import start_event
from tournaments.services.teams import find_player, register_team, team_members
from tournaments.standings import RULESETS


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def _ctx(request: HttpRequest, event: Event, **extra) -> dict:
    role = role_of(request.user, event)
    my_reg = None
    if request.user.is_authenticated:
        my_reg = registration_of(event, request.user)
    team_size = event.team_size
    my_team = []
    if my_reg is not None and team_size > 1:
        my_team = [m.user.get_username() for m in team_members(my_reg)]
    current = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    return {
        "player_url_prefix": reverse("tournaments:player", kwargs={"slug": event.slug, "pk": 0})[
            :-2
        ],
        "event": event,
        "role": role,
        "is_organiser": role == "organiser",
        "is_official": role in ("organiser", "judge"),
        "my_registration": my_reg,
        "my_team": my_team,
        "partner_slots": range(team_size - 1),
        "current_round": current,
        **extra,
    }


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.annotate(
        player_count=Count(
            "registrations",
            filter=~Q(registrations__status=Registration.Status.DROPPED),
            distinct=True,
        )
    )
    visible = events.filter(is_public=True)
    if request.user.is_authenticated:
        mine = EventStaff.objects.filter(user=request.user).values("event_id")
        visible = events.filter(Q(is_public=True) | Q(pk__in=mine))
    return render(request, "tournaments/event_list.html", {"events": visible[:200]})


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, initial={"tiebreaks": "mtr"})
    if request.method == "POST" and form.is_valid():
        try:
            event = create_event(request.user, **form.cleaned_data)
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Event created. Share its page so players can register."))
            return redirect("tournaments:manage", slug=event.slug)
    return render(request, "tournaments/event_form.html", {"form": form})


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    ctx = _ctx(request, event, snapshot=snapshot, ruleset=RULESETS[event.tiebreaks])
    ctx["player_count"] = event.registrations.exclude(status=Registration.Status.DROPPED).count()
    ctx["limited"] = is_limited(event)
    if ctx["limited"]:
        ctx["pods"] = list(event.pods.order_by("number"))
        if request.user.is_authenticated:
            ctx["my_pod"] = next(
                (p for p in ctx["pods"] if p.seats.filter(user=request.user).exists()), None
            )
    current = ctx["current_round"]
    ctx["round"] = current
    if current is not None:
        ctx["matches"] = _matches(current)
    return render(request, "tournaments/event_detail.html", ctx)


def _matches(rnd: Round):
    return (
        rnd.matches.prefetch_related("seats__registration")
        .select_related("winner")
        .order_by("table")
    )


@require_GET
def pairings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    rounds = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    if not rounds:
        ctx = _ctx(request, event, rounds=[], round=None, matches=[], by_name=[])
        return render(request, "tournaments/pairings.html", ctx)
    number = request.GET.get("round")
    rnd = rounds[-1]
    if number:
        rnd = next((r for r in rounds if str(r.number) == number), None)
        if rnd is None:
            raise Http404(_("No such round."))
    matches = list(_matches(rnd))
    by_name = sorted(
        ((seat, match) for match in matches for seat in match.seats.all()),
        key=lambda item: item[0].registration.display_name.lower(),
    )
    ctx = _ctx(request, event, rounds=rounds, round=rnd, matches=matches, by_name=by_name)
    if event.uses_pods:
        ctx["pod_by_name"] = [
            (
                seat,
                match,
                ", ".join(
                    s.registration.display_name for s in match.seats.all() if s.pk != seat.pk
                ),
            )
            for seat, match in by_name
        ]
    if request.GET.get("fragment"):
        return render(request, "tournaments/_pairings.html", ctx)
    return render(request, "tournaments/pairings.html", ctx)


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    ctx = _ctx(request, event, snapshot=snapshot, ruleset=RULESETS[event.tiebreaks])
    if request.GET.get("fragment"):
        return render(request, "tournaments/_standings.html", ctx)
    return render(request, "tournaments/standings.html", ctx)


@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    columns = _bracket_columns(event)
    ctx = _ctx(request, event, columns=columns)
    if request.GET.get("fragment"):
        return render(request, "tournaments/_bracket.html", ctx)
    return render(request, "tournaments/bracket.html", ctx)


def _bracket_columns(event: Event) -> list[dict]:
    if not event.bracket:
        return []
    brk = bracket_core.Bracket.from_json(event.bracket["bracket"])
    seeds = event.bracket["seeds"]
    winners = bracket_winners(event)
    state = bracket_state(event)
    names = dict(event.registrations.values_list("pk", "display_name"))
    seed_of = {pid: n for n, pid in enumerate(seeds, start=1)}
    scores: dict[str, dict[int, int]] = {}
    for seat in (
        MatchSeat.objects.filter(round__event=event)
        .exclude(match__bracket_code="")
        .select_related("match")
    ):
        if seat.match.status == Match.Status.FINAL:
            scores.setdefault(seat.match.bracket_code, {})[seat.registration_id] = seat.game_wins
    columns = []
    for bracket_name, round_no, matches in bracket_core.rounds_for_drawing(brk):
        cells = []
        for m in matches:
            players = state.slots.get(m.code, (None, None))
            sides = []
            for src, pid in zip((m.a, m.b), players, strict=True):
                sides.append(
                    {
                        "name": names.get(pid)
                        if pid is not None
                        else ("bye" if src.kind == "bye" else ""),
                        "seed": seed_of.get(pid),
                        "score": scores.get(m.code, {}).get(pid),
                        "won": pid is not None and winners.get(m.code) == pid,
                    }
                )
            cells.append(
                {"code": m.code, "label": m.label, "sides": sides, "split": state.split == m.code}
            )
        columns.append(
            {"title": bracket_core.round_title(brk, bracket_name, round_no), "matches": cells}
        )
    return columns


@require_GET
def player_history(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = _event(slug)
    reg = get_object_or_404(Registration, event=event, pk=pk)
    seats = (
        MatchSeat.objects.filter(registration=reg)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("match", "round")
        .prefetch_related("match__seats__registration")
        .order_by("round__number")
    )
    history = []
    for seat in seats:
        opponents = [s for s in seat.match.seats.all() if s.registration_id != reg.pk]
        history.append(
            {"round": seat.round, "match": seat.match, "seat": seat, "opponents": opponents}
        )
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    row = next((r for r in (snapshot.rows if snapshot else []) if r["player"] == reg.pk), None)
    return render(
        request,
        "tournaments/player.html",
        _ctx(request, event, player=reg, history=history, row=row),
    )


def _csv_response(filename: str) -> tuple[HttpResponse, csv.writer]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response)


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    response, writer = _csv_response(f"{event.slug}-standings.csv")
    if snapshot is not None and snapshot.ruleset == PLACEMENT_RULESET:
        writer.writerow(
            [
                "rank",
                "player",
                "points",
                "pods",
                "firsts",
                "average_placement",
                "opponents_average",
                "dropped",
            ]
        )
        for r in snapshot.rows:
            writer.writerow(
                [
                    r["rank"],
                    r["name"],
                    r["points"],
                    r["pods"],
                    r["firsts"],
                    f"{r['average_placement']:.4f}",
                    f"{r['opponents_average']:.4f}",
                    int(r["dropped"]),
                ]
            )
        return response
    writer.writerow(
        [
            "rank",
            "player",
            "points",
            "wins",
            "losses",
            "draws",
            "omw",
            "gw",
            "ogw",
            "oomw",
            "dropped",
        ]
    )
    for r in snapshot.rows if snapshot else []:
        writer.writerow(
            [
                r["rank"],
                r["name"],
                r["points"],
                r["wins"],
                r["losses"],
                r["draws"],
                f"{r['omw']:.4f}",
                f"{r['gw']:.4f}",
                f"{r['ogw']:.4f}",
                "" if r.get("oomw") is None else f"{r['oomw']:.4f}",
                int(r["dropped"]),
            ]
        )
    return response


@require_GET
def pairings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    response, writer = _csv_response(f"{event.slug}-pairings.csv")
    if event.uses_pods:
        size = event.players_per_game
        writer.writerow(
            [
                "round",
                "table",
                *(f"player_{n}" for n in range(1, size + 1)),
                *(f"place_{n}" for n in range(1, size + 1)),
                "status",
            ]
        )
        for rnd in rounds_with_matches(event).exclude(status=Round.Status.DRAFT):
            for match in rnd.matches.all():
                seats = list(match.seats.all())
                pad = [""] * (size - len(seats))
                places = [s.placement if match.is_final and s.placement else "" for s in seats]
                writer.writerow(
                    [
                        rnd.number,
                        match.table,
                        *(s.registration.display_name for s in seats),
                        *pad,
                        *places,
                        *pad,
                        match.status,
                    ]
                )
        return response
    writer.writerow(["round", "table", "player_1", "player_2", "score", "status"])
    for rnd in rounds_with_matches(event).exclude(status=Round.Status.DRAFT):
        for match in rnd.matches.all():
            seats = list(match.seats.all())
            names = [s.registration.display_name for s in seats] + [""] * (2 - len(seats))
            score = "bye" if match.is_bye else "-".join(str(s.game_wins) for s in seats)
            if match.game_draws:
                score += f"-{match.game_draws}"
            writer.writerow(
                [
                    rnd.number,
                    match.table,
                    names[0],
                    names[1] if len(names) > 1 else "",
                    score if match.is_final else "",
                    match.status,
                ]
            )
    return response


# ---------------------------------------------------------------- players


def _posted_text(post, name: str) -> str:
    """A text posted by a page without a Django form. A NUL character, which PostgreSQL
    can neither store nor compare (the request answered 500), is refused as a form field
    refuses it."""
    value = post.get(name, "")
    if "\x00" in value:
        raise TournamentError(_("Null characters are not allowed."))
    return value


def _posted_pk(post, name: str) -> str:
    """An id posted by a page: anything but a whole number names nothing (404, not 500)."""
    value = post.get(name, "")
    if not (value.isascii() and value.isdigit()):
        raise Http404
    return value


def _run(request: HttpRequest, action: Callable[[], object], success: str | None = None) -> bool:
    try:
        action()
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except (TournamentError, ResultError) as exc:
        messages.error(request, str(exc))
        return False
    if success:
        messages.success(request, success)
    return True


@login_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    if event.is_team_event:

        def enter_team():
            partners = [find_player(name) for name in request.POST.getlist("partner")]
            return register_team(
                event,
                name=_posted_text(request.POST, "display_name"),
                members=[request.user, *partners],
                actor=request.user,
            )

        _run(request, enter_team, _("Your team is registered."))
        return redirect("tournaments:event_detail", slug=slug)
    _run(
        request,
        lambda: register_player(
            event, user=request.user, display_name=_posted_text(request.POST, "display_name")
        ),
        _("You are registered."),
    )
    return redirect("tournaments:event_detail", slug=slug)


@login_required
@require_POST
def self_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    event = _event(slug)
    reg = registration_of(event, request.user)
    if reg is None:
        raise Http404
    if action == "check-in":
        _run(request, lambda: check_in(request.user, reg), _("You are checked in."))
    elif action == "drop":
        _run(
            request,
            lambda: drop(request.user, reg, _posted_text(request.POST, "reason")),
            _("You have dropped."),
        )
    else:
        raise Http404
    return redirect("tournaments:event_detail", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def decklist(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    if event.is_team_event:  # each member's own deck
        member = get_object_or_404(TeamMember, event=event, user=request.user)
        existing = _member_deck(member)

        def submit(text: str):
            return _member_deck(submit_member_deck(request.user, member, text))
    else:
        reg = get_object_or_404(Registration, event=event, user=request.user)
        existing = getattr(reg, "decklist", None) if hasattr(reg, "decklist") else None

        def submit(text: str):
            return submit_decklist(request.user, reg, text)

    form = DecklistForm(request.POST or None, initial={"text": existing.text if existing else ""})
    saved: list = []
    if (
        request.method == "POST"
        and form.is_valid()
        and _run(request, lambda: saved.append(submit(form.cleaned_data["text"])))
    ):
        if saved[0].is_legal is False:
            messages.warning(
                request,
                _("Decklist saved, but it is not legal for this format: see the problems below."),
            )
        else:
            messages.success(request, _("Decklist saved."))
        return redirect("tournaments:decklist", slug=slug)
    deadline_passed = (
        event.decklist_deadline is not None and timezone.now() > event.decklist_deadline
    )
    return render(
        request,
        "tournaments/decklist.html",
        _ctx(
            request,
            event,
            form=form,
            deck=existing,
            deadline_passed=deadline_passed,
            deck_rules=_deck_rules(event),
            no_decklists=no_decklists_message(event),
        ),
    )


def _member_deck(member: TeamMember) -> SimpleNamespace | None:
    """A team member's deck as the decklist page shows a list."""
    if not member.deck:
        return None
    return SimpleNamespace(
        text=member.deck,
        problems=member.deck_problems,
        is_legal=member.deck_is_legal,
        locked=False,
        updated_at=None,
    )


def _deck_rules(event: Event) -> list[tuple[str, str]]:
    """The deck rules of the event's format, for display (none if the game has no checker)."""
    try:
        info = event.game_info
        if not info.decks:
            return []
        language = "ru" if (get_language() or "").startswith("ru") else "en"
        fmt = event.format_info
        rules = fmt.deck_rules if fmt is not None else event.format
        return list(info.load("decks").rules_summary(rules, language=language))
    except Exception:
        return []


def _parse_games(post, best_of: int) -> list[int | None]:
    """Read the result form: either per-game selects (game_1…) or counts (wins_0, wins_1, draws)."""
    if any(key.startswith("game_") for key in post):
        games: list[int | None] = []
        for n in range(1, 2 * best_of + 1):
            value = post.get(f"game_{n}", "")
            if value in ("", "none"):
                continue
            if value == "draw":
                games.append(None)
            elif value in ("0", "1"):
                games.append(int(value))
            else:
                raise ResultError(_("Game %(n)d: choose who won it.") % {"n": n})
        return games
    try:
        return games_from_counts(
            int(post.get("wins_0", 0)), int(post.get("wins_1", 0)), int(post.get("draws", 0) or 0)
        )
    except ValueError:
        raise ResultError(_("Game counts must be whole numbers.")) from None


def _parse_placements(post, seats: int) -> list[int]:
    """Read a pod result form: one select per seat (place_0, place_1, ...)."""
    placements = []
    for seat in range(seats):
        value = post.get(f"place_{seat}", "")
        if not value.isdigit():
            raise ResultError(_("Choose a placement for every player."))
        placements.append(int(value))
    return placements


def _report(user, match: Match, post) -> object:
    if match.round.event.uses_pods:
        return report_placements(user, match, _parse_placements(post, len(match.seats.all())))
    return report_result(user, match, _parse_games(post, match.best_of))


def _enter(user, match: Match, post) -> object:
    if match.round.event.uses_pods:
        return enter_placements(user, match, _parse_placements(post, len(match.seats.all())))
    return enter_result(user, match, _parse_games(post, match.best_of))


@login_required
@require_http_methods(["GET", "POST"])
def my_match(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    reg = registration_of(event, request.user)
    seat = None
    if reg is not None:
        seat = (
            MatchSeat.objects.filter(registration=reg, round__status=Round.Status.PUBLISHED)
            .select_related("match", "round")
            .prefetch_related("match__seats__registration", "match__reports__registration")
            .order_by("-round__number")
            .first()
        )
    if request.method == "POST":
        if seat is None:
            messages.error(request, _("You have no match to report."))
        elif request.POST.get("confirm"):
            _run(
                request,
                lambda: confirm_result(request.user, seat.match),
                _("Result confirmed."),
            )
        else:

            def do_report():
                return _report(request.user, seat.match, request.POST)

            success = (
                _("Result reported. The other players will be asked to confirm it.")
                if event.uses_pods
                else _("Result reported. Your opponent will be asked to confirm it.")
            )
            _run(request, do_report, success)
        return redirect("tournaments:my_match", slug=slug)
    ctx = _ctx(request, event, seat=seat, registration=reg)
    if seat is not None:
        match = seat.match
        ctx["match"] = match
        ctx["opponents"] = [s for s in match.seats.all() if s.pk != seat.pk]
        ctx["my_report"] = next(
            (r for r in match.reports.all() if r.registration_id == reg.pk), None
        )
        ctx["their_report"] = next(
            (r for r in match.reports.all() if r.registration_id != reg.pk), None
        )
        ctx["game_numbers"] = range(1, match.best_of + 1)
        if event.uses_pods:
            ctx["pod"] = _pod_context(match, reg)
    return render(request, "tournaments/my_match.html", ctx)


def _pod_context(match: Match, reg: Registration) -> dict:
    """A pod's seats, reports and placement choices, ready for the templates."""
    seats = list(match.seats.all())
    names = [s.registration.display_name for s in seats]
    reports = []
    for report in match.reports.all():
        if report.placements is None or report.registration_id == reg.pk:
            continue
        who = next(
            (
                s.registration.display_name
                for s in seats
                if s.registration_id == report.registration_id
            ),
            "?",
        )
        reports.append({"who": who, "rows": list(zip(names, report.placements, strict=False))})
    mine = next(
        (r for r in match.reports.all() if r.registration_id == reg.pk and r.placements), None
    )
    return {
        "seats": seats,
        "places": range(1, len(seats) + 1),
        "reports": reports,
        "my_rows": list(zip(names, mine.placements, strict=False)) if mine else None,
        "form_rows": [
            {
                "seat": n,
                "name": name,
                "is_me": seats[n].registration_id == reg.pk,
                "selected": mine.placements[n] if mine and n < len(mine.placements) else None,
            }
            for n, name in enumerate(names)
        ],
        "final_rows": [(s.registration.display_name, s.placement, s.score) for s in seats],
    }


# ---------------------------------------------------------------- organiser console


def _round_notice(event: Event, draft: Round | None, live: Round | None) -> dict | None:
    """What the console tells the organiser about the round last completed, if anything.

    "Round N complete — pair round N+1" while the event waits for them; with
    ``auto_advance``, that the event paired (and published) the next round itself.
    Worked out from the rounds and the audit log, so every official's page agrees.
    """
    if event.status != Event.Status.RUNNING:
        return None
    done = event.rounds.filter(status=Round.Status.COMPLETED).order_by("-number").first()
    if done is None:
        return None
    following = live or draft
    if following is None:
        return {
            "kind": "pair",
            "text": _("%(done)s complete — pair round %(next)d.")
            % {"done": done, "next": done.number + 1},
        }
    if following.number != done.number + 1:
        return None
    by_itself = event.audit.filter(
        action__in=[AuditEntry.Action.PAIR, AuditEntry.Action.TOP_CUT],
        actor__isnull=True,
        data__round=following.number,
    ).exists()
    if not by_itself:
        return None
    return {
        "kind": "auto",
        "text": _("%(done)s complete — the event ran %(next)s itself.")
        % {"done": done, "next": following},
    }


@login_required
@require_GET
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    if not is_official(request.user, event):
        raise PermissionDenied(
            _("Only the organisers and judges of this event can open its console.")
        )
    registrations = list(
        event.registrations.select_related("user", "decklist")
        .prefetch_related("members__user")
        .order_by("status", "display_name")
    )
    draft = event.rounds.filter(status=Round.Status.DRAFT).first()
    live = event.rounds.filter(status=Round.Status.PUBLISHED).first()
    limited = is_limited(event)
    ctx = _ctx(
        request,
        event,
        registrations=registrations,
        draft_round=draft,
        draft_matches=_matches(draft) if draft else [],
        live_round=live,
        live_matches=_matches(live).prefetch_related("reports") if live else [],
        round_notice=_round_notice(event, draft, live),
        staff=event.staff.select_related("user"),
        audit=event.audit.select_related("actor")[:50],
        form=EventForm(instance=event),
        staff_form=StaffForm(),
        add_form=AddPlayerForm(),
        member_slots=range(event.team_size if event.is_team_event else 0),
        recommended=recommended_rounds(sum(1 for r in registrations if r.is_active)),
        game_numbers=range(1, event.best_of * 2 + 1),
        pods=list(event.pods.order_by("number")) if limited else [],
        limited=limited,
        **console.context(event),
        pods_waiting=event.pods.filter(status="waiting").exists(),
        draft_not_over=draft_not_over(event) if event.status == Event.Status.REGISTRATION else None,
    )
    return render(request, "tournaments/manage.html", ctx)


@login_required
@require_POST
def manage_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    event = _event(slug)
    user = request.user
    post = request.POST
    if not is_official(user, event):
        raise PermissionDenied(_("Only the organisers and judges of this event can do that."))

    def reg() -> Registration:
        return get_object_or_404(Registration, event=event, pk=_posted_pk(post, "registration"))

    def rnd() -> Round:
        return get_object_or_404(Round, event=event, pk=_posted_pk(post, "round"))

    def match() -> Match:
        return get_object_or_404(Match, round__event=event, pk=_posted_pk(post, "match"))

    def add_player():
        if event.is_team_event:
            return register_team(
                event,
                name=_posted_text(post, "display_name"),
                members=[find_player(name) for name in post.getlist("member")],
                actor=user,
            )
        username = _posted_text(post, "username").strip()
        player_user = None
        if username:
            player_user = get_user_model().objects.filter(username=username).first()
            if player_user is None:
                raise TournamentError(_("No user is called %(u)s.") % {"u": username})
        return register_player(
            event, user=player_user, display_name=_posted_text(post, "display_name"), actor=user
        )

    def edit():
        form = EventForm(post, instance=Event.objects.get(pk=event.pk))
        if not form.is_valid():
            raise TournamentError("; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return update_event(user, event, **form.cleaned_data)

    def staff():
        form = StaffForm(post)
        if not form.is_valid():
            raise TournamentError(_("Give a username and a role."))
        member = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
        if member is None:
            raise TournamentError(
                _("No user is called %(u)s.") % {"u": form.cleaned_data["username"]}
            )
        if post.get("remove"):
            return remove_staff(user, event, member)
        return add_staff(user, event, member, form.cleaned_data["role"])

    def swap():
        first = get_object_or_404(Registration, event=event, pk=_posted_pk(post, "first"))
        second = get_object_or_404(Registration, event=event, pk=_posted_pk(post, "second"))
        return swap_players(user, rnd(), first, second)

    actions: dict[str, tuple[Callable[[], object], str]] = {
        "start": (lambda: start_event(user, event), _("The event has started.")),
        "pair": (
            lambda: pair_next_round(user, event),
            _("Round paired: review it, then publish."),
        ),
        "publish": (lambda: publish_round(user, rnd()), _("Round published.")),
        "repair": (lambda: repair_round(user, rnd()), _("Round paired again.")),
        "swap": (swap, _("Players swapped.")),
        "time": (lambda: call_time(user, rnd()), _("Time called.")),
        "result": (lambda: _enter(user, match(), post), _("Result saved.")),
        "add-player": (add_player, _("Player added.")),
        "check-in": (lambda: check_in(user, reg()), _("Player checked in.")),
        "drop": (
            lambda: drop(user, reg(), _posted_text(post, "reason")),
            _("Player dropped."),
        ),
        "readd": (lambda: readd(user, reg()), _("Player re-added.")),
        "settings": (edit, _("Settings saved.")),
        "staff": (staff, _("Staff updated.")),
        "lock-decklists": (lambda: lock_decklists(user, event), _("Decklists locked.")),
    }
    for name, added in console.actions().items():  # the apps above (tournaments.console)
        actions[name] = (lambda h=added.handler: h(user, event, post), added.success)
    if action not in actions:
        raise Http404(_("Unknown action."))
    handler, success = actions[action]
    _run(request, handler, success)
    return redirect(reverse("tournaments:manage", kwargs={"slug": slug}) + post.get("anchor", ""))
