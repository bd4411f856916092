"""`manage.py recount`: every count of claims.counters rebuilt from the claims, and
what was wrong reported."""

from collections import Counter

from django.db.models import F

from claims.counters import (
    EPISODE_COUNTS,
    PODCAST_COUNTS,
    REFERENCE_COUNTS,
    SPEAKER_COUNTS,
    TOPIC_COUNTS,
    count_episodes,
    recount_podcasts,
    recount_references,
    recount_speakers,
    recount_topics,
)
from claims.links import refresh_every_contradiction
from claims.listed_counts import ListedKind, count_listed, kept_listed_counts
from claims.models import Claim, ClaimLink, ClaimReference, Reference, Topic
from claims.prediction_recounts import prediction_counts, recount_predictions
from episodes.models import Appearance, Episode, Podcast, Speaker

NAMING_PLACES = ("air_date", "episode", "number")


def counts_of(model, ids, fields) -> dict:
    return {
        pk: counts
        for pk, *counts in model._base_manager.filter(pk__in=ids).values_list("pk", *fields)
    }


def place_namings(naming_ids) -> None:
    """Copy onto these namings their claims' places again (ClaimReference.place)."""
    ClaimReference.objects.filter(pk__in=naming_ids).place()


def recount_everything(batch=2000) -> Counter:
    """Rebuild every count from the claims (manage.py recount); returns what was fixed.

    Podcasts are summed from their episodes' counts once, after every episode is
    counted: not again for each chunk of episodes (a bulk load of a million claims
    recounts them all), and their own pass then sees, and reports, what was wrong.
    """
    fixed = Counter()
    # First what the counts read: claims keep their episode's air date and status, and
    # appearances its air date (one UPDATE each, of those that differ), and links what
    # they keep of their claims.
    fixed["claims' episode dates, podcasts and statuses"] += (
        Claim.objects.astray_from_episodes().follow_episodes()
    )
    fixed["appearances' air dates"] += Appearance.objects.exclude(
        air_date=F("episode__air_date")
    ).date_from_episodes()
    fixed["linked claims"] += ClaimLink.objects.all().refresh_kept()[0]
    fixed["claims in a contradiction"] += refresh_every_contradiction()
    listed_before = kept_listed_counts()
    for model, recount, fields in (
        (Episode, count_episodes, EPISODE_COUNTS),
        (Speaker, recount_speakers, SPEAKER_COUNTS),
        (Topic, recount_topics, TOPIC_COUNTS),
        (Reference, recount_references, REFERENCE_COUNTS),
        (Podcast, recount_podcasts, PODCAST_COUNTS),
        (ClaimReference, place_namings, NAMING_PLACES),
    ):
        ids = list(model._base_manager.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            before = counts_of(model, chunk, fields)
            recount(chunk)
            after = counts_of(model, chunk, fields)
            fixed[str(model._meta.verbose_name_plural)] += sum(
                before[pk] != after[pk] for pk in chunk
            )
    count_listed(*ListedKind.values)
    listed_after = kept_listed_counts()
    fixed["listed counts"] += sum(
        listed_before.get(kind) != listed_after.get(kind) for kind in ListedKind.values
    )
    before = prediction_counts()
    recount_predictions()
    after = prediction_counts()
    fixed["prediction counts"] += sum(
        before.get(key) != after.get(key) for key in before.keys() | after.keys()
    )
    return fixed
