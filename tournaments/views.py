"""Pages of the tournaments app. Thin: parse, authorise, call one service, render."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine.core import registry
from tournaments import bracket as bracket_core
from tournaments import console, penalty_pages
from tournaments import pods as pods_core
from tournaments import standings as standings_core
from tournaments.forms import (
    AddPlayerForm,
    DecklistForm,
    EventForm,
    StaffForm,
    event_form_sections,
)
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Registration,
    Round,
    SeriesEvent,
    StandingsSnapshot,
    TeamMember,
)
from tournaments.results import (
    ResultError,
    games_after,
    games_from_counts,
    games_needed,
    parse_score,
    quick_scores,
)
from tournaments.ruleset_names import ruleset_name
from tournaments.services.brackets import bracket_state, bracket_winners
from tournaments.services.corrections import correct_result, preview_correction
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
from tournaments.services.pairing import (
    pair_next_round,
    publish_round,
    repair_round,
    set_fixed_table,
    swap_players,
    table_warnings,
)
from tournaments.services.permissions import is_official, registration_of, role_of
from tournaments.services.placements import enter_placements, report_placements
from tournaments.services.players import check_in, drop, readd
from tournaments.services.players import register as register_player
from tournaments.services.ratings import ratings_of_entrant
from tournaments.services.results import (
    call_time,
    check_recorded_games,
    confirm_result,
    enter_result,
    report_result,
)
from tournaments.services.standings import (
    PLACEMENT_RULESET,
    match_records,
    members_of,
    pod_results,
    rounds_with_matches,
    standings_rounds,
)
from tournaments.services.starting import start_event
from tournaments.services.teams import find_player, register_team, replace_member, team_members
from tournaments.standings import RULESETS


def _event(slug: str) -> Event:
    # The newest series the event is in, for its header's link (no query of its own).
    newest = SeriesEvent.objects.filter(event=OuterRef("pk")).order_by("-series__created_at")
    return get_object_or_404(
        Event.objects.select_related("created_by").annotate(
            series_slug=Subquery(newest.values("series__slug")[:1]),
            series_name=Subquery(newest.values("series__name")[:1]),
        ),
        slug=slug,
    )


def _game_name(event: Event) -> str:
    """The game's name as the registry gives it (the key of a game no longer registered)."""
    try:
        return registry.get(event.game_system).label(get_language() or "en")
    except registry.UnknownGameSystem:
        return event.game_system


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
        "game_name": _game_name(event),
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
    ).select_related("created_by")
    visible = events.filter(is_public=True)
    if request.user.is_authenticated:
        mine = EventStaff.objects.filter(user=request.user).values("event_id")
        visible = events.filter(Q(is_public=True) | Q(pk__in=mine))
    listed = list(visible[:200])
    for event in listed:
        event.game_name = _game_name(event)
    return render(request, "tournaments/event_list.html", {"events": listed})


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
    return render(
        request,
        "tournaments/event_form.html",
        {"form": form, "sections": event_form_sections(form)},
    )


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    ctx = _ctx(request, event, **_standings_ctx(event, snapshot))
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
        ctx["matches"] = list(_matches(current))
        ctx["rows"] = _pairing_rows(event, current, ctx["matches"])
        ctx["my_row"] = _mark_mine(ctx["rows"], ctx["my_registration"])
    return render(request, "tournaments/event_detail.html", ctx)


def _profile_of(event: Event, reg: Registration) -> str | None:
    """The username whose profile a single player's entry links to (guests and teams:
    none); the registration's user comes with the seats (``_matches``)."""
    user = reg.user if reg.user_id is not None and not event.is_team_event else None
    return user.username if user is not None and user.is_active else None


def _matches(rnd: Round):
    seats = MatchSeat.objects.select_related("registration__user")
    return (
        rnd.matches.prefetch_related(Prefetch("seats", queryset=seats))
        .select_related("winner")
        .order_by("table")
    )


