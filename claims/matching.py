"""The claims a set of claims-browser parameters selects, in the order the browser shows them.

The API's claims list and the downloads ask here, so `?type=prediction&q=GRPO`
means the same thing on the page, in the API and in a CSV. It follows the claims
browser's own path (claims.filters.valid_filters, claims.facets, claims.search)
and names its answers as claims.browse.ClaimSearch will, so that the API and
downloads move to that one search object by swapping this class for it.
"""

from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.functional import cached_property

from claims import search
from claims.filters import ClaimFilter, valid_filters
from claims.models import Claim
from claims.pagination import CappedPaginator


class MatchingClaims:
    def __init__(self, data: QueryDict, claims: QuerySet | None = None):
        self.data = data
        self.claims = Claim.objects.published() if claims is None else claims

    @cached_property
    def errors(self) -> dict[str, list[str]]:
        """{parameter: [message]} for every invalid value: the browser's form messages.

        The page drops such a value and says so; the API and downloads refuse it.
        """
        filters = ClaimFilter(self.data, queryset=self.claims)
        return {name: list(messages) for name, messages in filters.errors.items()}

    @cached_property
    def _filters(self) -> ClaimFilter:
        filters, _problems = valid_filters(self.data, self.claims)
        return filters

    @property
    def params(self) -> QueryDict:
        """The parameters that were kept (all of them when `errors` is empty)."""
        return self._filters.data

    @property
    def chosen(self) -> dict:
        return self._filters.form.cleaned_data

    @property
    def query(self) -> search.ParsedQuery:
        return self._filters.query

    @cached_property
    def count(self):
        """Exactly(n), or AtLeast(cap) past the browser's cap: one capped COUNT query."""
        return CappedPaginator(self._filters.without(None), 1).count

    @cached_property
    def _ranked_filters(self) -> ClaimFilter:
        # As on the page: past the count's cap, matches are not worth ranking.
        self._filters.order_for(self.count)
        return self._filters

    @property
    def ordering(self) -> str:
        """ "relevance", "newest" or "oldest": what `ordered()` follows."""
        return self._ranked_filters.ordering

    def ordered(self) -> QuerySet:
        """Every match in `ordering`, with what a claim card shows."""
        return self._ranked_filters.qs.for_listing()
