from django.urls import path

from episodes import views

app_name = "episodes"

urlpatterns = [
    path("episodes/", views.episode_list, name="episode_list"),
    path("episodes/<slug:podcast_slug>/<slug:slug>/", views.episode_detail, name="episode_detail"),
    path("speakers/", views.speaker_list, name="speaker_list"),
    path("speakers/<slug:slug>/", views.speaker_detail, name="speaker_detail"),
    path("podcasts/", views.podcast_list, name="podcast_list"),
    path("podcasts/<slug:slug>/", views.podcast_detail, name="podcast_detail"),
]
