"""The public pages of predictions: /predictions/, and a speaker's track record.

Both count and list public predictions only (Claim.objects.published()), and
each runs a fixed number of queries whatever the size of the ledger: the counts
in one query (of the counts the ledger keeps, PredictionCount, unless the page is
narrowed to one speaker or podcast), each list in one query of a bounded number of
rows (the resolved ones, one per outcome).
"""

import datetime

import django_filters
from django import forms
from django.db.models import Case, Count, Q, QuerySet, Sum, When
from django.shortcuts import render
from django.utils import timezone

from claims.choices import ClaimType, Due, Resolution
from claims.models import Claim
from claims.prediction_counts import PredictionCount
from claims.predictions import due_q, open_due_q
from claims.speaker_index import NameQuery
from episodes import podcast_choices
from episodes.models import Podcast, Speaker

# How many predictions /predictions/ lists as overdue and as due soon, and of each
# outcome; the rest are a link away. Every card costs about half a millisecond to
# render: 20 of each of four outcomes made the page 120 cards and 64 ms of rendering.
SECTION_SIZE = 20
PER_OUTCOME = 5
# How many resolved predictions a speaker's track record lists.
TRACK_RECORD_SIZE = 10
# How many speakers a speaker filter that found no one suggests instead.
SUGGESTIONS = 5
OUTCOMES = [choice for choice in Resolution if choice != Resolution.OPEN]


def public_predictions() -> QuerySet[Claim]:
    return Claim.objects.published().filter(type=ClaimType.PREDICTION)


def predicting_speakers() -> QuerySet[Speaker]:
    """Speakers with a public prediction, by the claim mix each keeps (claims.counters):
    looking for a public prediction of each of 25k speakers took 300 ms at a million
    claims."""
    return Speaker.objects.filter(public_claim_mix__has_key=ClaimType.PREDICTION)


class SpeakerByNameField(forms.CharField):
    """A speaker with a public prediction, by name (in any case) or by slug, as a link
    to ?speaker= gives it. A text box, not a list: some 7,000 people have predictions
    at a million claims, and a <select> of them all was most of the page."""

    def clean(self, value) -> Speaker | None:
        text = NameQuery.parse(super().clean(value) or "").text
        if not text:
            return None
        found = list(
            predicting_speakers()
            .filter(Q(slug=text) | Q(name__iexact=text))
            .order_by(Case(When(slug=text, then=0), default=1), "pk")[:2]
        )
        if len(found) == 1 or (found and found[0].slug == text):
            return found[0]
        if found:
            raise forms.ValidationError(
                f"More than one speaker is called “{text}”: choose one below.", code="ambiguous"
            )
        raise forms.ValidationError(
            f"No one called “{text}” has a public prediction.", code="unknown"
        )


class SpeakerFilter(django_filters.Filter):
    field_class = SpeakerByNameField


class PredictionFilter(django_filters.FilterSet):
    """/predictions/'s filters: speakers and podcasts among public predictions only."""

    speaker = SpeakerFilter(label="Speaker")
    podcast = django_filters.ModelChoiceFilter(
        field_name="episode__podcast",
        # By the count each keeps: looking for a public prediction of each podcast read
        # every prediction of those that have none (330 ms at ten million claims).
        queryset=Podcast.objects.filter(public_prediction_count__gt=0).order_by("name"),
        to_field_name="slug",
        label="Podcast",
        empty_label="Any podcast",
    )
    outcome = django_filters.ChoiceFilter(
        field_name="resolution", choices=Resolution.choices, label="Outcome", empty_label="Any"
    )


def valid_filters(data) -> tuple[PredictionFilter, dict]:
    """A bound PredictionFilter, and {name: [message]} for each value it had to drop: a
    speaker nobody with a prediction is called must not drop the podcast too.

    A dropped value is cleaned as if it had not been given, and the values kept are not
    cleaned again: binding the filters a second time looked the podcast up twice."""
    filters = PredictionFilter(data, queryset=public_predictions())
    errors = dict(filters.errors)
    for name in errors:
        filters.form.cleaned_data[name] = filters.form.fields[name].clean(None)
    return filters, errors


