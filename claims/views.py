from functools import reduce
from operator import or_

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Exists, F, OuterRef, Q
from django.shortcuts import get_object_or_404, render

from claims import search
from claims.filters import ClaimFilter, Ordering, valid_filters
from claims.models import Attribution, Claim, ClaimType
from claims.pagination import COUNT_CAP, CappedPaginator
from episodes.models import Episode, Speaker

CLAIMS_PER_PAGE = 20
SPEAKER_FACET_SIZE = 12
# Facets count at most this many claims (the most recently added): see facets().
FACET_SAMPLE = COUNT_CAP
MATCHING_RECORDS = 5
# Speakers whose names match are looked at in name order, this many at most.
MATCHING_CANDIDATES = 100


def claim_list(request):
    filters, problems = valid_filters(request.GET, Claim.objects.published())
    claims = filters.qs.for_listing()
    paginator = CappedPaginator(claims, CLAIMS_PER_PAGE)
    if filters.order_for(paginator.count):
        claims = filters.apply_ordering(claims)
        paginator = CappedPaginator(claims, CLAIMS_PER_PAGE, count=paginator.count)
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
            "facets": facets(filters),
            "orderings": Ordering.CHOICES,
            "facet_sample": FACET_SAMPLE,
            "matching_speakers": matching_speakers(filters.query),
            "matching_episodes": matching_episodes(filters.query),
        },
    )


def facets(filters: ClaimFilter):
    """Counts beside each choice: how many claims that choice would show. One query per facet.

    Past FACET_SAMPLE claims the counts are among the FACET_SAMPLE most recently
    added only (`sampled` says so): counting a million rows four times is not worth it.
    """
    chosen = filters.form.cleaned_data
    by_type = dict(counts(filters.without("type"), "type"))
    speakers = counts(
        filters.without("speaker").filter(attribution=Attribution.IDENTIFIED),
        "speaker__slug",
        "speaker__name",
    )
    podcasts = counts(
        filters.without("podcast"), "episode__podcast__slug", "episode__podcast__name"
    )
    attributions = counts(filters.without("attribution"), "attribution")
    return {
        "sampled": any(
            sum(row[-1] for row in rows) >= FACET_SAMPLE
            for rows in (by_type.items(), speakers, podcasts, attributions)
        ),
        "type": [
            (choice, by_type.get(choice, 0), choice in (chosen.get("type") or []))
            for choice in ClaimType.values
            if by_type.get(choice) or choice in (chosen.get("type") or [])
        ],
        "speaker": speakers[:SPEAKER_FACET_SIZE],
        "podcast": podcasts,
        "attribution": attributions,
    }


def counts(claims, *fields):
    """[(*fields, count)] largest first, among the FACET_SAMPLE most recently added `claims`.

    So the cost stops growing with the ledger; below FACET_SAMPLE the sample is
    every claim and the counts are exact. By id, not air date: a sort by air date
    needs every match joined to its episode first, twice the time for a phrase in
    3% of a million claims. Grouped in plain SQL around the ORM's query because
    the SQLite search's FTS join can't be nested in an `IN (…)`.
    """
    names = {f"facet_{i}": F(field) for i, field in enumerate(fields)}
    sample = claims.order_by("-pk").values(**names)[:FACET_SAMPLE]
    try:
        sql, params = sample.query.sql_with_params()
    except EmptyResultSet:  # e.g. .none(), for a search of stop words only
        return []
    columns = ", ".join(names)
    with connections[claims.db].cursor() as cursor:
        cursor.execute(
            f"SELECT {columns}, COUNT(*) AS n FROM ({sql}) AS sample "
            f"GROUP BY {columns} ORDER BY n DESC, {columns}",
            params,
        )
        return cursor.fetchall()


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
