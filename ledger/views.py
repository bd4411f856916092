from django.shortcuts import redirect, render
from django.urls import reverse

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker
from episodes.views import with_counts

RECENT_EPISODES = 6


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": with_counts(
                Episode.objects.published().newest_first()[:RECENT_EPISODES]
            ),
            "claim_count": Claim.objects.published().count(),
            "episode_count": Episode.objects.published().count(),
            # public(): an EXISTS per speaker and podcast, not a count of every claim.
            "people_count": Speaker.objects.public().count(),
            "podcast_count": Podcast.objects.public().count(),
        },
    )


def search(request):
    """The site-wide "Search evidence" address: the claims browser, state kept."""
    target = reverse("claims:claim_list")
    if request.GET:
        target += "?" + request.GET.urlencode()
    return redirect(target)
