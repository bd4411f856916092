"""The first pages of a common word's matches, newest first, on SQLite.

Past the count's cap a search is shown newest first (claims.browse), and SQLite's page
asked FTS5 for the id of every match before it walked the episodes newest first and
stopped at the page: 620,000 ids for "model" at a million claims, 100-120 ms of the
page. A ledger adds claims about in the order their episodes air, so the newest
matches are nearly always among the newest ids. The page is read from the matches
among the WINDOW newest ids, and kept only if no claim below the window could come
before its last: none that is public in an episode aired on that day or later. When
that check fails, the caller reads every match as before, and gets the same page.
"""

from django.db import connections

from claims.filters import Ordering
from claims.models import Claim
from claims.search_sample import newest_id

# How many of the newest claim ids are read for a page; a word common enough to pass
# the count's cap is in several hundred of them.
WINDOW = 5_000
# The deepest page read from the window: deeper ones read every match.
MOST_SHOWN = 500


def applies(search, shown: int) -> bool:
    """Whether `search` (a ClaimSearch) lists more matches than its count's cap, newest
    first by their episodes, on SQLite; and `shown` of them are read from the start."""
    return (
        connections[Claim.objects.db].vendor == "sqlite"
        and search.query.is_searchable
        and search.count.capped
        and search.ordering == Ordering.NEWEST
        and search.air_date_field == "episode__air_date"
        and shown <= MOST_SHOWN
    )


def first_ids(search, shown: int) -> list[int] | None:
    """The ids of the first `shown` matches of `search`, newest first, read from the
    window; None when they can't be proved to be those of every match."""
    below_window = newest_id() - WINDOW
    in_window = search.ordered(shown, newer_than=below_window)
    newest = list(in_window.values_list("pk", "episode__air_date")[:shown])
    if len(newest) < shown:
        return None
    last_aired = newest[-1][1]
    older_but_as_new = Claim.objects.published().filter(
        pk__lte=below_window, episode__air_date__gte=last_aired
    )
    if older_but_as_new.exists():
        return None
    return [pk for pk, _ in newest]
