"""The warning an editor gets on saving a claim another claim of the episode already holds."""

from django.contrib import messages
from django.urls import reverse
from django.utils.html import format_html

from claims.duplicates import duplicates_of
from claims.models import Claim


def warn_of_duplicates(model_admin, request, saved) -> None:
    """A warning, not a refusal, for each saved claim whose excerpt another claim repeats.

    One query: the saved claims' episodes' claims, their numbers and excerpts.
    """
    saved = [claim for claim in saved if claim.pk]
    if not saved:
        return
    episode_claims = Claim.objects.filter(episode__in={claim.episode_id for claim in saved}).only(
        "pk", "episode_id", "number", "excerpt", "status"
    )
    for claim, other, identical in duplicates_of(saved, episode_claims):
        model_admin.message_user(
            request,
            format_html(
                'Claim {} may be captured twice: <a href="{}">claim {}</a> of this episode '
                "has {} excerpt. Keep both only if the words were said twice.",
                claim.label,
                reverse("admin:claims_claim_change", args=[other.pk]),
                other.label,
                "the same" if identical else "nearly the same",
            ),
            level=messages.WARNING,
        )
