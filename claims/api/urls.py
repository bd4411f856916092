from django.urls import path, re_path, reverse
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework.decorators import api_view, schema
from rest_framework.response import Response

from claims.api import subject_views, views
from claims.api.errors import not_found

app_name = "api"


@api_view(["GET"])
@schema(None)
def index(request):
    """/api/: where the versions and their documentation are."""
    link = request.build_absolute_uri
    return Response(
        {
            "versions": {"v1": link(reverse("api:v1"))},
            "current": "v1",
            "documentation": link(reverse("developers")),
            "schema": link(reverse("api:schema")),
        }
    )


@api_view(["GET"])
@schema(None)
def version_1(request):
    """/api/v1/: the endpoints of this version."""
    link = request.build_absolute_uri
    return Response(
        {
            "claims": link(reverse("api:claim-list")),
            "episodes": link(reverse("api:episode-list")),
            "speakers": link(reverse("api:speaker-list")),
            "podcasts": link(reverse("api:podcast-list")),
            "topics": link(reverse("api:topic-list")),
            "references": link(reverse("api:reference-list")),
            "stats": link(reverse("api:stats")),
            "schema": link(reverse("api:schema")),
            "documentation": link(reverse("developers")),
            "reference": link(reverse("developers_reference")),
        }
    )


urlpatterns = [
    path("", index, name="index"),
    path("v1/", version_1, name="v1"),
    path("v1/claims/", views.ClaimList.as_view(), name="claim-list"),
    path("v1/claims/<int:pk>/", views.ClaimDetail.as_view(), name="claim-detail"),
    path("v1/episodes/", views.EpisodeList.as_view(), name="episode-list"),
    path(
        "v1/episodes/<slug:podcast_slug>/<slug:slug>/",
        views.EpisodeDetail.as_view(),
        name="episode-detail",
    ),
    path(
        "v1/episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        views.ClaimAtNumber.as_view(),
        name="claim-at-number",
    ),
    path("v1/speakers/", views.SpeakerList.as_view(), name="speaker-list"),
    path("v1/speakers/<slug:slug>/", views.SpeakerDetail.as_view(), name="speaker-detail"),
    path("v1/podcasts/", views.PodcastList.as_view(), name="podcast-list"),
    path("v1/topics/", subject_views.TopicList.as_view(), name="topic-list"),
    path("v1/topics/<slug:slug>/", subject_views.TopicDetail.as_view(), name="topic-detail"),
    path("v1/references/", subject_views.ReferenceList.as_view(), name="reference-list"),
    path(
        "v1/references/<slug:slug>/",
        subject_views.ReferenceDetail.as_view(),
        name="reference-detail",
    ),
    path("v1/stats/", views.Stats.as_view(), name="stats"),
    path("v1/schema/", SpectacularJSONAPIView.as_view(api_version="v1"), name="schema"),
    # Anything else under /api/ is a JSON 404, even with DEBUG on. Only addresses that
    # end in a slash: without one, CommonMiddleware first redirects to add it.
    re_path(r"^[\s\S]*/$", not_found, name="not-found"),
]
