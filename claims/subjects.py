"""What claims are about and what they name, fetched for many claims at once."""

from collections.abc import Iterable

from django.db.models import Prefetch, prefetch_related_objects

from claims.models import Claim, ClaimReference

# For Claim querysets (`.prefetch_related(*SUBJECTS)`) and lists of claims alike.
SUBJECTS = (
    "topics",
    Prefetch("references_named", queryset=ClaimReference.objects.in_role_order()),
)


def with_subjects(claims: Iterable[Claim]) -> None:
    """Fetch the topics and named references of these claims: two queries in all."""
    prefetch_related_objects(list(claims), *SUBJECTS)
