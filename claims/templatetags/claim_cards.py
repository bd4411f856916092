from django import template
from django.utils.dates import MONTHS
from django.utils.safestring import mark_safe

register = template.Library()


@register.inclusion_tag("_claim_card.html")
def claim_card(
    claim,
    *,
    heading_level=3,
    show_episode=False,
    hide_speaker=False,
    attribution_row=False,
    id_prefix="result",
):
    """`{% claim_card claim show_episode=True heading_level=4 %}`: one claim's card.

    Pages list up to a hundred cards. An `{% include %}` in the loop renders each in
    the page's whole context, where every lookup searches a deep stack and every
    option left out is a failed lookup (an exception); here the card gets a fresh
    context holding only the claim and its options, each given.
    """
    return {
        "claim": claim,
        # Lists that mix episodes repeat claim numbers: there the id uses the primary
        # key, prefixed (id_prefix) so that a claim listed twice keeps ids unique.
        "card_id": f"{id_prefix}-{claim.pk}" if show_episode else claim.anchor,
        # As text: a number written by a template goes through number formatting.
        "heading_level": str(heading_level),
        "show_episode": show_episode,
        "hide_speaker": hide_speaker,
        "attribution_row": attribution_row,
    }


@register.filter(expects_localtime=True)
def time_element(day):
    """`<time datetime="2026-09-03">3 September 2026</time>`, the ledger's one date format.

    What `<time datetime="{{ day|date:'Y-m-d' }}">{{ day|date:"j F Y" }}</time>` writes,
    in a tenth of the time: the date filter parses its format on every call, and a
    page of cards shows a hundred dates. Every date given is set (NOT NULL, or
    required by a constraint where shown). Digits and a month's name need no escaping.
    """
    return mark_safe(
        f'<time datetime="{day.year:04d}-{day.month:02d}-{day.day:02d}">'
        f"{day.day} {MONTHS[day.month]} {day.year:04d}</time>"
    )


@register.filter
def iso_date(day):
    """2026-09-03: what `{{ day|date:'Y-m-d' }}` writes, without parsing a format on every
    call (see time_element). Digits and hyphens need no escaping."""
    return mark_safe(f"{day.year:04d}-{day.month:02d}-{day.day:02d}")
