"""URLs of the drafting API, mounted at ``/api/drafts/`` (see ``drafting.api``)."""

from django.urls import path

from drafting import api

app_name = "drafts_api"

urlpatterns = [
    path("pods/<int:pk>/", api.PodView.as_view(), name="pod"),
    path("pods/<int:pk>/seat/", api.MySeatView.as_view(), name="seat"),
    path("pods/<int:pk>/pick/", api.PickView.as_view(), name="pick"),
    path("pods/<int:pk>/seats/<int:number>/picks/", api.PickLogView.as_view(), name="picks"),
]
