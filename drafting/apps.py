from django.apps import AppConfig


class DraftingConfig(AppConfig):
    name = "drafting"
    verbose_name = "Drafting"

    def ready(self) -> None:
        from drafting import receivers, recovery

        receivers.connect()  # what it does on the tournament's news (tournaments.announce)
        recovery.register()  # its steps of the sweep (tournaments.sweeps)
