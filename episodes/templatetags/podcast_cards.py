"""`{% podcast_card podcast %}`: one podcast of /podcasts/, written in Python.

A page lists fifty podcasts, and the template's dozen lookups and filters for each
made the page's time grow with the ledger's podcasts (docs/performance.md, "/podcasts/
written in Python"). Each value is escaped with html.escape, as Django's escape does;
the only markup is the tag's own.
"""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from episodes.models import Podcast

register = template.Library()

DESCRIPTION_WORDS = 40


@register.simple_tag
def podcast_card(podcast: Podcast) -> SafeString:
    """Its name linked to its page, the start of its description, and its public
    `episode_count` and `claim_count` (claims.public_record.podcasts_with_counts)."""
    description = ""
    if podcast.description:
        shortened = Truncator(podcast.description).words(DESCRIPTION_WORDS, truncate=" …")
        description = f"\n    <p>{escape(shortened)}</p>"
    episode_count, claim_count = podcast.episode_count, podcast.claim_count
    return mark_safe(
        '<li class="card">\n'
        f'    <h2><a href="{escape(podcast.get_absolute_url())}">{escape(podcast.name)}</a></h2>'
        f"{description}\n"
        f'    <p class="muted">{episode_count} episode{_plural(episode_count)} · '
        f"{claim_count} published claim{_plural(claim_count)}</p>\n"
        "  </li>"
    )


def _plural(count: int) -> str:
    return "" if count == 1 else "s"
