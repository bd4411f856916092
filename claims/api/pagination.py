"""Paging through the API's lists.

Claims page by cursor: an opaque token naming the last claim of the page, so a
claim published meanwhile shifts nothing (`newest`, `oldest`). Ranked results
(`relevance`) page by position among the matches, as ranks themselves move
when claims are added. Episodes and speakers page by number, like their pages.
"""

import base64
import binascii
import datetime
import json

from django.core.paginator import InvalidPage, Paginator
from django.db.models import Q, QuerySet
from django.urls import reverse
from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from claims.api.errors import InvalidParameters
from claims.browse import ClaimSearch
from claims.filters import Ordering

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


def encode_cursor(position: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


def decode_cursor(token: str, ordering: str) -> dict:
    """The position a cursor names, checked; InvalidParameters for anything else."""
    try:
        position = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        if position["o"] != ordering:
            raise InvalidParameters(
                {
                    "cursor": [
                        f"This cursor pages results shown by {position['o']}, not by "
                        f"{ordering}: start again without it."
                    ]
                }
            )
        if ordering == Ordering.RELEVANCE:
            return {"o": ordering, "p": _whole(position["p"])}
        air_date, episode_id, number = position["k"]
        return {
            "o": ordering,
            "k": [datetime.date.fromisoformat(air_date), _whole(episode_id), _whole(number)],
        }
    except (ValueError, TypeError, KeyError, binascii.Error, AttributeError):
        raise InvalidParameters(
            {"cursor": ["This cursor is not valid: use the `next` link of a previous page."]}
        ) from None


def _whole(value) -> int:
    if type(value) is not int or not 0 <= value < 2**31:
        raise ValueError(value)
    return value


def after(claims: QuerySet, position: dict, date: str) -> QuerySet:
    """The claims after `position` in the newest or oldest order (see ClaimFilter), whose
    air dates are in the field `date` (ClaimSearch.air_date_field)."""
    air_date, episode_id, number = position["k"]
    beyond = "lt" if position["o"] == Ordering.NEWEST else "gt"
    return claims.filter(
        Q(**{f"{date}__{beyond}": air_date})
        | Q(**{date: air_date, "episode_id__gt": episode_id})
        | Q(**{date: air_date, "episode_id": episode_id, "number__gt": number})
    )


# The API's own parameters, which the browser's page doesn't take.
API_ONLY = ("cursor", "page_size", "highlight")


def browser_url(request, found) -> str:
    """The claims browser's address for the same search."""
    params = found.params.copy()
    for name in API_ONLY:
        params.pop(name, None)
    query = params.urlencode()
    return request.build_absolute_uri(reverse("claims:claim_list") + (f"?{query}" if query else ""))


def facets(found) -> dict:
    """The claims browser's facets: how many claims each choice would show."""
    counted = found.facets
    labelled = {
        name: [{"value": value, "label": label, "count": n} for value, label, n in counted[name]]
        for name in ("speaker", "podcast", "attribution", "topic")
    }
    return {
        "sampled": counted["sampled"],
        "type": [{"value": str(t), "count": n, "chosen": c} for t, n, c in counted["type"]],
        **labelled,
        "contradictions": counted["contradictions"],
    }


def _facet_schema(*fields) -> dict:
    kinds = {"value": "string", "label": "string", "count": "integer", "chosen": "boolean"}
    return {
        "type": "array",
        "items": {
            "type": "object",
            "required": list(fields),
            "properties": {name: {"type": kinds[name]} for name in fields},
        },
    }


FACETS_SCHEMA = {
    "type": "object",
    "description": "As in the claims browser's sidebar: the claims each choice would show "
    f"(of speakers, podcasts and topics, the {ClaimSearch.facet_size} with the most claims "
    "and the chosen one). `sampled`: counted among the "
    f"{ClaimSearch.facet_sample} newest matches: the most recently added, or with "
    "`aired_from`, `aired_to` or `podcast` and no `q`, the most recently aired (with `q`, "
    "on PostgreSQL, with `aired_from` or `aired_to` and no `podcast`, too).",
    "required": [
        "sampled",
        "type",
        "speaker",
        "podcast",
        "attribution",
        "topic",
        "contradictions",
    ],
    "properties": {
        "sampled": {"type": "boolean"},
        "type": _facet_schema("value", "count", "chosen"),
        "speaker": _facet_schema("value", "label", "count"),
        "podcast": _facet_schema("value", "label", "count"),
        "attribution": _facet_schema("value", "label", "count"),
        "topic": _facet_schema("value", "label", "count"),
        "contradictions": {
            "type": "integer",
            "description": "The claims ?contradictions=only would show: those that contradict, "
            "or are contradicted by, another public claim.",
        },
    },
}


class ClaimCursorPagination(BasePagination):
    def paginate(self, found: ClaimSearch, page_size: int, cursor: str | None):
        """One page of the claims `found`, in their order, after `cursor`: one query."""
        claims, ordering = found.ordered(shown=page_size + 1), found.ordering
        position = decode_cursor(cursor, ordering) if cursor else None
        start = 0
        if position and ordering == Ordering.RELEVANCE:
            start = position["p"]
        elif position:
            claims = after(claims, position, found.air_date_field)
        rows = list(claims[start : start + page_size + 1])
        page, more = rows[:page_size], len(rows) > page_size
        self.next_position = None
        if more and ordering == Ordering.RELEVANCE:
            self.next_position = {"o": ordering, "p": start + page_size}
        elif more:
            last = page[-1]
            aired = last.air_date if found.air_date_field == "air_date" else last.episode.air_date
            key = [aired.isoformat(), last.episode_id, last.number]
            self.next_position = {"o": ordering, "k": key}
        return page

    def next_link(self, request) -> str | None:
        if self.next_position is None:
            return None
        url = request.build_absolute_uri()
        return replace_query_param(url, "cursor", encode_cursor(self.next_position))

    def get_paginated_response(self, data, request, found):
        return Response(
            {
                "url": browser_url(request, found),
                "count": int(found.count),
                "count_is_exact": not found.count.capped,
                "ordering": found.ordering,
                "facets": facets(found),
                "next": self.next_link(request),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["url", "count", "count_is_exact", "ordering", "facets", "next", "results"],
            "properties": {
                "url": {
                    "type": "string",
                    "format": "uri",
                    "description": "The claims browser's page of the same claims.",
                },
                "count": {
                    "type": "integer",
                    "description": "Matching claims, counted up to 10000 (1000 with search text).",
                },
                "count_is_exact": {
                    "type": "boolean",
                    "description": "False when more claims match than were counted.",
                },
                "ordering": {"type": "string", "enum": [v for v, _ in Ordering.CHOICES]},
                "facets": FACETS_SCHEMA,
                "next": {"type": "string", "format": "uri", "nullable": True},
                "results": schema,
            },
        }


class CountedPagePagination(PageNumberPagination):
    """Page-number paging that hands the view its page as a queryset slice, so the
    page's records can be counted in one query (claims.public_record)."""

    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        paginator = Paginator(queryset, self.get_page_size(request))
        try:
            self.page = paginator.page(request.query_params.get(self.page_query_param, 1))
        except InvalidPage as exc:
            raise NotFound(f"There is no such page: {exc}.") from None
        return self.page.object_list

    def get_paginated_response(self, data, url):
        """The page, with `url`: the address of the site's page of the same records."""
        response = super().get_paginated_response(data)
        response.data = {"url": url, **response.data}
        return response

    def get_paginated_response_schema(self, schema):
        paged = super().get_paginated_response_schema(schema)
        paged["required"] = ["url", *paged["required"]]
        paged["properties"] = {"url": {"type": "string", "format": "uri"}, **paged["properties"]}
        return paged
