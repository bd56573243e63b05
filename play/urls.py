from __future__ import annotations

from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new_game, name="new_game"),
    path("solo/", views.new_solo_game, name="new_solo_game"),
    path("bot/", views.new_bot_game, name="new_bot_game"),
    path("friend/", views.new_friend_game, name="new_friend_game"),
    path("deck/", views.built_deck_game, name="built_deck"),
    path("join/<str:token>/", views.join, name="join"),
    path("match/<int:match_id>/", views.match_game, name="match"),
    path("<int:session_id>/", views.game, name="game"),
    path("<int:session_id>/table/", views.table, name="table"),
    path("<int:session_id>/state/", views.state, name="state"),
    path("<int:session_id>/act/", views.act, name="act"),
    path("<int:session_id>/concede/", views.concede, name="concede"),
    path("<int:session_id>/abort/", views.abort, name="abort"),
    path("<int:session_id>/leave/", views.leave_seat, name="leave_seat"),
    path("<int:session_id>/spectate/", views.spectate, name="spectate"),
    path("<int:session_id>/replay/", views.replay, name="replay"),
    path("<int:session_id>/replay/step/", views.replay_step, name="replay_step"),
    path("<int:session_id>/rematch/", views.rematch_game, name="rematch"),
]
