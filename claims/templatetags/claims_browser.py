from django import template
from django.template.defaulttags import querystring

register = template.Library()


@register.simple_tag(takes_context=True)
def facet_url(context, name: str, value: str | None = None) -> str:
    """The current query string with facet `name` set to `value` (or removed), from page one.

    `{% querystring %}` takes only literal parameter names; one facet partial serves many.
    """
    return querystring(context, **{name: value, "page": None})
