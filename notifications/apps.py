from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from notifications import receivers, recovery

        receivers.connect()  # what it tells players of the tournament's news (tournaments.announce)
        recovery.register()  # its step of the sweep (tournaments.sweeps)
