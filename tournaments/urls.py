from django.urls import path

from tournaments import penalty_pages, printouts, profile_pages, rating_pages, views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("events/new/", views.event_create, name="event_create"),
    path("ratings/", rating_pages.index, name="ratings"),
    path("ratings/<str:game>/", rating_pages.leaderboard, name="leaderboard"),
    path("players/<str:username>/", profile_pages.profile, name="profile"),
    path("series/", profile_pages.series_list, name="series_list"),
    path("series/new/", profile_pages.series_create, name="series_create"),
    path("series/<slug:slug>/", profile_pages.series_detail, name="series_detail"),
    path("series/<slug:slug>/edit/", profile_pages.series_edit, name="series_edit"),
    path("events/<slug:slug>/", views.event_detail, name="event_detail"),
    path("events/<slug:slug>/pairings/", views.pairings, name="pairings"),
    path("events/<slug:slug>/pairings.csv", views.pairings_csv, name="pairings_csv"),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path("events/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/bracket/", views.bracket, name="bracket"),
    path("events/<slug:slug>/players/<int:pk>/", views.player_history, name="player"),
    path("events/<slug:slug>/register/", views.register, name="register"),
    path("events/<slug:slug>/me/<str:action>/", views.self_action, name="self_action"),
    path("events/<slug:slug>/decklist/", views.decklist, name="decklist"),
    path("events/<slug:slug>/my-match/", views.my_match, name="my_match"),
    path("events/<slug:slug>/manage/", views.manage, name="manage"),
    path("events/<slug:slug>/print/<str:kind>/", printouts.printout_page, name="printout"),
    path("events/<slug:slug>/print/<str:kind>.pdf", printouts.printout_pdf, name="printout_pdf"),
    path("events/<slug:slug>/penalties.csv", penalty_pages.penalties_csv, name="penalties_csv"),
    path("events/<slug:slug>/manage/<str:action>/", views.manage_action, name="manage_action"),
]
