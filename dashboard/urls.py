from django.urls import path

from dashboard import views

app_name = "dashboard"

urlpatterns = [
    path("", views.home, name="home"),
    path("panel/<str:name>/", views.panel, name="panel"),
    path("errors/", views.error_list, name="errors"),
    path("errors/<int:pk>/", views.error_detail, name="error"),
    path("metrics.json", views.MetricsView.as_view(), name="metrics"),
]
