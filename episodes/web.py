"""Web addresses stored in records: only http and https ever reach a link.

A `javascript:` or `data:` address in a record would become a live link on every
page that shows it. The admin's forms refuse them (the validator), the database
refuses them however they are written (the constraint), and templates drop any
that got in before the rule (the `web_url` filter).
"""

from urllib.parse import urlsplit

from django.core.validators import URLValidator
from django.db import models
from django.db.models import Q

WEB_SCHEMES = ("http", "https")

validate_web_url = URLValidator(schemes=WEB_SCHEMES)


class WebURLField(models.URLField):
    """A URLField that takes http(s) addresses only (its own validator, not a second one)."""

    default_validators = [validate_web_url]


def is_web_url(value: str) -> bool:
    try:
        parts = urlsplit(value.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in WEB_SCHEMES and bool(parts.netloc)


def web_url_or_blank(field: str) -> Q:
    """The condition for a constraint: `field` is blank or an http(s) address."""
    return (
        Q(**{field: ""})
        | Q(**{f"{field}__istartswith": "http://"})
        | Q(**{f"{field}__istartswith": "https://"})
    )
