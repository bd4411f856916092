from django import template

from claims.review_queue import review_queue as entries_for

register = template.Library()


@register.simple_tag(takes_context=True)
def review_queue(context):
    """`{% review_queue as queue %}`: [(entry, count)] for the admin home (claims/review_queue.py)."""
    return entries_for(context["request"])
