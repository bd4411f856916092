from django.shortcuts import get_object_or_404, render

from claims.browse import ClaimSearch
from claims.filters import Ordering
from claims.models import Claim


def claim_list(request):
    found = ClaimSearch(request.GET)
    context = {"search": found, "page": found.page(), "orderings": Ordering.CHOICES}
    return render(request, "claims/claim_list.html", context)


def claim_detail(request, podcast_slug, episode_slug, number):
    # Retracted claims keep their permalink, which then shows the retraction.
    claim = get_object_or_404(
        Claim.objects.on_record().for_listing(),
        episode__podcast__slug=podcast_slug,
        episode__slug=episode_slug,
        number=number,
    )
    return render(request, "claims/claim_detail.html", {"claim": claim})
