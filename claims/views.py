from django.shortcuts import get_object_or_404, render

from claims.models import Claim


def claim_detail(request, podcast_slug, episode_slug, number):
    claim = get_object_or_404(
        Claim.objects.published().for_listing(),
        episode__podcast__slug=podcast_slug,
        episode__slug=episode_slug,
        number=number,
    )
    return render(request, "claims/claim_detail.html", {"claim": claim})