def speaker_suggestions(raw: str) -> list[Speaker]:
    """Up to SUGGESTIONS speakers with a public prediction whose names hold every word
    of what a reader typed into the speaker filter, by name."""
    words = NameQuery.parse(raw).words
    if not words:
        return []
    speakers = predicting_speakers().named_like(words, every=True)
    return list(speakers.order_by("name", "pk")[:SUGGESTIONS])


def outcome_counts(predictions: QuerySet[Claim], today: datetime.date) -> dict[str, int]:
    """{outcome or Due value: how many} of these predictions, in one query."""
    counts = {due.value: Count("pk", filter=due_q(due, today)) for due in Due}
    counts.update(
        {outcome.value: Count("pk", filter=Q(resolution=outcome)) for outcome in OUTCOMES}
    )
    return predictions.aggregate(**counts)


def kept_outcome_counts(today: datetime.date, outcome: str | None = None) -> dict[str, int]:
    """outcome_counts() of every public prediction (of one outcome, if given), added up
    from the counts the ledger keeps (PredictionCount) in one query: a few thousand
    rows, where counting the predictions read every one of them."""
    counts = {due.value: Sum("count", filter=open_due_q(due, today), default=0) for due in Due}
    counts.update(
        {choice.value: Sum("count", filter=Q(resolution=choice), default=0) for choice in OUTCOMES}
    )
    kept = PredictionCount.objects.all()
    if outcome:
        kept = kept.filter(resolution=outcome)
    return kept.aggregate(**counts)


def resolved_by_outcome(
    predictions: QuerySet[Claim], per_outcome: int, counts: dict[str, int]
) -> list[tuple]:
    """[(outcome, how many, its most recently resolved `per_outcome`)] for each outcome
    any prediction has: one query per such outcome, each reading `per_outcome` rows
    down the claim_published_resolved index. (Ranking them all in one windowed query
    read every resolved prediction: 430 ms at a million claims.)"""
    latest = predictions.for_cards().order_by("-resolved_on", "-pk")
    return [
        (outcome, counts[outcome], list(latest.filter(resolution=outcome)[:per_outcome]))
        for outcome in OUTCOMES
        if counts[outcome]
    ]


def prediction_list(request):
    """Open predictions overdue and due soon, then the resolved ones by outcome."""
    today = timezone.localdate()
    filters, ignored = valid_filters(request.GET)
    chosen = filters.form.cleaned_data
    predictions = filters.qs
    if chosen["speaker"] or chosen["podcast"]:
        # Bounded by one speaker's or one podcast's predictions.
        counts = outcome_counts(predictions, today)
    else:
        counts = kept_outcome_counts(today, chosen["outcome"])
    upcoming = predictions.for_cards().order_by("horizon", "episode__air_date", "pk")
    context = {
        "filters": filters,
        "ignored": ignored,
        "podcasts": podcast_choices.offered(
            "public_prediction_count", getattr(chosen["podcast"], "slug", "")
        ),
        "outcomes": Resolution.choices,
        "today": today,
        "counts": counts,
        "overdue": list(upcoming.filter(due_q(Due.OVERDUE, today))[:SECTION_SIZE]),
        "due_soon": list(upcoming.filter(due_q(Due.SOON, today))[:SECTION_SIZE]),
        "resolved": resolved_by_outcome(predictions, PER_OUTCOME, counts),
        "outcome_counts": [(outcome, counts[outcome]) for outcome in OUTCOMES],
        "per_outcome": PER_OUTCOME,
        "speaker_suggestions": speaker_suggestions(request.GET["speaker"])
        if "speaker" in ignored
        else [],
    }
    return render(request, "claims/prediction_list.html", context)


def track_record(speaker: Speaker) -> dict:
    """A speaker's predictions counted by outcome, as they keep them (claims.counters),
    and the latest resolved ones: one query."""
    counts = speaker.public_prediction_outcomes
    resolved = (
        public_predictions()
        .filter(speaker=speaker)
        .exclude(resolution=Resolution.OPEN)
        .for_cards()
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
