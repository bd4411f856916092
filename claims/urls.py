from django.urls import path, re_path

from claims import downloads, views

app_name = "claims"

# A download sits beside the page it comes from: /claims.csv, /speakers/ada/claims.json.
SLUG, FILE = "[-a-zA-Z0-9_]+", r"claims\.(?P<extension>csv|json)$"

urlpatterns = [
    path("claims/", views.claim_list, name="claim_list"),
    re_path(f"^{FILE}", downloads.claims_file, name="download"),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        views.claim_detail,
        name="claim_detail",
    ),
]

# The pages of podcasts, episodes and speakers keep the episodes app's names
# (`episodes:episode_detail`, which their models' get_absolute_url reverses),
# though their views live here because each of them shows claims.
record_pages = (
    [
        path("episodes/", views.episode_list, name="episode_list"),
        path(
            "episodes/<slug:podcast_slug>/<slug:slug>/",
            views.episode_detail,
            name="episode_detail",
        ),
        re_path(
            f"^episodes/(?P<podcast_slug>{SLUG})/(?P<slug>{SLUG})/{FILE}",
            downloads.episode_file,
            name="episode_download",
        ),
        path("speakers/", views.speaker_list, name="speaker_list"),
        path("speakers/<slug:slug>/", views.speaker_detail, name="speaker_detail"),
        re_path(
            f"^speakers/(?P<slug>{SLUG})/{FILE}", downloads.speaker_file, name="speaker_download"
        ),
        path("podcasts/", views.podcast_list, name="podcast_list"),
        path("podcasts/<slug:slug>/", views.podcast_detail, name="podcast_detail"),
        re_path(
            f"^podcasts/(?P<slug>{SLUG})/{FILE}", downloads.podcast_file, name="podcast_download"
        ),
    ],
    "episodes",
)
