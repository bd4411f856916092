"""The demo shows a prediction in every state, and leaves the reference episode's as they were said."""

import datetime

from claims.choices import ClaimType, Due, Resolution
from claims.models import Claim


def test_the_reference_episodes_predictions_stay_open_with_no_horizon_stated(demo):
    predictions = Claim.objects.filter(
        episode__slug="the-rl-fine-tuning-playbook", type=ClaimType.PREDICTION
    )

    assert [(c.resolution, c.horizon, c.resolution_sources) for c in predictions] == [
        (Resolution.OPEN, None, [])
    ] * 3


def test_the_example_show_has_a_prediction_in_every_state(demo):
    predictions = Claim.objects.published().filter(
        episode__slug="calling-it", type=ClaimType.PREDICTION
    )
    # Overdue from the day its horizon (June 2026) passed; open with a horizon until 2030.
    today = datetime.date(2026, 11, 30)

    states = {
        (c.resolution, c.resolution == Resolution.OPEN and c.due_on(today)) for c in predictions
    }

    assert states == {
        (Resolution.OPEN, Due.LATER),
        (Resolution.OPEN, Due.OVERDUE),
        (Resolution.CAME_TRUE, False),
        (Resolution.DID_NOT_COME_TRUE, False),
        (Resolution.CANNOT_BE_RESOLVED, False),
    }
    assert all(c.resolution_sources for c in predictions if c.is_resolved)
