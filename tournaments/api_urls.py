"""URLs of the REST API, mounted at ``/api/`` (see ``tournaments.api`` for the endpoints)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from accounts.api import obtain_token
from tournaments import api, printouts, profile_api

app_name = "api"

router = SimpleRouter(use_regex_path=False)
router.register("events", api.EventViewSet, basename="event")
router.register(
    "events/<slug:event_slug>/registrations", api.RegistrationViewSet, basename="registration"
)
router.register("events/<slug:event_slug>/rounds", api.RoundViewSet, basename="round")
router.register("events/<slug:event_slug>/matches", api.MatchViewSet, basename="match")
router.register("events/<slug:event_slug>/audit", api.AuditViewSet, basename="audit")
router.register(
    "events/<slug:event_slug>/penalty-types", api.PenaltyTypeViewSet, basename="penalty-type"
)
router.register("events/<slug:event_slug>/penalties", api.PenaltyViewSet, basename="penalty")
router.register("ratings/<str:game_system>", api.RatingViewSet, basename="rating")
router.register("series", profile_api.SeriesViewSet, basename="series")

urlpatterns = [
    path("token/", obtain_token, name="token"),  # throttled, and refused while locked out
    path("events/<slug:event_slug>/standings/", api.StandingsView.as_view(), name="standings"),
    path(
        "events/<slug:event_slug>/printouts/<str:kind>/",
        printouts.PrintoutView.as_view(),
        name="printout",
    ),
    path("players/<str:username>/", profile_api.ProfileView.as_view(), name="profile"),
    *router.urls,
]
