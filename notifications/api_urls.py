"""URLs of the notices' REST API, mounted at ``/api/notifications/`` (``notifications.api``)."""

from django.urls import path

from notifications import api

app_name = "notifications-api"

urlpatterns = [
    path("", api.NoticeList.as_view(), name="list"),
    path("read/", api.MarkRead.as_view(), name="read"),
    path("read-all/", api.MarkAllRead.as_view(), name="read_all"),
    path("settings/", api.PreferencesView.as_view(), name="settings"),
]
