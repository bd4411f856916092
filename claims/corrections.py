"""The public log of corrections and retractions: /corrections/ and its Atom feed.

Both read public_corrections(), so the page and the feed always list the same
changes in the same order.
"""

from django.db.models import BooleanField, QuerySet, Sum
from django.db.models.expressions import RawSQL
from django.shortcuts import render

from claims.history import LOGGED_KINDS
from claims.models import ClaimRevision
from claims.pagination import CappedPaginator, capped
from claims.querysets import on_record_q
from episodes.models import Podcast

CORRECTIONS_PER_PAGE = 25


def logged() -> RawSQL:
    """The condition of the partial index claim_revision_public_log, its kinds written out.

    SQLite reads a partial index only for a query that repeats its condition with the
    same values, not with parameters (as `kind__in` passes them): it walked every
    revision of every claim instead, and sorted them (docs/performance.md).
    """
    kinds = ", ".join(f"'{kind}'" for kind in LOGGED_KINDS)
    column = f'"{ClaimRevision._meta.db_table}"."kind"'
    return RawSQL(f"{column} IN ({kinds})", (), output_field=BooleanField())


def public_corrections() -> QuerySet[ClaimRevision]:
    """Every correction and retraction of a claim with a public permalink, newest first.

    A draft's edits are never corrections (history.ClaimChange.kind), and a claim
    whose episode is a draft has no permalink, so neither appears. Each revision
    comes with its claim, episode, podcast and speaker in the same query.
    """
    return (
        # On the joined claim, not `claim__in` a subquery: SQLite built the list of
        # every claim on record (a million) to page through ten thousand revisions.
        ClaimRevision.objects.filter(on_record_q(prefix="claim__"), logged())
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


def public_correction_total() -> int:
    """How many public_corrections() there are, summed from the podcasts' kept counts
    (claims.counters): counted, each correction's claim and episode were read."""
    return Podcast.objects.aggregate(n=Sum("public_correction_count"))["n"] or 0


def correction_log(request):
    # Capped as it was when counted: pages run to the cap, however long the log.
    count = capped(public_correction_total(), CappedPaginator.cap)
    paginator = CappedPaginator(public_corrections(), CORRECTIONS_PER_PAGE, count=count)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "claims/correction_log.html", {"page": page})
