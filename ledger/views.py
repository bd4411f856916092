from django.conf import settings
from django.shortcuts import render
from django.urls import reverse

from claims.models import Claim
from claims.public_record import episodes_with_counts
from episodes.models import Episode, Podcast

RECENT_EPISODES = 6


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": episodes_with_counts(
                Episode.objects.published().newest_first()[:RECENT_EPISODES]
            ),
            "claim_count": Claim.objects.published().count(),
            "episode_count": Episode.objects.published().count(),
            # An EXISTS per speaker and podcast, not a count of every claim.
            "people_count": Claim.objects.published().speakers().count(),
            "podcast_count": Podcast.objects.public().count(),
        },
    )


def robots_txt(request):
    return render(
        request,
        "robots.txt",
        {
            "sitemap_url": request.build_absolute_uri(reverse("sitemap")),
            # robots.txt is public: an admin moved to a secret address is not named in it.
            "admin_path": "/admin/" if settings.ADMIN_URL == "admin/" else "",
        },
        content_type="text/plain; charset=utf-8",
    )
