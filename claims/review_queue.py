"""The admin home's review queue: what waits for an editor, each a count linking to its list.

Each entry is a queryset and the changelist filter that shows the same rows, so
the count on the home page is the number of rows the link opens
(tests/claims/test_review_queue.py holds them to it). Counts stop at the
changelist's own cap (claims.pagination), so each is one query that reads at
most COUNT_CAP rows of an index, however large the ledger.
"""

import datetime
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.exceptions import NotRegistered
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from claims.choices import UNVERIFIED, ClaimStatus, Due
from claims.models import Claim, Prediction, Report
from claims.pagination import CappedPaginator
from claims.predictions import due_q


@dataclass(frozen=True)
class QueueEntry:
    label: str
    items: QuerySet
    # The changelist's query string that lists exactly `items`.
    filters: dict[str, str]
    help: str = ""

    @property
    def url(self) -> str:
        opts = self.items.model._meta
        changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        return f"{changelist}?{urlencode(self.filters)}"

    def count(self) -> int:
        """Exactly, or AtLeast(COUNT_CAP) past the cap, as the changelist counts: one query."""
        return CappedPaginator(self.items, per_page=1).count

    def is_visible_to(self, request) -> bool:
        try:
            model_admin = admin.site.get_model_admin(self.items.model)
        except NotRegistered:
            return False
        return model_admin.has_view_permission(request)


def queue_entries(today: datetime.date) -> list[QueueEntry]:
    published = Claim.objects.filter(status=ClaimStatus.PUBLISHED)
    return [
        QueueEntry(
            "Drafts waiting",
            Claim.objects.filter(status=ClaimStatus.DRAFT),
            {"status__exact": ClaimStatus.DRAFT},
            "claims not yet published",
        ),
        QueueEntry(
            "Published, not verified",
            published.filter(verification__in=UNVERIFIED),
            {"status__exact": ClaimStatus.PUBLISHED, "verification__in": ",".join(UNVERIFIED)},
            "not found in the transcript, or no transcript to check",
        ),
        QueueEntry(
            "Predictions due",
            Prediction.objects.filter(status=ClaimStatus.PUBLISHED).filter(
                due_q(Due.OVERDUE, today)
            ),
            {"status__exact": ClaimStatus.PUBLISHED, "due": Due.OVERDUE},
            "published, horizon passed, no outcome yet",
        ),
        QueueEntry(
            "Reader reports open",
            Report.objects.open(),
            {"status__exact": "open"},
            "reported by readers, not yet closed",
        ),
    ]


def review_queue(request) -> list[tuple[QueueEntry, int]]:
    """The entries this editor may open, with their counts: one query per entry."""
    return [
        (entry, entry.count())
        for entry in queue_entries(timezone.localdate())
        if entry.is_visible_to(request)
    ]
