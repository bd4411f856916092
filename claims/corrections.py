"""The public log of corrections and retractions: /corrections/ and its Atom feed.

Both read public_corrections(), so the page and the feed always list the same
changes in the same order.
"""

from django.db.models import QuerySet
from django.shortcuts import render

from claims.models import ClaimRevision, RevisionKind
from claims.pagination import CappedPaginator
from claims.querysets import on_record_q

CORRECTIONS_PER_PAGE = 25


def public_corrections() -> QuerySet[ClaimRevision]:
    """Every correction and retraction of a claim with a public permalink, newest first.

    A draft's edits are never corrections (history.ClaimChange.kind), and a claim
    whose episode is a draft has no permalink, so neither appears. Each revision
    comes with its claim, episode, podcast and speaker in the same query.
    """
    return (
        # On the joined claim, not `claim__in` a subquery: SQLite built the list of
        # every claim on record (a million) to page through ten thousand revisions.
        ClaimRevision.objects.filter(
            on_record_q(prefix="claim__"),
            kind__in=(RevisionKind.CORRECTED, RevisionKind.RETRACTED),
        )
        .select_related("claim__episode__podcast", "claim__speaker")
        .defer(
            "changes",
            "claim__episode__transcript",
            "claim__episode__summary",
            "claim__search_context",
            "claim__search_vector",
        )
        .order_by("-created_at", "-pk")
    )


def correction_log(request):
    # A capped count: the log of a large ledger is paged without counting all of it.
    paginator = CappedPaginator(public_corrections(), CORRECTIONS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "claims/correction_log.html", {"page": page})
