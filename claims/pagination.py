"""Pagination that never counts a million rows.

Counting every match of a common word, or every claim in the admin, reads the
whole table. A reader only needs to know there are more than they will page
through, so CappedPaginator counts at most COUNT_CAP rows and then says so:
its count is an AtLeast, which shows as "10000+".
"""

from django.core.paginator import Paginator
from django.utils.functional import cached_property

# The claim cards on a page of one speaker's, topic's or reference's claims: a page of
# them costs about what an episode's page does.
CLAIMS_PER_PAGE = 25
# Deeper than anyone pages (500 pages of 20), shallow enough to count in milliseconds.
COUNT_CAP = 10_000
# Search text's matches are counted one by one from the full-text index and the table,
# where a filter's are counted from an index or kept: at a million claims, a phrase's
# 10,001 took most of its page (docs/performance.md). Fifty pages of 20, and as many as
# the facets' sample holds (claims.browse.ClaimSearch.facet_sample): the matches read
# for the count hold the sample, and a search's count is exact when the facets of the
# filters it doesn't use are.
SEARCH_COUNT_CAP = 1_000


class AtLeast(int):
    """A count that stopped at its cap: at least this many. Shows as "10000+"."""

    capped = True

    def __str__(self):
        return f"{int(self)}+"


class Exactly(int):
    """A count below the cap: exactly this many."""

    capped = False


def capped(count: int, cap: int) -> int:
    """A count known already, as CappedPaginator would have counted it up to `cap`."""
    return AtLeast(cap) if count > cap else Exactly(count)


class CappedPaginator(Paginator):
    """A Paginator whose count stops at `cap`: one `COUNT(*) … LIMIT cap + 1` query.

    `count` is an Exactly or, past the cap, an AtLeast(cap): pages run to the cap.
    """

    cap = COUNT_CAP

    def __init__(self, *args, cap=None, count=None, **kwargs):
        super().__init__(*args, **kwargs)
        if cap is not None:
            self.cap = cap
        if count is not None:
            self.__dict__["count"] = count

    @cached_property
    def count(self):
        # Only the primary keys, unordered: no ranking or joins the count doesn't need.
        found = self.object_list.order_by().values("pk")[: self.cap + 1].count()
        return capped(found, self.cap)


def page_of(request, queryset, per_page):
    """The requested page; a malformed or out-of-range ?page= gets the nearest real page."""
    return Paginator(queryset, per_page).get_page(request.GET.get("page"))


def parsed_page_number(raw: int | str | None) -> int | None:
    """`raw` as a page number (1 or more), or None."""
    try:
        number = int(raw)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None