def _records_before(event: Event, number: int) -> dict[int, object]:
    """Each player's record and points going into round ``number`` (its Swiss rounds; in an
    event with pods, placement points)."""
    if number <= 1:
        return {}
    if event.uses_pods:
        players, results, _dropped = pod_results(event)
        earlier = [r for r in results if r.round < number]
        try:
            rows = pods_core.standings_by_placement(players, earlier)
        except pods_core.PodStandingsError:
            return {}
        return {
            row.player: SimpleNamespace(wins=0, losses=0, draws=0, points=row.points)
            for row in rows
        }
    players, records, dropped, _codes = match_records(event)
    earlier = [r for r in records if r.phase == "swiss" and r.round < number]
    rows = standings_core.compute_standings(players, earlier, ruleset="mtr", dropped=dropped)
    return {row.player: row for row in rows}


def _pairing_rows(event: Event, rnd: Round, matches: list[Match]) -> list[dict]:
    """The round's tables for the pairings: each player with the record they bring into the
    round, the winner marked, and the result read from the winner's side."""
    before = _records_before(event, rnd.number)
    teams = (
        members_of(event, [s.registration_id for m in matches for s in m.seats.all()])
        if event.is_team_event
        else {}
    )
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        final = match.status == Match.Status.FINAL
        players = []
        for seat in seats:
            record = before.get(seat.registration_id)
            players.append(
                {
                    "id": seat.registration_id,
                    "name": seat.registration.display_name,
                    "username": _profile_of(event, seat.registration),
                    # A team's members, each linked to their profile (active accounts).
                    "members": [name for name, _a in teams.get(seat.registration_id, [])],
                    "member_accounts": [
                        name for name, active in teams.get(seat.registration_id, []) if active
                    ],
                    "seat": seat,
                    "wins": record.wins if record else 0,
                    "losses": record.losses if record else 0,
                    "draws": record.draws if record else 0,
                    "points": record.points if record else 0,
                    "won": final and match.winner_id == seat.registration_id,
                }
            )
        result = None
        if final and match.is_bye:
            result = {"kind": "bye"}
        elif final and len(seats) == 2:
            first, second = seats
            if match.winner_id == second.registration_id:
                first, second = second, first
            result = {
                "kind": "win" if match.winner_id else "draw",
                "winner": first.registration.display_name if match.winner_id else "",
                "score": f"{first.game_wins}–{second.game_wins}",
                "drawn_games": match.game_draws,
                "split": not match.winner_id and rnd.kind == Round.Kind.ELIMINATION,
            }
        rows.append({"match": match, "players": players, "result": result, "round": rnd})
    return rows


def _mark_mine(rows: list[dict], registration: Registration | None) -> dict | None:
    """Mark the table of the visitor's own registration; return it (None if they have none)."""
    mine = None
    for row in rows:
        row["mine"] = registration is not None and any(
            p["id"] == registration.pk for p in row["players"]
        )
        if row["mine"]:
            mine = row
    return mine


def _pairings_by_name(rows: list[dict]) -> list[dict]:
    """Every player of the round in alphabetical order, with the record and points they
    bring into it (as the table view shows them), their table or pod and their opponents."""
    listed = [
        {
            "player": p,
            "row": row,
            "match": row["match"],
            "opponents": [o for o in row["players"] if o["id"] != p["id"]],
        }
        for row in rows
        for p in row["players"]
    ]
    return sorted(listed, key=lambda item: (item["player"]["name"].lower(), item["player"]["id"]))


