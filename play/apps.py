from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Online play"

    def ready(self) -> None:
        from play import receivers, recovery

        receivers.connect()  # what it does on the tournament's news (tournaments.announce)
        recovery.register()  # its steps of the sweep (tournaments.sweeps)
