"""The public pages of predictions: /predictions/, and a speaker's track record.

Both count and list public predictions only (Claim.objects.published()), and
each runs a fixed number of queries whatever the size of the ledger: the counts
in one grouped query, each list in one query of a bounded number of rows (the resolved ones, one per outcome).
"""

import datetime

import django_filters
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.shortcuts import render
from django.utils import timezone

from claims.choices import ClaimType, Due, Resolution
from claims.models import Claim
from claims.predictions import due_q
from episodes.models import Podcast, Speaker

# How many predictions each list on /predictions/ shows; the rest are a link away.
SECTION_SIZE = 20
# How many resolved predictions a speaker's track record lists.
TRACK_RECORD_SIZE = 50
OUTCOMES = [choice for choice in Resolution if choice != Resolution.OPEN]


def public_predictions() -> QuerySet[Claim]:
    return Claim.objects.published().filter(type=ClaimType.PREDICTION)


class PredictionFilter(django_filters.FilterSet):
    """/predictions/'s filters: speakers and podcasts among public predictions only."""

    # By the claim mix each speaker keeps (claims.counters): looking for a public
    # prediction of each of 25k speakers took 300 ms at a million claims.
    speaker = django_filters.ModelChoiceFilter(
        queryset=Speaker.objects.filter(public_claim_mix__has_key=ClaimType.PREDICTION).order_by(
            "name"
        ),
        to_field_name="slug",
        label="Speaker",
        empty_label="Any speaker",
    )
    podcast = django_filters.ModelChoiceFilter(
        field_name="episode__podcast",
        queryset=Podcast.objects.filter(
            Exists(public_predictions().filter(episode__podcast=OuterRef("pk")))
        ).order_by("name"),
        to_field_name="slug",
        label="Podcast",
        empty_label="Any podcast",
    )
    outcome = django_filters.ChoiceFilter(
        field_name="resolution", choices=Resolution.choices, label="Outcome", empty_label="Any"
    )


def outcome_counts(predictions: QuerySet[Claim], today: datetime.date) -> dict[str, int]:
    """{outcome or Due value: how many} of these predictions, in one query."""
    counts = {due.value: Count("pk", filter=due_q(due, today)) for due in Due}
    counts.update(
        {outcome.value: Count("pk", filter=Q(resolution=outcome)) for outcome in OUTCOMES}
    )
    return predictions.aggregate(**counts)


def resolved_by_outcome(
    predictions: QuerySet[Claim], per_outcome: int, counts: dict[str, int]
) -> list[tuple]:
    """[(outcome, how many, its most recently resolved `per_outcome`)] for each outcome
    any prediction has: one query per such outcome, each reading `per_outcome` rows
    down the claim_published_resolved index. (Ranking them all in one windowed query
    read every resolved prediction: 430 ms at a million claims.)"""
    latest = predictions.for_listing().order_by("-resolved_on", "-pk")
    return [
        (outcome, counts[outcome], list(latest.filter(resolution=outcome)[:per_outcome]))
        for outcome in OUTCOMES
        if counts[outcome]
    ]


def prediction_list(request):
    """Open predictions overdue and due soon, then the resolved ones by outcome."""
    today = timezone.localdate()
    filters = PredictionFilter(request.GET, queryset=public_predictions())
    predictions = filters.qs if filters.is_valid() else public_predictions()
    counts = outcome_counts(predictions, today)
    upcoming = predictions.for_listing().order_by("horizon", "episode__air_date", "pk")
    context = {
        "filters": filters,
        "today": today,
        "counts": counts,
        "overdue": list(upcoming.filter(due_q(Due.OVERDUE, today))[:SECTION_SIZE]),
        "due_soon": list(upcoming.filter(due_q(Due.SOON, today))[:SECTION_SIZE]),
        "resolved": resolved_by_outcome(predictions, SECTION_SIZE, counts),
        "outcome_counts": [(outcome, counts[outcome]) for outcome in OUTCOMES],
        "section_size": SECTION_SIZE,
    }
    return render(request, "claims/prediction_list.html", context)


def track_record(speaker: Speaker) -> dict:
    """A speaker's predictions counted by outcome, and the resolved ones: two queries."""
    predictions = public_predictions().filter(speaker=speaker)
    counts = dict(predictions.order_by().values_list("resolution").annotate(n=Count("pk")))
    resolved = (
        predictions.exclude(resolution=Resolution.OPEN)
        .for_listing()
        .order_by("-resolved_on", "-pk")[:TRACK_RECORD_SIZE]
    )
    return {
        "total": sum(counts.values()),
        "open": counts.get(Resolution.OPEN, 0),
        "outcomes": [(outcome, counts.get(outcome, 0)) for outcome in OUTCOMES],
        "resolved": list(resolved),
        "resolved_total": sum(counts.values()) - counts.get(Resolution.OPEN, 0),
        "size": TRACK_RECORD_SIZE,
    }
