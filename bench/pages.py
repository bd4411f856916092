"""The pages and searches the benchmark measures, picked from the generated data.

The picks are deterministic for a seed: the biggest synthetic show, its newest
published episode, and the show's first host (generate_synthetic's most prolific
speaker), so every run and every database measure the same pages.
"""

from urllib.parse import urlencode

from django.db.models import Count, F
from django.urls import reverse

from claims import search
from claims.links import MOVED, ClaimLink
from claims.models import Claim
from claims.references import Reference
from claims.synthetic import SYNTHETIC_URL
from claims.synthetic_curation import SYNTHETIC_TOPIC
from claims.topics import Topic
from episodes.models import Episode, Podcast, Speaker

# A filter a reader might choose: one type, the last year and a half (about 1-2% of claims).
FILTERED = {"type": "prediction", "aired_from": "2025-01-01"}
RARE_TERMS = ("quokka", "zeppelin", "marzipan")
COMMON_TERM = "model"


def claims_url(**params):
    return reverse("claims:claim_list") + "?" + urlencode(params, doseq=True)


def biggest_show():
    return Podcast.objects.filter(website_url__startswith=SYNTHETIC_URL).order_by("pk").first()


def top_speaker():
    return Speaker.objects.filter(links__startswith=SYNTHETIC_URL).order_by("pk").first()


def curated_pages():
    """{name: URL} of the pages of what editors add: the first synthetic topic and reference
    (their Zipf laws make them the biggest), the speaker whose positions moved most often
    (besides top_speaker(), measured already), and the first public claim with a link whose transcript (so its context) is public."""
    topic = Topic.objects.filter(description=SYNTHETIC_TOPIC).order_by("pk").first()
    reference = Reference.objects.filter(url__startswith=SYNTHETIC_URL).order_by("pk").first()
    moved = (
        ClaimLink.objects.public()
        .filter(from_claim__speaker=F("to_claim__speaker"), relation__in=MOVED)
        .exclude(from_claim__speaker=top_speaker())
        .values("from_claim__speaker")
        .annotate(moves=Count("*"))
        .order_by("-moves", "from_claim__speaker")
        .first()
    )
    linked = (
        ClaimLink.objects.public()
        .filter(from_claim__episode__transcript__is_public=True)
        .select_related("from_claim__episode")
        .order_by("pk")
        .first()
    )
    mover = moved and Speaker.objects.get(pk=moved["from_claim__speaker"])
    found = {
        "topic (biggest)": topic and topic.get_absolute_url(),
        "reference (most named)": reference and reference.get_absolute_url(),
        "speaker (moved positions)": mover and mover.get_absolute_url(),
        "speaker's moves": mover and reverse("episodes:speaker_moves", args=[mover.slug]),
        "claim (linked, in context)": linked and linked.from_claim.get_absolute_url(),
    }
    return {
        "topics": reverse("claims:topic_list"),
        "references": reverse("claims:reference_list"),
        "corrections": reverse("claims:corrections"),
        **{name: url for name, url in found.items() if url},
    }


def pages():
    """{name: URL} of every public page, one of each kind."""
    podcast = biggest_show()
    episode = Episode.objects.published().filter(podcast=podcast).newest_first().first()
    claim = Claim.objects.published().filter(episode=episode).order_by("number").first()
    # A quarter of the synthetic transcripts are public: the newest of the show's.
    transcribed = (
        Episode.objects.published()
        .filter(podcast=podcast, transcript__is_public=True)
        .newest_first()
        .first()
    )
    return {
        "home": reverse("home"),
        "episodes": reverse("episodes:episode_list"),
        "episode": episode.get_absolute_url(),
        "speakers": reverse("episodes:speaker_list"),
        "speaker": top_speaker().get_absolute_url(),
        "podcasts": reverse("episodes:podcast_list"),
        "podcast": podcast.get_absolute_url(),
        "claim": claim.get_absolute_url(),
        **({"transcript": transcribed.get_transcript_url()} if transcribed else {}),
        **curated_pages(),
        "claims": reverse("claims:claim_list"),
        "claims (filtered)": claims_url(**FILTERED),
        "search": claims_url(q=COMMON_TERM),
        "predictions": reverse("claims:prediction_list"),
        "claims (overdue predictions)": claims_url(due="overdue"),
        # What machines read: the sitemap index, a full page of 50,000 claim addresses,
        # the newest claims' feed and a filtered view's feed.
        "sitemap": reverse("sitemap"),
        "sitemap (claims)": reverse("sitemap_section", kwargs={"section": "claims"}),
        "feed": reverse("claims:claims_feed"),
        "feed (filtered)": reverse("claims:claims_feed") + "?" + urlencode(FILTERED),
        "api: claims (filtered)": reverse("api:claim-list") + "?" + urlencode(FILTERED),
        "api: claim": reverse("api:claim-detail", kwargs={"pk": claim.pk}),
        "api: episode": "/api/v1" + episode.get_absolute_url(),
    }


def search_queries():
    """{kind: reader's query}: rare terms, a term in most claims, a phrase, an exclusion, a name."""
    return {
        **{f"rare: {term}": term for term in RARE_TERMS},
        f"common: {COMMON_TERM}": COMMON_TERM,
        "phrase": '"open source"',
        "exclusion": f"{COMMON_TERM} -market",
        "speaker name": top_speaker().name,
    }


def search_mix():
    return {kind: claims_url(q=text) for kind, text in search_queries().items()}


def fts5_queries():
    """The same queries as SQLite FTS5 expressions, for the peer (Datasette)."""
    return {kind: search.parse(text).as_fts5() for kind, text in search_queries().items()}


def admin_pages():
    """{name: URL} of the admin pages an editor opens every day: both changelists, and the
    change pages of the biggest show's newest episode with the most claims and with the fewest
    (their query counts must not differ: inline claims cost no query each)."""
    by_size = (
        Episode.objects.filter(podcast=biggest_show())
        .annotate(claim_total=Count("claims"))
        .order_by("-claim_total", "-air_date", "pk")
    )
    most, fewest = by_size.first(), by_size.last()

    def change_page(episode):
        return reverse("admin:episodes_episode_change", args=[episode.pk])

    return {
        "admin: claims": reverse("admin:claims_claim_changelist"),
        "admin: episodes": reverse("admin:episodes_episode_changelist"),
        "admin: episode, most claims": change_page(most),
        "admin: episode, fewest claims": change_page(fewest),
    }
