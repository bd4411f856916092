from functools import reduce
from operator import or_

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, render

from claims import search
from claims.filters import ClaimFilter, Ordering, valid_filters
from claims.models import Attribution, Claim, ClaimType
from episodes.models import Episode, Speaker
from episodes.views import page_of

CLAIMS_PER_PAGE = 20
SPEAKER_FACET_SIZE = 12
MATCHING_RECORDS = 5


def claim_list(request):
    filters, problems = valid_filters(request.GET, Claim.objects.published())
    page = page_of(request, filters.qs.for_listing(), CLAIMS_PER_PAGE)
    search.highlight(page.object_list, filters.query)
    return render(
        request,
        "claims/claim_list.html",
        {
            "filters": filters,
            "query": filters.query,
            "problems": problems,
            "page": page,
            "facets": facets(filters),
            "orderings": Ordering.CHOICES,
            "matching_speakers": matching_speakers(filters.query),
            "matching_episodes": matching_episodes(filters.query),
        },
    )


def facets(filters: ClaimFilter):
    """Counts beside each choice: how many claims that choice would show. One query per facet."""
    chosen = filters.form.cleaned_data
    by_type = dict(counts(filters.without("type"), "type"))
    speakers = counts(
        filters.without("speaker").filter(attribution=Attribution.IDENTIFIED),
        "speaker__slug",
        "speaker__name",
    )[:SPEAKER_FACET_SIZE]
    return {
        "type": [
            (choice, by_type.get(choice, 0), choice in (chosen.get("type") or []))
            for choice in ClaimType.values
            if by_type.get(choice) or choice in (chosen.get("type") or [])
        ],
        "speaker": speakers,
        "podcast": counts(
            filters.without("podcast"), "episode__podcast__slug", "episode__podcast__name"
        ),
        "attribution": counts(filters.without("attribution"), "attribution"),
    }


def counts(claims, *fields):
    """[(*fields, count)] largest first."""
    return list(
        claims.order_by().values_list(*fields).annotate(n=Count("pk")).order_by("-n", *fields)
    )


def matching_speakers(query):
    words = [word for word in query.words if len(word) >= 3]
    if not words:
        return []
    names = reduce(or_, (Q(name__icontains=word) for word in words))
    return list(Speaker.objects.public().filter(names)[:MATCHING_RECORDS])


def matching_episodes(query):
    if not query.words:
        return []
    titles = Q()
    for word in query.words:
        titles &= Q(title__icontains=word)
    return list(
        Episode.objects.published().filter(titles).select_related("podcast")[:MATCHING_RECORDS]
    )


def claim_detail(request, podcast_slug, episode_slug, number):
    claim = get_object_or_404(
        Claim.objects.published().for_listing(),
        episode__podcast__slug=podcast_slug,
        episode__slug=episode_slug,
        number=number,
    )
    return render(request, "claims/claim_detail.html", {"claim": claim})
