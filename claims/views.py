from functools import reduce
from operator import or_

from django.db.models import Exists, OuterRef, Q
from django.shortcuts import get_object_or_404, render

from claims import search
from claims.facets import tally
from claims.filters import Ordering, valid_filters
from claims.models import Claim
from claims.pagination import COUNT_CAP, CappedPaginator
from episodes.models import Episode, Speaker

CLAIMS_PER_PAGE = 20
SPEAKER_FACET_SIZE = 12
# Facets count at most this many claims (the most recently added): see claims/facets.py.
FACET_SAMPLE = COUNT_CAP
MATCHING_RECORDS = 5
# Speakers whose names match are looked at in name order, this many at most.
MATCHING_CANDIDATES = 100


def claim_list(request):
    filters, problems = valid_filters(request.GET, Claim.objects.published())
    counted = tally(filters, cap=CappedPaginator.cap, sample=FACET_SAMPLE)
    filters.order_for(counted.count)
    claims = filters.qs.for_listing()
    paginator = CappedPaginator(claims, CLAIMS_PER_PAGE, count=counted.count)
    page = paginator.get_page(request.GET.get("page"))
    search.highlight(page.object_list, filters.query)
    return render(
        request,
        "claims/claim_list.html",
        {
            "filters": filters,
            "query": filters.query,
            "problems": problems,
            "page": page,
            "facets": counted.for_template(
                filters.form.cleaned_data.get("type") or [], SPEAKER_FACET_SIZE
            ),
            "orderings": Ordering.CHOICES,
            "facet_sample": FACET_SAMPLE,
            "matching_speakers": matching_speakers(filters.query),
            "matching_episodes": matching_episodes(filters.query),
        },
    )


def matching_speakers(query):
    words = [word for word in query.words if len(word) >= 3]
    if not words:
        return []
    names = reduce(or_, (Q(name__icontains=word) for word in words))
    # Asked per speaker in the SELECT list, for the first candidates by name only: as a
    # WHERE EXISTS, PostgreSQL answers it by reading every published claim.
    candidates = (
        Speaker.objects.filter(names)
        .annotate(is_public=Exists(Claim.objects.published().filter(speaker=OuterRef("pk"))))
        .order_by("name")[:MATCHING_CANDIDATES]
    )
    return [speaker for speaker in candidates if speaker.is_public][:MATCHING_RECORDS]


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
    # Retracted claims keep their permalink, which then shows the retraction.
    claim = get_object_or_404(
        Claim.objects.on_record().for_listing(),
        episode__podcast__slug=podcast_slug,
        episode__slug=episode_slug,
        number=number,
    )
    return render(request, "claims/claim_detail.html", {"claim": claim})
