"""Run a whole Draft event with bot players, then serve the site to browse it.

    python manage.py demo             # 32 players, 5 Swiss rounds, top 8, then the site
    python manage.py demo --no-serve  # the same event, then exit
    python manage.py demo --offline   # random results reported by the players, no games

The event is a Draft event (rule 3.2.5): every player is a bot registration. The
organiser makes the pods (4 pods of 8 for 32 players, seats drawn from the event's
seed) and starts them; the bots draft four VS1 boosters each through the drafting app
(online: each pick made by the pods' ``run_timers`` tasks on the embedded worker
threads, as bots pick in a live pod; ``--offline``: inside the start, with no worker),
build their decks from their pools by the Draft deck rules (4.5.5), and those decks
become the players' decklists. Then the event starts and plays its Swiss rounds: online,
each round's games are dealt by the platform when the round is published, with the
drafted decks, played move by move by the bots through the ``bot_move``/``apply_action``
tasks, decided by the rules engine, and the results flow into matches, standings and
the bracket; the event runs itself (``auto_advance``) to the end. To keep the demo to a
few minutes on a small machine the games are full engine games but capped: best-of-1
matches (``--best-of 3`` for the real thing) and at most MAX_MOVES actions a game: a
game the bots have not finished by then is a drawn game (like time called).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, close_old_connections

from engine.core import registry
from tournaments.models import Event, Match, Round
from tournaments.results import games_needed
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import check_in, register
from tournaments.services.results import enter_result, report_result
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event

BOT_PICK_SECONDS = 0.2  # how long a demo bot seems to think before a pick
MAX_MOVES = 300  # longest game of the demo (a Blitz game of two bots: 70-1000+ actions)
NUDGE_SECONDS = (
    10  # work this late is lost (the sweep queues it again); capped playoffs are settled
)

DEMO_PASSWORD = "gauntlet"


class Command(BaseCommand):
    help = "Run a full demo event with simulated players, then serve the site."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=32)
        parser.add_argument("--rounds", type=int, default=5, help="Swiss rounds")
        parser.add_argument("--top", type=int, default=8, choices=[0, 2, 4, 8, 16])
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--no-serve", action="store_true", help="exit when the event is over")
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument(
            "--offline",
            action="store_true",
            help="random results reported by the players instead of engine-played games",
        )
        parser.add_argument(
            "--best-of",
            type=int,
            choices=[1, 3, 5],
            default=None,
            help="match length (default: 1 online, to keep the demo to a few minutes; 3 offline)",
        )
        parser.add_argument(
            "--timeout", type=float, default=1800, help="give up after this many seconds (online)"
        )

    def handle(self, *args, **opts) -> None:
        if opts["players"] < 2:
            raise CommandError("--players must be at least 2")
        if opts["top"] and opts["top"] > opts["players"]:
            raise CommandError("--top cannot be larger than --players")
        rng = random.Random(opts["seed"])
        started = time.monotonic()
        organiser, players = self._users(opts["players"])
        online = not opts["offline"]
        event = self._event(organiser, players, opts, online=online)
        self.stdout.write(
            self.style.MIGRATE_HEADING(
                f"Running «{event.name}»: {len(players)} players, "
                f"a booster draft, {event.swiss_rounds} Swiss rounds, "
                f"top {event.top_cut}" + (", played online by bots" if online else "")
            )
        )
        event = self._draft(
            event, organiser, online=online, timeout=opts["timeout"], started=started
        )
        if online:
            self._run_online(event, organiser, opts["timeout"], started)
        else:
            while event.status == Event.Status.RUNNING:
                rnd = publish_round(organiser, pair_next_round(organiser, event))
                self._play_round(rnd, organiser, rng)
                event.refresh_from_db()
        event.refresh_from_db()
        self._summary(event, time.monotonic() - started)
        if opts["no_serve"]:
            return
        self._serve(event, opts["addr"])

    # ------------------------------------------------------------ setup

    def _users(self, count: int):
        User = get_user_model()
        admin, created = User.objects.get_or_create(
            username="admin", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            admin.set_password(DEMO_PASSWORD)
            admin.save()
        organiser, created = User.objects.get_or_create(username="organiser")
        if created:
            organiser.set_password(DEMO_PASSWORD)
            organiser.save()
        players = []
        for n in range(1, count + 1):
            user, created = User.objects.get_or_create(username=f"player{n:02d}")
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            players.append(user)
        return organiser, players

    def _event(self, organiser, players, opts, *, online: bool = False) -> Event:
        number = Event.objects.filter(name__startswith="Demo Open").count() + 1
        event = create_event(
            organiser,
            name=f"Demo Open #{number}",
            # A booster draft of the first game with boosters (engine.core.registry).
            game_system=registry.default_drafting_system().key,
            format=next(
                f.key
                for f in registry.default_drafting_system().formats
                if f.limited and not f.sealed
            ),
            play_online=online,
            auto_advance=online,
            structure=Event.Structure.SWISS,
            swiss_rounds=opts["rounds"],
            top_cut=opts["top"],
            best_of=opts.get("best_of") or (1 if online else 3),
            round_minutes=50,
            tiebreaks="mtr",
            location="Gauntlet demo hall",
        )
        # The event's seed (seating, boosters, pairings) from the demo's own: the same
        # --seed runs the same event.
        seed = random.Random(f"demo:{opts['seed']}:{number}").getrandbits(62)
        Event.objects.filter(pk=event.pk).update(seed=seed)
        event.refresh_from_db()
        for user in players:
            # Bots draft, build and (online) play; offline their users report the results.
            reg = register(
                event, user=user, display_name=f"Player {user.username[-2:]}", is_bot=True
            )
            check_in(user, reg)
        return event

    # ------------------------------------------------------------ drafting

    def _draft(
        self, event: Event, organiser, *, online: bool, timeout: float, started: float
    ) -> Event:
        """Pods of 8, drafted and built by the bots through the drafting app; then start."""
        from drafting.models import Pick, Pod
        from drafting.services.creating import create_event_pods
        from drafting.services.starting import start_event_pods

        if online:
            from config.embedded import start_embedded_worker

            self._fast_embedded_queue()
            if not start_embedded_worker():
                self.stdout.write(
                    self.style.WARNING(
                        "  REDIS_URL is set: the bots pick and play in the Celery workers (start one: make worker)."
                    )
                )
        pods = create_event_pods(
            organiser,
            event,
            bot_seconds=BOT_PICK_SECONDS,  # boosters: the registry's draft defaults
            bots_inline=not online,  # offline: no worker needed, the bots pick inside the start
        )
        self.stdout.write(
            f"  {len(pods)} pods: "
            + ", ".join(f"pod {p.number} ({p.seats_count} seats)" for p in pods)
        )
        start_event_pods(organiser, event)
        tty = self.stdout.isatty()
        last = ""
        last_line = time.monotonic()
        while True:
            rows = list(
                Pod.objects.filter(event=event)
                .order_by("number")
                .values_list("number", "status", "pk")
            )
            picks = {pk: Pick.objects.filter(pod_id=pk).count() for _n, _status, pk in rows}
            line = "\r  Draft  " + "  ".join(
                f"pod {n}: {picks[pk]} picks [{Pod.Status(status).label}]" for n, status, pk in rows
            )
            if line != last and (
                tty
                or time.monotonic() - last_line > 5
                or all(status == Pod.Status.FINISHED for _n, status, _pk in rows)
            ):
                self.stdout.write(line if tty else line.lstrip("\r") + "\n", ending="")
                self.stdout.flush()
                last, last_line = line, time.monotonic()
            if all(status == Pod.Status.FINISHED for _n, status, _pk in rows):
                break
            if time.monotonic() - started > timeout:
                raise CommandError(f"the draft did not finish within {timeout:.0f} s")
            time.sleep(0.5)
        self.stdout.write("")
        self._check_drafted_decks(event)
        return start_event(organiser, event)

    def _check_drafted_decks(self, event: Event) -> None:
        """Every player's decklist is the deck built from their pool, as the engine reads it."""
        from drafting.models import Seat
        from play.services.starting import engine_deck

        decklists = registry.get(event.game_system).load("decks")
        seats = Seat.objects.filter(pod__event=event).select_related("registration__decklist")
        for seat in seats:
            decklist = getattr(seat.registration, "decklist", None)
            if decklist is None or not decklist.is_legal:
                raise CommandError(f"{seat}: no legal decklist after deck building")
            played = engine_deck(event.game_system, decklist.text)
            built = decklists.to_engine_deck(decklists.write(seat.deck))
            if _copies(played) != _copies(built):
                raise CommandError(f"{seat}: the decklist is not the deck built from the pool")
        self.stdout.write(
            f"  {len(seats)} decks built from the drafted pools; they are the decklists the games use."
        )

    def _fast_embedded_queue(self) -> None:
        from django.conf import settings

        if settings.EMBEDDED:
            from config.celery import app

            # The in-memory queue is polled; the default (once a second) would pace every task.
            options = dict(app.conf.broker_transport_options or {})
            options["polling_interval"] = 0.005
            app.conf.broker_transport_options = options

    # ------------------------------------------------------------ playing online

    def _settle_capped_playoffs(self, event: Event, organiser) -> None:
        """An elimination match whose every game was capped as a draw cannot be decided
        by the engine: the organiser settles it (audited), as a judge would.

        Lost tasks (a bot move, a round start, the next round of the self-running event)
        are the sweep's (``tournaments.sweeps``), as on any site: the embedded worker runs it
        on its timer; with ``REDIS_URL`` and no beat process, this loop runs it.
        """
        from django.conf import settings

        for match in Match.objects.filter(
            round__event=event,
            round__status=Round.Status.PUBLISHED,
            round__kind=Round.Kind.ELIMINATION,
            is_bye=False,
        ).exclude(status=Match.Status.FINAL):
            sessions = list(match.play_sessions.all())
            if len(sessions) >= 2 * match.best_of and all(s.is_over for s in sessions):
                games = list(match.games.order_by("number").values_list("winner_seat", flat=True))
                games += [None] * (2 * match.best_of - 1 - len(games)) + [len(games) % 2]
                try:
                    enter_result(organiser, match, games[: 2 * match.best_of])
                except TournamentError:
                    enter_result(organiser, match, [0] * games_needed(match.best_of))
        if not settings.EMBEDDED:
            from tournaments.sweeps import sweep

            sweep()

    def _run_online(self, event: Event, organiser, timeout: float, started: float) -> None:
        from django.conf import settings

        from config.embedded import start_embedded_worker
        from play.models import GameSession

        settings.PLAY_BOT_DELAY_SECONDS = 0  # bots answer at once: nobody is watching every move
        settings.PLAY_MAX_MOVES = MAX_MOVES  # a game the bots cannot finish is a draw
        # Lost work is found by the sweep sooner than on a site with people at the tables.
        settings.PLAY_SWEEP_SECONDS = NUDGE_SECONDS / 2
        settings.PLAY_STALL_SECONDS = NUDGE_SECONDS
        self._fast_embedded_queue()
        start_embedded_worker()  # already running (see _draft) unless REDIS_URL is set
        publish_round(organiser, pair_next_round(organiser, event))
        shown: dict[int, str] = {}
        tty = self.stdout.isatty()
        last_line = last_nudge = time.monotonic()
        while True:
            try:
                event.refresh_from_db()
            except OperationalError:  # the database is busy (too many clients): try again
                close_old_connections()
                time.sleep(1)
                continue
            for rnd in event.rounds.order_by("number"):
                sessions = GameSession.objects.filter(match__round=rnd)
                finished = sessions.filter(status=GameSession.Status.FINISHED).count()
                matches = rnd.matches.filter(is_bye=False)
                final = matches.filter(status=Match.Status.FINAL).count()
                moves = sum(sessions.values_list("seq", flat=True))
                line = (
                    f"\r  {rnd!s:<16} games finished {finished}/{sessions.count()}  "
                    f"matches final {final}/{matches.count()}  moves {moves}  [{rnd.get_status_display()}]"
                )
                if shown.get(rnd.pk) == line:
                    continue
                if rnd.pk not in shown and shown:
                    self.stdout.write("")
                shown[rnd.pk] = line
                if tty or rnd.status != Round.Status.PUBLISHED or time.monotonic() - last_line > 10:
                    self.stdout.write(line if tty else line.lstrip("\r") + "\n", ending="")
                    self.stdout.flush()
                    last_line = time.monotonic()
            if event.status != Event.Status.RUNNING:
                self.stdout.write("")
                return
            if time.monotonic() - last_nudge > NUDGE_SECONDS:
                last_nudge = time.monotonic()
                self._settle_capped_playoffs(event, organiser)
            if time.monotonic() - started > timeout:
                self.stdout.write("")
                raise CommandError(f"the event did not finish within {timeout:.0f} s")
            time.sleep(0.5)

    # ------------------------------------------------------------ playing

    def _random_games(self, best_of: int, rng: random.Random, allow_draw: bool) -> list[int | None]:
        needed = games_needed(best_of)
        if allow_draw and rng.random() < 0.06:
            return [0, 1] if best_of > 1 else [None]  # time ran out level: a drawn match
        wins = [0, 0]
        games: list[int | None] = []
        while max(wins) < needed:
            if allow_draw and rng.random() < 0.03:
                games.append(None)
                continue
            winner = rng.randrange(2)
            wins[winner] += 1
            games.append(winner)
        return games

    def _play_round(self, rnd: Round, organiser, rng: random.Random) -> None:
        matches = list(
            rnd.matches.filter(is_bye=False).prefetch_related("seats__registration__user")
        )
        total = len(matches)
        label = f"{rnd}"
        for done, match in enumerate(matches, start=1):
            games = self._random_games(match.best_of, rng, allow_draw=rnd.kind == Round.Kind.SWISS)
            seats = list(match.seats.all())
            if rng.random() < 0.1:
                enter_result(organiser, match, games)
            else:
                for seat in seats:
                    report_result(seat.registration.user, match, games)
            self._progress(label, done, total)
        if not total:
            self._progress(label, 1, 1)
        rnd.refresh_from_db()
        if rnd.status != Round.Status.COMPLETED:
            raise CommandError(
                f"{rnd} did not complete: {rnd.matches.exclude(status=Match.Status.FINAL).count()} open"
            )
        self.stdout.write("")

    def _progress(self, label: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        bar = "#" * filled + "." * (width - filled)
        self.stdout.write(f"\r  {label:<16} [{bar}] {done}/{total} results", ending="")
        self.stdout.flush()

    # ------------------------------------------------------------ wrap-up

    def _summary(self, event: Event, seconds: float) -> None:
        snapshot = refresh_standings(event)
        self.stdout.write(
            self.style.SUCCESS(f"Event finished in {seconds:.1f} s. Final standings:")
        )
        for row in snapshot.rows[:8]:
            finish = f" (finish {row['playoff_finish']})" if row.get("playoff_finish") else ""
            self.stdout.write(
                f"  {row['rank']:>2}. {row['name']:<12} {row['points']:>2} pts "
                f"{row['wins']}-{row['losses']}-{row['draws']}  OMW {row['omw']:.4f}{finish}"
            )

    def _serve(self, event: Event, addr: str) -> None:
        base = f"http://{addr}"
        self.stdout.write("")
        self.stdout.write(self.style.MIGRATE_HEADING("Gauntlet is serving the demo:"))
        self.stdout.write(f"  Event page      {base}/events/{event.slug}/")
        self.stdout.write(f"  Standings       {base}/events/{event.slug}/standings/")
        self.stdout.write(f"  Bracket         {base}/events/{event.slug}/bracket/")
        self.stdout.write(
            f"  Organiser view  {base}/events/{event.slug}/manage/  (log in as organiser)"
        )
        self.stdout.write(f"  Casual drafts   {base}/draft/  (one click: a pod against 7 bots)")
        self.stdout.write(f"  Admin           {base}/admin/  (log in as admin)")
        self.stdout.write(f"  API docs        {base}/api/docs/")
        self.stdout.write(
            f"  Logins: admin, organiser, player01 … player{len(event.registrations.all()):02d}; "
            f"password «{DEMO_PASSWORD}» for all"
        )
        self.stdout.write("  Stop with Ctrl+C.")
        sys.stdout.flush()
        call_command("runserver", addr, use_reloader=False)


def _copies(deck: Any) -> Any:
    """An engine deck with the order of its cards left out (a list, or parts of lists)."""
    from collections import Counter

    if isinstance(deck, dict):
        return {part: Counter(ids) for part, ids in deck.items()}
    return Counter(deck or ())
