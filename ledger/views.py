from django.shortcuts import redirect, render
from django.urls import reverse

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker

RECENT_EPISODES = 6


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": Episode.objects.published()
            .with_public_counts()
            .select_related("podcast")
            .newest_first()[:RECENT_EPISODES],
            "claim_count": Claim.objects.published().count(),
            "episode_count": Episode.objects.published().count(),
            "people_count": Speaker.objects.in_public_record().count(),
            "podcast_count": Podcast.objects.in_public_record().count(),
        },
    )


def search(request):
    """The site-wide "Search evidence" address: the claims browser, state kept."""
    target = reverse("claims:claim_list")
    if request.GET:
        target += "?" + request.GET.urlencode()
    return redirect(target)
