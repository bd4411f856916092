"""The claims a set of claims-browser parameters selects, in the order the browser shows them.

The API's claims list and the downloads ask here, so `?type=prediction&q=GRPO`
means the same thing on the page, in the API and in a CSV. It follows the claims
browser's own path (claims.filters.ClaimFilter, its ranking decision, the capped
count) and names its answers as claims.browse.ClaimSearch will, so that the API
and downloads move to that one search object by swapping this class for it.

Unlike the page, which drops an invalid value and says so, callers here refuse
it: ask `errors` first.
"""

from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.functional import cached_property

from claims import search
from claims.filters import ClaimFilter
from claims.models import Claim
from claims.pagination import CappedPaginator

NUL_MESSAGE = "Null characters are not allowed."


class MatchingClaims:
    def __init__(self, data: QueryDict, claims: QuerySet | None = None):
        self.data = data
        self.claims = Claim.objects.published() if claims is None else claims

    @cached_property
    def _checked(self) -> tuple[ClaimFilter, dict[str, list[str]]]:
        # A NUL byte can't reach the database (the page replaces it with a space).
        with_nul = {name for name, values in self.data.lists() if any("\x00" in v for v in values)}
        data = self.data.copy()
        for name in with_nul:
            data.pop(name)
        filters = ClaimFilter(data, queryset=self.claims)
        errors = {name: [NUL_MESSAGE] for name in with_nul}
        if not filters.is_valid():
            errors.update({name: list(messages) for name, messages in filters.errors.items()})
        return filters, errors

    @property
    def errors(self) -> dict[str, list[str]]:
        """{parameter: [message]} for every invalid value: the browser's form messages."""
        return self._checked[1]

    @property
    def query(self) -> search.ParsedQuery:
        return self._checked[0].query

    @cached_property
    def count(self):
        """Exactly(n), or AtLeast(cap) past the browser's cap: one capped COUNT query."""
        return CappedPaginator(self._checked[0].without(None), 1).count

    @cached_property
    def _ranked_filters(self) -> ClaimFilter:
        # As on the page: past the count's cap, matches are not worth ranking. Without a
        # search nothing is ranked, and nothing needs counting to decide.
        filters = self._checked[0]
        if filters.query.is_searchable:
            filters.order_for(self.count)
        return filters

    @property
    def ordering(self) -> str:
        """ "relevance", "newest" or "oldest": what `ordered()` follows."""
        return self._ranked_filters.ordering

    def ordered(self) -> QuerySet:
        """Every match in `ordering`, with what a claim card shows."""
        return self._ranked_filters.qs.for_listing()
