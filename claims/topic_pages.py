"""/topics/ and each topic's page: its public claims, their mix and who made them."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from claims.models import Claim, Topic
from claims.views import page_of

TOPIC_CLAIMS_PER_PAGE = 50


def topic_list(request):
    # Topics whose claims are all drafts are not listed: they have no page either.
    topics = Topic.objects.with_public_claim_counts().order_by("name")
    return render(request, "claims/topic_list.html", {"topics": topics})


def topic_detail(request, slug):
    topic = get_object_or_404(Topic, slug=slug)
    claims = Claim.objects.published().filter(topics=topic)
    page = page_of(request, claims.for_listing().newest_first(), TOPIC_CLAIMS_PER_PAGE)
    if not page.paginator.count:
        raise Http404("Only topics with published claims have a page.")
    return render(
        request,
        "claims/topic_detail.html",
        {
            "topic": topic,
            "page": page,
            "mix": claims.type_mix(),
            "speakers": claims.speakers().order_by("name"),
        },
    )
