from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import render

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker

RECENT_EPISODES = 6
SEARCH_RESULTS_PER_PAGE = 20
MAX_QUERY_LENGTH = 200


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": Episode.objects.published()
            .with_public_counts()
            .select_related("podcast")[:RECENT_EPISODES],
            "claim_count": Claim.objects.published().count(),
            "episode_count": Episode.objects.published().count(),
            "people_count": Speaker.objects.in_public_record().count(),
            "podcast_count": Podcast.objects.in_public_record().count(),
        },
    )


def search(request):
    query = " ".join(request.GET.get("q", "").replace("\x00", "").split())
    too_long = len(query) > MAX_QUERY_LENGTH
    query = query[:MAX_QUERY_LENGTH]
    claims = Claim.objects.none()
    if query:
        claims = (
            Claim.objects.published()
            .filter(Q(excerpt__icontains=query) | Q(speaker__name__icontains=query))
            .for_listing()
            .newest_first()
        )
    page = Paginator(claims, SEARCH_RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "search.html", {"query": query, "page": page, "too_long": too_long})