@require_GET
def pairings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    rounds = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    if not rounds:
        ctx = _ctx(request, event, rounds=[], round=None, matches=[], by_name=[], rows=[])
        return render(request, "tournaments/pairings.html", ctx)
    number = request.GET.get("round")
    rnd = rounds[-1]
    if number:
        rnd = next((r for r in rounds if str(r.number) == number), None)
        if rnd is None:
            raise Http404(_("No such round."))
    matches = list(_matches(rnd))
    rows = _pairing_rows(event, rnd, matches)
    ctx = _ctx(
        request,
        event,
        rounds=rounds,
        round=rnd,
        matches=matches,
        by_name=_pairings_by_name(rows),
        rows=rows,
    )
    _mark_mine(ctx["rows"], ctx["my_registration"])
    if request.GET.get("fragment"):
        return render(request, "tournaments/_pairings.html", ctx)
    return render(request, "tournaments/pairings.html", ctx)


def _standings_ctx(event: Event, snapshot: StandingsSnapshot | None) -> dict:
    """The snapshot with the rounds its table counts: the completed rounds other than
    elimination rounds (the top cut is ranked by its finish), and those elimination rounds;
    and the round being played whose results entered so far it counts, as the note says."""
    ruleset = RULESETS.get(event.tiebreaks, RULESETS["mtr"])
    counted = playoff = 0
    in_progress = None
    if snapshot is not None:
        kinds, in_progress = standings_rounds(event)
        kinds = kinds[: snapshot.after_round]
        playoff = kinds.count(Round.Kind.ELIMINATION)
        counted = len(kinds) - playoff
    return {
        "snapshot": snapshot,
        "ruleset": ruleset,
        "ruleset_name": ruleset_name(ruleset.key),
        "rounds_counted": counted,
        "playoff_rounds": playoff,
        "round_in_progress": in_progress,
    }


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    ctx = _ctx(request, event, **_standings_ctx(event, snapshot))
    if request.GET.get("fragment"):
        return render(request, "tournaments/_standings.html", ctx)
    return render(request, "tournaments/standings.html", ctx)


@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    ctx = _ctx(request, event, **_bracket_drawing(event))
    if request.GET.get("fragment"):
        return render(request, "tournaments/_bracket.html", ctx)
    return render(request, "tournaments/bracket.html", ctx)


