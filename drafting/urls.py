from django.urls import path

from drafting import views

app_name = "drafting"

urlpatterns = [
    path("", views.pod_list, name="pod_list"),
    path("new/", views.pod_create, name="pod_create"),
    path("quick/", views.quick, name="quick"),
    path("<int:pk>/", views.room, name="room"),
    path("<int:pk>/panel/", views.panel, name="panel"),
    path("<int:pk>/overview/", views.overview, name="overview"),
    path("<int:pk>/pick/", views.pick, name="pick"),
    path("<int:pk>/highlight/", views.highlight, name="highlight"),
    path("<int:pk>/do/<str:action>/", views.pod_action, name="action"),
    path("<int:pk>/manage/", views.manage, name="manage"),
    path("<int:pk>/deck/", views.deck, name="deck"),
    path("<int:pk>/deck/check/", views.deck_check, name="deck_check"),
    path("<int:pk>/deck/play/", views.play_deck, name="play_deck"),
    path("<int:pk>/log/<int:seat>.json", views.log_json, name="log_json"),
    path("<int:pk>/log/<int:seat>.txt", views.log_text, name="log_text"),
    path("<int:pk>/replay/<int:seat>/", views.replay, name="replay"),
]
