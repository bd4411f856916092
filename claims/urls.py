from django.urls import path

from claims import views

app_name = "claims"

urlpatterns = [
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        views.claim_detail,
        name="claim_detail",
    ),
]
