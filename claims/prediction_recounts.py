"""Public predictions counted again by outcome and horizon (PredictionCount), for
claims.counters: which counts a change moves, and their recount."""

from django.db.models import Case, Count, F, Q, When

from claims.choices import ClaimType, Resolution
from claims.models import Claim
from claims.prediction_counts import PredictionCount, count_key


def _key_q(keys) -> Q:
    """The rows of these PredictionCount keys, as a condition on predictions or counts."""
    outcomes = {resolution for resolution, _ in keys if resolution != Resolution.OPEN}
    horizons = {horizon for resolution, horizon in keys if resolution == Resolution.OPEN}
    condition = Q(resolution__in=outcomes) | Q(
        resolution=Resolution.OPEN, horizon__in=horizons - {None}
    )
    if None in horizons:
        condition |= Q(resolution=Resolution.OPEN, horizon__isnull=True)
    return condition


def recount_predictions(keys=None) -> None:
    """Count again the public predictions of these PredictionCount keys (count_key()),
    or of every key when None: one grouped query, and two writes."""
    if keys is not None:
        keys = set(keys)
        if not keys:
            return
    predictions = Claim.objects.published().filter(type=ClaimType.PREDICTION)
    counts = PredictionCount.objects.all()
    if keys is not None:
        predictions, counts = predictions.filter(_key_q(keys)), counts.filter(_key_q(keys))
    horizon = Case(When(resolution=Resolution.OPEN, then=F("horizon")), default=None)
    rows = predictions.values_list("resolution", horizon).annotate(n=Count("*")).order_by()
    counts.delete()
    # Written since the delete by a recount in another transaction, a key keeps that
    # count: like every kept count, one a change behind heals with the next change.
    PredictionCount.objects.bulk_create(
        (
            PredictionCount(resolution=resolution, horizon=day, count=n)
            for resolution, day, n in rows
        ),
        ignore_conflicts=True,
    )


def prediction_keys(states) -> set[tuple]:
    """The PredictionCount keys of these claims' states (claims.history), public or not."""
    return {
        count_key(state["resolution"], state["horizon"])
        for state in states
        if state and state["type"] == ClaimType.PREDICTION
    }


def prediction_keys_of(claims) -> set[tuple]:
    """The PredictionCount keys of the predictions among these claims (a queryset), as
    they are now: one query."""
    predictions = claims.filter(type=ClaimType.PREDICTION)
    pairs = predictions.values_list("resolution", "horizon").distinct().order_by()
    return {count_key(resolution, horizon) for resolution, horizon in pairs}


def prediction_counts() -> dict[tuple, int]:
    """{count_key(): count} as kept."""
    rows = PredictionCount.objects.values_list("resolution", "horizon", "count")
    return {(resolution, horizon): n for resolution, horizon, n in rows}
