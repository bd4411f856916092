from django.shortcuts import render

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
