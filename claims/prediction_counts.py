"""The public predictions counted by outcome and, open ones, by horizon: /predictions/'s
figures, kept beside the claims they count (claims.counters)."""

import datetime

from django.db import models
from django.db.models import Q

from claims.choices import Resolution


class PredictionCount(models.Model):
    """How many public predictions have an outcome and, open ones, a horizon.

    Kept by claims.counters in the transaction of every change that moves one, and
    rebuilt by `manage.py recount`, so that /predictions/ adds up a few thousand of
    these rather than reading every public prediction. Open predictions are counted
    by horizon, because whether they are overdue or due soon moves with today's date;
    resolved ones by outcome alone.
    """

    resolution = models.CharField(max_length=20, choices=Resolution.choices)
    # Open predictions only; None for those with no horizon, and for every outcome.
    horizon = models.DateField(null=True)
    count = models.PositiveIntegerField()

    class Meta:
        ordering = ("resolution", "horizon")
        constraints = [
            models.UniqueConstraint(
                fields=("resolution", "horizon"),
                condition=Q(horizon__isnull=False),
                name="prediction_count_per_horizon",
            ),
            models.UniqueConstraint(
                fields=("resolution",),
                condition=Q(horizon__isnull=True),
                name="prediction_count_per_outcome",
            ),
            models.CheckConstraint(
                condition=Q(resolution=Resolution.OPEN) | Q(horizon__isnull=True),
                name="prediction_count_horizon_only_if_open",
            ),
            models.CheckConstraint(
                condition=Q(resolution__in=Resolution.values),
                name="prediction_count_resolution_valid",
            ),
        ]

    def __str__(self):
        return f"{self.count} {self.resolution} {self.horizon or ''}".strip()


def count_key(resolution: str, horizon: datetime.date | None) -> tuple:
    """The PredictionCount a prediction with this outcome and horizon is counted in."""
    return (resolution, horizon if resolution == Resolution.OPEN else None)
