from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notice_list, name="list"),
    path("read/", views.mark_read, name="read"),
    path("read-all/", views.mark_all_read, name="read_all"),
    path("settings/", views.notice_settings, name="settings"),
]
