"""/topics/ and each topic's page: its public claims, their mix and who made them.

Both read the counts each topic keeps (claims.counters): counting a topic's claims,
their types and their speakers on every visit grew with the ledger (docs/performance.md).
"""

from django.shortcuts import get_object_or_404, render

from claims.models import Claim, Topic
from claims.pagination import CappedPaginator, Exactly
from claims.querysets import ordered_mix
from episodes.models import Speaker

TOPIC_CLAIMS_PER_PAGE = 50


def topic_list(request):
    # Topics whose claims are all drafts are not listed: they have no page either.
    topics = Topic.objects.with_public_claim_counts().order_by("name")
    return render(request, "claims/topic_list.html", {"topics": topics})


def topic_detail(request, slug):
    # Only topics with published claims have a page.
    topic = get_object_or_404(Topic.objects.with_public_claim_counts(), slug=slug)
    claims = Claim.objects.published().filter(topics=topic).for_listing().newest_first()
    # The page has no filter (only ?page=): the kept count is the count of what it lists.
    paginator = CappedPaginator(
        claims, TOPIC_CLAIMS_PER_PAGE, count=Exactly(topic.public_claim_count)
    )
    return render(
        request,
        "claims/topic_detail.html",
        {
            "topic": topic,
            "page": paginator.get_page(request.GET.get("page")),
            "mix": ordered_mix(topic.public_claim_mix),
            "speakers": Speaker.objects.filter(pk__in=topic.public_top_speakers).order_by("name"),
        },
    )
