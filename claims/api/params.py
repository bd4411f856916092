"""The query parameters of the API's lists, validated strictly: a bad value is a 400.

The claims list takes the claims browser's own parameters (claims.filters.ClaimFilter),
described here for the OpenAPI document from the FilterSet itself, so a parameter
added to the browser appears in the API's documentation too.
"""

import django_filters
from django.http import QueryDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from claims.api.errors import InvalidParameters
from claims.api.pagination import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE
from claims.browse import ClaimSearch
from claims.filters import ClaimFilter, is_not

PARAMETER_HELP = {
    "q": 'Full-text search: words, "a phrase", OR between alternatives, -word to exclude.',
    "type": "One or more claim types (repeat the parameter).",
    "speaker": "A speaker's slug (identified speakers in the public record).",
    "podcast": "A podcast's slug.",
    "episode": "An episode's id.",
    "topic": "A topic's slug (topics with published claims).",
    "attribution": "identified or unresolved.",
    "aired_from": "Episodes aired on or after this date.",
    "aired_to": "Episodes aired on or before this date.",
    "order": "relevance (the default with a search), newest (otherwise) or oldest.",
}


def filter_parameter(name: str, spec: django_filters.Filter) -> OpenApiParameter:
    """An OpenAPI description of one ClaimFilter parameter."""
    many = isinstance(spec, django_filters.MultipleChoiceFilter)
    choices = spec.extra.get("choices")
    kind = OpenApiTypes.STR
    if isinstance(spec, django_filters.DateFilter):
        kind = OpenApiTypes.DATE
    elif isinstance(spec, django_filters.ModelChoiceFilter) and not spec.extra.get("to_field_name"):
        kind = OpenApiTypes.INT
    return OpenApiParameter(
        name,
        kind,
        many=many,
        explode=True if many else None,
        enum=[value for value, _label in choices] if choices else None,
        description=PARAMETER_HELP.get(name, spec.label or ""),
    )


CLAIM_FILTER_PARAMETERS = [
    filter_parameter(name, spec) for name, spec in ClaimFilter.base_filters.items()
]


class ClaimPageParams(serializers.Serializer):
    """The claims list's own parameters, beside the browser's."""

    cursor = serializers.CharField(
        required=False, help_text="Where the page starts: the `next` link of the previous page."
    )
    page_size = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_PAGE_SIZE, default=DEFAULT_PAGE_SIZE
    )
    highlight = serializers.BooleanField(
        required=False,
        default=False,
        help_text="With a search, add each excerpt with the matched words in <mark>.",
    )


class EpisodeParams(serializers.Serializer):
    q = serializers.CharField(
        required=False, max_length=300, help_text="Words that must all appear in the title."
    )
    podcast = serializers.SlugField(required=False, help_text="A podcast's slug.")
    aired_from = serializers.DateField(required=False)
    aired_to = serializers.DateField(required=False)


class SpeakerParams(serializers.Serializer):
    q = serializers.CharField(
        required=False,
        max_length=200,
        help_text="Speakers whose name holds any of these words, as the claims browser finds them.",
    )


def claim_search(data: QueryDict) -> ClaimSearch:
    """The claims browser's search of `data`, or InvalidParameters for any value it would
    ignore, said as the browser says it: the API and downloads refuse what the page
    drops, so a typo never silently widens the data. (A search of only common words
    is no error: it finds nothing, as on the page.)"""
    found = ClaimSearch(data)
    if found.refused:
        raise InvalidParameters(
            {
                name: [f"{is_not(name, value)}." for value in values]
                for name, values in found.refused.items()
            }
        )
    return found


def validated(params_class, data) -> dict:
    """The parameters `params_class` reads from `data`, or InvalidParameters."""
    params = params_class(data=data)
    if not params.is_valid():
        raise InvalidParameters(
            {name: [str(m) for m in msgs] for name, msgs in params.errors.items()}
        )
    return params.validated_data


# What each API endpoint and download reads from the query string, for the page cache
# (ledger/caching.py), which drops any other parameter and caches the answer by these.
CLAIM_READS = tuple(ClaimFilter.base_filters)
PAGE_READS = ("page", "page_size")
READ_PARAMETERS = {
    "api:index": (),
    "api:v1": (),
    "api:schema": (),
    "api:claim-list": (*CLAIM_READS, *ClaimPageParams().fields),
    "api:claim-detail": (),
    "api:claim-at-number": (),
    "api:episode-list": (*EpisodeParams().fields, *PAGE_READS),
    "api:episode-detail": (),
    "api:speaker-list": (*SpeakerParams().fields, *PAGE_READS),
    "api:speaker-detail": (),
    "api:podcast-list": (),
    "api:topic-list": PAGE_READS,
    "api:topic-detail": (),
    "api:reference-list": ("kind", "role", *PAGE_READS),
    "api:reference-detail": (),
    "api:stats": (),
    "api:not-found": (),
    "claims:download": (*CLAIM_READS, "bom"),
    "episodes:episode_download": (*CLAIM_READS, "bom"),
    "episodes:speaker_download": (*CLAIM_READS, "bom"),
    "episodes:podcast_download": (*CLAIM_READS, "bom"),
    "developers": (),
    "developers_reference": (),
}
