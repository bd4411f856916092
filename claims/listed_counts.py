"""How many speakers and references the public pages list, kept in a row each.

The home page, the speakers' index, the references' index and the sitemap's index show
or page by these numbers. Counted when a page was asked for, each read an index entry
per record: 1.4 ms for the 10,000 people on the public record at a million claims on
PostgreSQL, and ten times as many at ten million. claims.counters counts them again in
the transaction of every change that counts a speaker or a reference again, and
`manage.py recount` rebuilds them, so a page reads one row. Like every kept count it is
counted again, never added to: one left behind by two editors' changes at once (each
counting before the other's was committed) is right again after the next change to a
speaker or reference.
"""

from django.db import models
from django.db.models import Q, QuerySet

from claims.references import Reference
from episodes.models import Speaker


class ListedKind(models.TextChoices):
    SPEAKERS = "speakers", "speakers with a published episode"
    PEOPLE = "people", "speakers with a public claim"
    REFERENCES = "references", "references a public claim names"


def listed(kind: str) -> QuerySet:
    """The records of `kind` the public pages list, from what each keeps."""
    if kind == ListedKind.SPEAKERS:
        return Speaker.objects.filter(public_episode_count__gt=0)
    if kind == ListedKind.PEOPLE:
        # Asked also for a published episode, which each of them has (their claim's):
        # the speakers' partial index (speaker_on_record) then counts them without
        # reading every speaker (PostgreSQL at a million: 8.6 -> 2.1 ms).
        return Speaker.objects.filter(public_episode_count__gt=0, public_claim_count__gt=0)
    return Reference.objects.filter(public_claim_count__gt=0)


class ListedCount(models.Model):
    kind = models.CharField(max_length=20, primary_key=True, choices=ListedKind.choices)
    count = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ListedKind.values), name="listed_count_kind_valid"
            )
        ]

    def __str__(self):
        return f"{self.count} {self.get_kind_display()}"


def listed_count(kind: str) -> int:
    """How many records of `kind` the pages list: the kept count, or, where none is kept
    (a ledger emptied without a recount), counted."""
    kept = ListedCount.objects.filter(kind=kind).values_list("count", flat=True).first()
    return listed(kind).count() if kept is None else kept


def count_listed(*kinds: str) -> None:
    """Count again the records of `kinds` the pages list, and keep the counts."""
    ListedCount.objects.bulk_create(
        [ListedCount(kind=kind, count=listed(kind).count()) for kind in kinds],
        update_conflicts=True,
        unique_fields=["kind"],
        update_fields=["count"],
    )


def kept_listed_counts() -> dict[str, int]:
    return dict(ListedCount.objects.values_list("kind", "count"))
