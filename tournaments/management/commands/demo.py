"""Run a whole event with simulated players, then serve the site to browse it.

    python manage.py demo             # 32 players, 5 Swiss rounds, top 8, then the site
    python manage.py demo --no-serve  # the same event, then exit

Results are chosen at random (seeded) and go through the same services as in a
real event: both players report, the opponent's identical report confirms it,
and now and then a judge enters the result instead.
"""

from __future__ import annotations

import random
import sys
import time

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournaments import services
from tournaments.models import Event, Match, Round
from tournaments.results import games_needed

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

    def handle(self, *args, **opts) -> None:
        if opts["players"] < 2:
            raise CommandError("--players must be at least 2")
        if opts["top"] and opts["top"] > opts["players"]:
            raise CommandError("--top cannot be larger than --players")
        rng = random.Random(opts["seed"])
        started = time.monotonic()
        organiser, players = self._users(opts["players"])
        event = self._event(organiser, players, opts)
        self.stdout.write(self.style.MIGRATE_HEADING(f"Running «{event.name}»: {len(players)} players, "
                                                     f"{event.swiss_rounds} Swiss rounds, top {event.top_cut}"))
        while event.status == Event.Status.RUNNING:
            rnd = services.publish_round(organiser, services.pair_next_round(organiser, event))
            self._play_round(rnd, organiser, rng)
            event.refresh_from_db()
        self._summary(event, time.monotonic() - started)
        if opts["no_serve"]:
            return
        self._serve(event, opts["addr"])

    # ------------------------------------------------------------ setup

    def _users(self, count: int):
        User = get_user_model()
        admin, created = User.objects.get_or_create(username="admin", defaults={"is_staff": True, "is_superuser": True})
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

    def _event(self, organiser, players, opts) -> Event:
        number = Event.objects.filter(name__startswith="Demo Open").count() + 1
        event = services.create_event(
            organiser,
            name=f"Demo Open #{number}",
            game_system="voskhozhdenie",
            format="standard",
            structure=Event.Structure.SWISS,
            swiss_rounds=opts["rounds"],
            top_cut=opts["top"],
            best_of=3,
            round_minutes=50,
            tiebreaks="mtr",
            location="Gauntlet demo hall",
        )
        for user in players:
            reg = services.register(event, user=user, display_name=f"Player {user.username[-2:]}")
            services.check_in(user, reg)
            services.submit_decklist(user, reg, "Cities\n2 Demo City\n\nMain deck\n40 Demo Card\n")
        return services.start_event(organiser, event)

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
        matches = list(rnd.matches.filter(is_bye=False).prefetch_related("seats__registration__user"))
        total = len(matches)
        label = f"{rnd}"
        for done, match in enumerate(matches, start=1):
            games = self._random_games(match.best_of, rng, allow_draw=rnd.kind == Round.Kind.SWISS)
            seats = list(match.seats.all())
            if rng.random() < 0.1:
                services.enter_result(organiser, match, games)
            else:
                for seat in seats:
                    services.report_result(seat.registration.user, match, games)
            self._progress(label, done, total)
        if not total:
            self._progress(label, 1, 1)
        rnd.refresh_from_db()
        if rnd.status != Round.Status.COMPLETED:
            raise CommandError(f"{rnd} did not complete: {rnd.matches.exclude(status=Match.Status.FINAL).count()} open")
        self.stdout.write("")

    def _progress(self, label: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        bar = "#" * filled + "." * (width - filled)
        self.stdout.write(f"\r  {label:<16} [{bar}] {done}/{total} results", ending="")
        self.stdout.flush()

    # ------------------------------------------------------------ wrap-up

    def _summary(self, event: Event, seconds: float) -> None:
        snapshot = services.refresh_standings(event)
        self.stdout.write(self.style.SUCCESS(f"Event finished in {seconds:.1f} s. Final standings:"))
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
        self.stdout.write(f"  Organiser view  {base}/events/{event.slug}/manage/  (log in as organiser)")
        self.stdout.write(f"  Admin           {base}/admin/  (log in as admin)")
        self.stdout.write(f"  API docs        {base}/api/docs/")
        self.stdout.write(f"  Logins: admin, organiser, player01 … player{len(event.registrations.all()):02d}; "
                          f"password «{DEMO_PASSWORD}» for all")
        self.stdout.write("  Stop with Ctrl+C.")
        sys.stdout.flush()
        call_command("runserver", addr, use_reloader=False)
