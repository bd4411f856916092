from django import template

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
        "heading_level": heading_level,
        "show_episode": show_episode,
        "hide_speaker": hide_speaker,
        "attribution_row": attribution_row,
        "id_prefix": id_prefix,
    }
