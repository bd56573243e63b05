from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournaments import recovery

        recovery.register()  # its steps of the sweep (tournaments.sweeps)