def _joins(current: list, following: list) -> str:
    """How a column's winners go on to the next drawn column: in pairs (two matches feed one),
    straight across (one feeds one), or elsewhere (no line is drawn)."""
    if not following:
        return "none"
    fed_by = [{src.ref for src in (m.a, m.b) if src.kind == "winner"} for m in following]
    if len(current) == 2 * len(following) and all(
        m.code in fed_by[i // 2] for i, m in enumerate(current)
    ):
        return "pairs"
    if len(current) == len(following) and all(m.code in fed_by[i] for i, m in enumerate(current)):
        return "straight"
    return "none"


# A bracket column with its lines takes about this many pixels; the phone's hint to scroll
# sideways shows below the width the columns need (the classes of gauntlet.css).
BRACKET_HINT_COLUMNS = (2, 3, 4)


# The titles of the pure bracket module (``bracket._round_name``) the catalogue needs
# besides those the pages name themselves: a double-elimination bracket's winners' side.
BRACKET_TITLES = (
    pgettext_lazy("round title", "Winners semifinal"),
    pgettext_lazy("round title", "Winners semifinals"),
    pgettext_lazy("round title", "Winners quarterfinal"),
    pgettext_lazy("round title", "Winners quarterfinals"),
)
_NUMBERED_ROUND = re.compile(r"(Winners round|Losers round|Round) (\d+)(s?)")


def _bracket_text(text: str) -> str:
    """A title or label of the pure bracket module in the page's language ("Quarterfinal 2":
    the title's translation and the number; "Losers round 2 match 1": the round's and the
    match's)."""
    numbered = _NUMBERED_ROUND.fullmatch(text)
    if numbered:
        name, n, _plural = numbered.groups()
        if name == "Winners round":
            return pgettext("round title", "Winners round %(n)s") % {"n": n}
        if name == "Losers round":
            return pgettext("round title", "Losers round %(n)s") % {"n": n}
        return pgettext("round title", "Round %(n)s") % {"n": n}
    head, sep, tail = text.rpartition(" match ")
    if sep and tail.isdigit():
        return pgettext("round title", "%(round)s, match %(n)s") % {
            "round": _bracket_text(head),
            "n": tail,
        }
    head, _sep, tail = text.rpartition(" ")
    if head and tail.isdigit():
        return f"{pgettext('round title', head)} {tail}"
    return pgettext("round title", text)


def _bracket_drawing(event: Event) -> dict:
    """The bracket as columns of matches for the page, how each column joins the next, and
    its champion (or the two players of a split final)."""
    if not event.bracket:
        return {"columns": []}
    brk = bracket_core.Bracket.from_json(event.bracket["bracket"])
    seeds = event.bracket["seeds"]
    winners = bracket_winners(event)
    state = bracket_state(event)
    names = dict(event.registrations.values_list("pk", "display_name"))
    seed_of = {pid: n for n, pid in enumerate(seeds, start=1)}
    scores: dict[str, dict[int, int]] = {}
    for code, pid, wins in (
        MatchSeat.objects.filter(round__event=event, match__status=Match.Status.FINAL)
        .exclude(match__bracket_code="")
        .values_list("match__bracket_code", "registration_id", "game_wins")
    ):
        scores.setdefault(code, {})[pid] = wins
    drawn = bracket_core.rounds_for_drawing(brk)
    columns = []
    for index, (bracket_name, round_no, matches) in enumerate(drawn):
        following = drawn[index + 1][2] if index + 1 < len(drawn) else []
        cells = []
        for m in matches:
            players = state.slots.get(m.code, (None, None))
            sides = []
            for src, pid in zip((m.a, m.b), players, strict=True):
                sides.append(
                    {
                        "id": pid,
                        "name": names.get(pid, "") if pid is not None else "",
                        # Nobody: a bye, or the empty drop from a walkover's loser.
                        "bye": pid is None
                        and (
                            src.kind == "bye"
                            or (src.kind == "loser" and src.ref in state.walkovers)
                        ),
                        "seed": seed_of.get(pid),
                        "score": scores.get(m.code, {}).get(pid),
                        "won": pid is not None and winners.get(m.code) == pid,
                    }
                )
            cells.append(
                {
                    "code": m.code,
                    "label": _bracket_text(m.label),
                    "sides": sides,
                    "split": state.split == m.code,
                }
            )
        joins = _joins(matches, following)
        same_section = bool(columns) and columns[-1]["section"] == bracket_name
        columns.append(
            {
                "title": _bracket_text(bracket_core.round_title(brk, bracket_name, round_no)),
                "section": bracket_name,
                "matches": cells,
                "joins": joins,
                "fed": same_section and columns[-1]["joins"] != "none",
            }
        )
    champion = None
    if state.champion is not None:
        champion = {"id": state.champion, "name": names.get(state.champion, "")}
    shared = []
    if state.split:
        shared = [
            {"id": pid, "name": names.get(pid, "")}
            for pid in state.slots.get(state.split, ())
            if pid is not None
        ]
    if champion or shared:
        columns[-1]["joins"] = "straight"  # on to the champion's box after the last column
    count = len(columns) + (1 if champion or shared else 0)
    hint = "" if count < 2 else (f"c{count}" if count in BRACKET_HINT_COLUMNS else "always")
    return {
        "columns": columns,
        "sections": _bracket_sections(columns),
        "champion": champion,
        "shared": shared,
        "bracket_hint": hint,
        # A round title longer than a column's line ("Четвертьфиналы верхней сетки") wraps:
        # every heading then takes two lines, so that the slots of all columns line up.
        "bracket_heads_2": any(len(col["title"]) > BRACKET_HEAD_CHARS for col in columns),
        # Likewise a long match label in a box ("Четвертьфинал верхней сетки 1"): every
        # label then takes two lines, so that the boxes of a column stay the same height.
        "bracket_labels_2": any(
            len(m["label"]) > BRACKET_LABEL_CHARS for col in columns for m in col["matches"]
        ),
    }


# The longest round title a column's heading shows on one line (13rem at 0.85rem bold:
# "Нижняя сетка, раунд 1" fits, "Полуфиналы верхней сетки" does not).
BRACKET_HEAD_CHARS = 21
# The longest match label a box shows on one line (13rem less its padding, at 0.75rem).
BRACKET_LABEL_CHARS = 24

BRACKET_SECTIONS = {
    "winners": pgettext_lazy("bracket section", "Winners bracket"),
    "losers": pgettext_lazy("bracket section", "Losers bracket"),
    "final": pgettext_lazy("bracket section", "Grand final"),
}


def _bracket_sections(columns: list[dict]) -> list[dict]:
    """A double-elimination bracket's columns in its three sections, the winners' above the
    losers' and the grand final beside both, each side's final joined to it; none for a
    single-elimination bracket (one row of columns)."""
    names = [col["section"] for col in columns]
    if "losers" not in names or "final" not in names:
        return []
    sections = []
    for name in ("winners", "losers", "final"):
        cols = [col for col in columns if col["section"] == name]
        if name != "final":
            cols[-1]["joins"] = "final"  # the side's final goes on to the grand final
        else:
            cols[0]["fed"] = True  # fed by both sides' finals
        sections.append({"name": name, "title": BRACKET_SECTIONS[name], "columns": cols})
    return sections


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
        _ctx(
            request,
            event,
            player=reg,
            history=history,
            row=row,
            penalties=penalty_pages.player_penalties(request.user, event, reg),
            ratings=ratings_of_entrant(reg, event.game_system),
        ),
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
    rows = snapshot.rows if snapshot else []
    if event.is_elimination_only and (not rows or "place" in rows[0]):
        # As the standings page: the shared place of the bracket finish ("3–4") and the
        # record in the bracket's matches, no Swiss points or tiebreakers.
        writer.writerow(["place", "player", "wins", "losses", "draws", "dropped"])
        for r in rows:
            record = r.get("bracket_record", [0, 0, 0])
            writer.writerow([r.get("place", ""), r["name"], *record, int(r["dropped"])])
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
    if "no_show" in post:  # the seat that did not come loses every game the match needed
        absent = post.get("no_show")
        if absent not in ("0", "1"):
            raise ResultError(_("Say which player did not show up."))
        needed = games_needed(best_of)
        return [1 - int(absent)] * needed
    if "score" in post:  # one click: "wins_a-wins_b-draws"
        return games_from_counts(*parse_score(post.get("score", "")))
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


def _judges_games(match: Match) -> list[int | None]:
    """The games a judge's game loss recorded at the table of a match not yet final
    (``services.penalties``): its result begins with them."""
    if match.status == Match.Status.FINAL or match.round.event.play_online:
        return []
    return [g.winner_seat for g in sorted(match.games.all(), key=lambda g: g.number)]


def quick_buttons(match: Match, allow_draw: bool) -> list[dict]:
    """The one-click results of a two-player match, labelled with its players' names; not
    those a game a judge recorded rules out."""
    seats = list(match.seats.all())
    names = [s.registration.display_name for s in seats]
    recorded = _judges_games(match)
    needed = games_needed(match.best_of)
    buttons = []
    for q in quick_scores(match.best_of, allow_draw):
        if recorded:
            if q.kind.startswith("no_show"):
                games = [1 if q.kind == "no_show_a" else 0] * needed
            else:
                games = games_from_counts(q.wins_a, q.wins_b, q.draws)
            if games_after(recorded, games) is None:
                continue
        if q.kind == "a":
            label, name, value = f"{names[0]} {q.wins_a}–{q.wins_b}", "score", q.value
        elif q.kind == "b":
            label, name, value = f"{names[1]} {q.wins_b}–{q.wins_a}", "score", q.value
        elif q.kind == "draw" and q.draws:
            label, name, value = _("Draw"), "score", q.value
        elif q.kind == "draw":
            label, name, value = f"{q.wins_a}–{q.wins_b}", "score", q.value
        else:
            absent = 0 if q.kind == "no_show_a" else 1
            label = _("No show: %(name)s") % {"name": names[absent]}
            name, value = "no_show", str(absent)
        current = (
            match.status == Match.Status.FINAL
            and name == "score"
            and [s.game_wins for s in seats] == [q.wins_a, q.wins_b]
            and match.game_draws == q.draws
        )
        buttons.append(
            {"label": label, "name": name, "value": value, "kind": q.kind, "current": current}
        )
    return buttons


def _report(user, match: Match, post) -> object:
    if match.round.event.uses_pods:
        return report_placements(user, match, _parse_placements(post, len(match.seats.all())))
    return report_result(user, match, _parse_games(post, match.best_of))


def _enter(user, match: Match, post) -> object:
    if match.round.event.uses_pods:
        return enter_placements(user, match, _parse_placements(post, len(match.seats.all())))
    games = _parse_games(post, match.best_of)
    recorded = _judges_games(match)
    if recorded:  # a score given in one click or as counts: begin with the judge's games
        games = games_after(recorded, games) or games  # else refused below, saying why
        check_recorded_games(match, games)
    note = ""
    if post.get("no_show") in ("0", "1"):
        absent = match.seats.select_related("registration").get(seat=int(post["no_show"]))
        note = f"no show: {absent.registration.display_name}"
    return enter_result(user, match, games, note=note)


def _correct(user, match: Match, post) -> object:
    return correct_result(user, match, _parse_games(post, match.best_of))


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
        # Games a judge's game loss recorded (0060): the report begins with them.
        recorded = (
            []
            if event.play_online or event.uses_pods or match.is_final
            else list(match.games.order_by("number").values_list("winner_seat", flat=True))
        )
        ctx["recorded_games"] = recorded
        ctx["game_slots"] = [
            (
                n,
                ""
                if n > len(recorded)
                else ("draw" if recorded[n - 1] is None else str(recorded[n - 1])),
            )
            for n in ctx["game_numbers"]
        ]
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


def _correction_context(request: HttpRequest, event: Event) -> dict:
    """The console's "correct an earlier result" section: the matches of completed Swiss
    rounds to pick from, the picked match, and (once a new result is given) its preview."""
    if event.uses_pods:
        return {}
    done = list(
        event.rounds.filter(status=Round.Status.COMPLETED, kind=Round.Kind.SWISS).order_by("number")
    )
    if not done:
        return {}
    played = (
        Match.objects.filter(round__in=done, is_bye=False)
        .prefetch_related("seats__registration")
        .order_by("table")
    )
    by_round: dict[int, list[Match]] = {}
    for m in played:
        by_round.setdefault(m.round_id, []).append(m)
    choices = [(rnd, by_round.get(rnd.pk, [])) for rnd in done]
    out: dict = {"correct_choices": choices}
    value = request.GET.get("correct", "")
    if not (value.isascii() and value.isdigit()):
        return out
    picked = (
        Match.objects.filter(round__in=done, is_bye=False, pk=value)
        .select_related("round", "round__event")
        .prefetch_related("seats__registration")
        .first()
    )
    if picked is None:
        return out
    picked.quick = quick_buttons(picked, True)
    out["correct_match"] = picked
    if not any(k in request.GET for k in ("score", "no_show", "wins_0")):
        return out
    try:
        games = _parse_games(request.GET, picked.best_of)
        out["correction"] = preview_correction(request.user, picked, games)
    except (TournamentError, ResultError) as exc:
        out["correction_error"] = str(exc)
    out["correction_params"] = [
        (k, request.GET[k])
        for k in ("score", "no_show", "wins_0", "wins_1", "draws")
        if k in request.GET
    ]
    return out


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
    live_matches = list(_matches(live).prefetch_related("reports", "games")) if live else []
    if live and not event.uses_pods:
        live.event = event
        for m in live_matches:
            m.round = live  # the quick buttons read the round's event: no query each
            if not m.is_bye:
                m.quick = quick_buttons(m, live.kind == Round.Kind.SWISS)
    ctx = _ctx(
        request,
        event,
        registrations=registrations,
        draft_round=draft,
        draft_matches=_matches(draft) if draft else [],
        live_round=live,
        live_matches=live_matches,
        **_correction_context(request, event),
        round_notice=_round_notice(event, draft, live),
        table_warnings=table_warnings(draft or live),
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
        **penalty_pages.console_context(event),
        pods_waiting=event.pods.filter(status="waiting").exists(),
        draft_not_over=draft_not_over(event) if event.status == Event.Status.REGISTRATION else None,
    )
    return render(request, "tournaments/manage.html", ctx)


def _form_errors(form) -> str:
    """A form's errors as one line, each after its field's label (not its name)."""
    parts = []
    for name, errors in form.errors.items():
        text = " ".join(errors)
        field = form.fields.get(name)
        parts.append(f"{capfirst(field.label)}: {text}" if field and field.label else text)
    return " ".join(parts)


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
            raise TournamentError(_form_errors(form))
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

    def replace():
        team = reg()
        leaving = find_player(_posted_text(post, "member"))
        return replace_member(user, team, leaving, find_player(_posted_text(post, "replacement")))

    def swap():
        first = get_object_or_404(Registration, event=event, pk=_posted_pk(post, "first"))
        second = get_object_or_404(Registration, event=event, pk=_posted_pk(post, "second"))
        return swap_players(user, rnd(), first, second)

    def fixed_table():
        value = _posted_text(post, "fixed_table").strip()
        if value and not (value.isascii() and value.isdigit()):
            raise TournamentError(_("A fixed table is a whole number; leave it empty for none."))
        return set_fixed_table(user, reg(), int(value) if value else None)

    actions: dict[str, tuple[Callable[[], object], str]] = {
        "start": (lambda: start_event(user, event), _("The event has started.")),
        "fixed-table": (fixed_table, _("Fixed table saved.")),
        "pair": (
            lambda: pair_next_round(user, event),
            _("Round paired: review it, then publish."),
        ),
        "publish": (lambda: publish_round(user, rnd()), _("Round published.")),
        "repair": (lambda: repair_round(user, rnd()), _("Round paired again.")),
        "swap": (swap, _("Players swapped.")),
        "time": (lambda: call_time(user, rnd()), _("Time called.")),
        "result": (lambda: _enter(user, match(), post), _("Result saved.")),
        "correct": (
            lambda: _correct(user, match(), post),
            _("Result corrected; the standings are rebuilt. Later pairings stay as played."),
        ),
        "add-player": (add_player, _("Player added.")),
        "check-in": (lambda: check_in(user, reg()), _("Player checked in.")),
        "drop": (
            lambda: drop(user, reg(), _posted_text(post, "reason")),
            _("Player dropped."),
        ),
        "readd": (lambda: readd(user, reg()), _("Player re-added.")),
        "replace-member": (replace, _("Team member replaced.")),
        "settings": (edit, _("Settings saved.")),
        "staff": (staff, _("Staff updated.")),
        "lock-decklists": (lambda: lock_decklists(user, event), _("Decklists locked.")),
    }
    for name, (handler, success) in penalty_pages.ACTIONS.items():
        actions[name] = (lambda h=handler: h(user, event, post), success)
    for name, added in console.actions().items():  # the apps above (tournaments.console)
        actions[name] = (lambda h=added.handler: h(user, event, post), added.success)
    if action not in actions:
        raise Http404(_("Unknown action."))
    handler, success = actions[action]
    _run(request, handler, success)
    return redirect(reverse("tournaments:manage", kwargs={"slug": slug}) + post.get("anchor", ""))
