from django import template

from episodes.web import is_web_url

register = template.Library()


@register.filter
def web_url(value):
    """The address if it is an http(s) one, else "" (templates link only when there is one)."""
    return value if value and is_web_url(value) else ""
