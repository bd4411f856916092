from django.urls import path

from claims import views

app_name = "claims"

urlpatterns = [
    path("claims/", views.claim_list, name="claim_list"),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        views.claim_detail,
        name="claim_detail",
    ),
]
