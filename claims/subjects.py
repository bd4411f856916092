"""What claims are about and what they name, fetched for many claims at once."""

from collections import defaultdict
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


def subject_slugs(claim_ids: Iterable[int]) -> tuple[dict[int, list[str]], dict[int, list[dict]]]:
    """{claim id: its topics' slugs} and {claim id: [{"role", "slug"}] of the references it
    names}, each in the order SUBJECTS gives them: two queries, and only the slugs read,
    for files of every claim (a record and a queryset per claim and subject took 5 KB a
    claim, most of a download's memory)."""
    claim_ids = list(claim_ids)
    topics, references = defaultdict(list), defaultdict(list)
    tagged = (
        Claim.topics.through.objects.filter(claim_id__in=claim_ids)
        .order_by("topic__name")  # as Topic.Meta orders claim.topics.all()
        .values_list("claim_id", "topic__slug")
    )
    for claim_id, slug in tagged:
        topics[claim_id].append(slug)
    named = (
        ClaimReference.objects.in_role_order()
        .filter(claim_id__in=claim_ids)
        .values_list("claim_id", "role", "reference__slug")
    )
    for claim_id, role, slug in named:
        references[claim_id].append({"role": role, "slug": slug})
    return topics, references
