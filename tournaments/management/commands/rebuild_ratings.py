"""Recompute the ratings from scratch, every final match in the order it finished.

python manage.py rebuild_ratings             # every game system
python manage.py rebuild_ratings --game KEY  # one game system (its registry key)
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from engine.core import registry
from tournaments.models import Event
from tournaments.services.ratings import rebuild


class Command(BaseCommand):
    help = "Recompute the players' ratings from every final match, in the order they finished."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", help="one game system's key (default: all)")

    def handle(self, *args, game: str | None = None, **options) -> None:
        if game is not None:
            try:
                registry.get(game)
            except registry.UnknownGameSystem:
                raise CommandError(f"unknown game system: {game}") from None
            systems = [game]
        else:
            known = {info.key for info in registry.all_systems()}
            used = set(Event.objects.order_by().values_list("game_system", flat=True).distinct())
            systems = sorted(known | used)
        for key in systems:
            count = rebuild(key)
            self.stdout.write(f"{key}: {count} match(es) rated")
