from django.urls import path, re_path

from claims import (
    citation_downloads,
    corrections,
    downloads,
    embeds,
    feeds,
    prediction_pages,
    reference_pages,
    report_pages,
    topic_pages,
    transcript_pages,
    views,
)

app_name = "claims"

# A download sits beside the page it comes from: /claims.csv, /speakers/ada/claims.json.
SLUG, FILE = "[-a-zA-Z0-9_]+", r"claims\.(?P<extension>csv|json)$"

urlpatterns = [
    path("claims/", views.claim_list, name="claim_list"),
    path("predictions/", prediction_pages.prediction_list, name="prediction_list"),
    path("topics/", topic_pages.topic_list, name="topic_list"),
    path("topics/<slug:slug>/", topic_pages.topic_detail, name="topic_detail"),
    path("references/", reference_pages.reference_list, name="reference_list"),
    path("references/<slug:slug>/", reference_pages.reference_detail, name="reference_detail"),
    path("claims/feed/", feeds.ClaimBrowserFeed(), name="claims_feed"),
    path(
        "claims/citations.<str:extension>",
        citation_downloads.browser_citations,
        name="browser_citations",
    ),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/citation.<str:extension>",
        citation_downloads.claim_citation,
        name="claim_citation",
    ),
    path(
        "embed/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        embeds.claim_embed,
        name="claim_embed",
    ),
    path("oembed/", embeds.oembed, name="oembed"),
    path(
        "speakers/<slug:slug>/citations.<str:extension>",
        citation_downloads.speaker_citations,
        name="speaker_citations",
    ),
    path("corrections/", corrections.correction_log, name="corrections"),
    path("corrections/feed/", feeds.CorrectionsFeed(), name="corrections_feed"),
    path("speakers/<slug:slug>/feed/", feeds.SpeakerFeed(), name="speaker_feed"),
    path("podcasts/<slug:slug>/feed/", feeds.PodcastFeed(), name="podcast_feed"),
    path(
        "episodes/<slug:podcast_slug>/<slug:slug>/feed/",
        feeds.EpisodeFeed(),
        name="episode_feed",
    ),
    re_path(f"^{FILE}", downloads.claims_file, name="download"),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/",
        views.claim_detail,
        name="claim_detail",
    ),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/report/",
        report_pages.report_claim,
        name="claim_report",
    ),
    path(
        "episodes/<slug:podcast_slug>/<slug:episode_slug>/claims/<int:number>/report/sent/",
        report_pages.report_sent,
        name="claim_report_sent",
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
        path(
            "episodes/<slug:podcast_slug>/<slug:slug>/transcript/",
            transcript_pages.episode_transcript,
            name="episode_transcript",
        ),
        re_path(
            f"^episodes/(?P<podcast_slug>{SLUG})/(?P<slug>{SLUG})/{FILE}",
            downloads.episode_file,
            name="episode_download",
        ),
        path("speakers/", views.speaker_list, name="speaker_list"),
        path("speakers/<slug:slug>/", views.speaker_detail, name="speaker_detail"),
        path("speakers/<slug:slug>/moves/", views.speaker_moves, name="speaker_moves"),
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
