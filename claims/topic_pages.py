"""/topics/ and each topic's page: its public claims, their mix and who made them.

Both read the counts each topic keeps (claims.counters): counting a topic's claims,
their types and their speakers on every visit grew with the ledger (docs/performance.md).
"""

from django.shortcuts import get_object_or_404, render

from claims.models import Claim, Topic
from claims.pagination import CLAIMS_PER_PAGE, CappedPaginator, Exactly, page_of
from claims.public_record import public_claim_total
from claims.querysets import ordered_mix
from claims.topics import tagged, walks_faster
from episodes.models import Speaker

TOPICS_PER_PAGE = 50


def topic_list(request):
    # Topics whose claims are all drafts are not listed: they have no page either. A
    # page at a time: a million claims came with 200 topics, and listing them all took
    # three to four times as long as listing ten thousand claims' 41.
    topics = Topic.objects.with_public_claim_counts().order_by("name")
    page = page_of(request, topics, TOPICS_PER_PAGE)
    return render(request, "claims/topic_list.html", {"page": page})


def topic_detail(request, slug):
    # Only topics with published claims have a page.
    topic = get_object_or_404(Topic.objects.with_public_claim_counts(), slug=slug)
    claims = tagged_claims(topic, page_number(request)).for_cards().newest_first()
    # The page has no filter (only ?page=): the kept count is the count of what it lists.
    paginator = CappedPaginator(claims, CLAIMS_PER_PAGE, count=Exactly(topic.public_claim_count))
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


def tagged_claims(topic, page):
    """The topic's public claims, found the cheaper of two ways for this page.

    Found by their links, all of a topic's claims are sorted to show a page of them,
    which grows with the topic (0.3 s on SQLite for one with 60,000 claims in a
    million). Walking the whole ledger newest first and keeping the topic's claims
    reads about ledger / topic claims per claim shown instead: far fewer for a big
    topic, far more for a small one. The kept counts choose: walk when
    topic² > ledger × claims shown down to this page.
    """
    walk = walks_faster(topic.public_claim_count, public_claim_total(), CLAIMS_PER_PAGE * page)
    return tagged(Claim.objects.published(), topic, walk)


def page_number(request) -> int:
    """The page asked for, as a number (the paginator answers a bad one with page 1 or
    the last page; any guess will do for choosing how to find it)."""
    try:
        return max(1, int(request.GET.get("page", 1)))
    except ValueError:
        return 1
