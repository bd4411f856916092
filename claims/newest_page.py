"""The first pages of a common word's matches, newest first, on SQLite.

Past the count's cap a search is shown newest first (claims.browse), and SQLite's page
asked FTS5 for the id of every match before it walked the episodes newest first and
stopped at the page: 620,000 ids for "model" at a million claims, 100-120 ms of the
page. A ledger adds claims about in the order their episodes air, so the newest
matches are nearly always among the most recently added. The facets' sample already
holds those (claims/facets.py: the 1,000 matches with the highest ids), so the page is
read from the matches from the sample's smallest id up, which FTS5 reads alone, and
kept only if no claim below that id could come before the page's last: none that is
public, in an episode aired on that day or later. That check is asked in the same
statement, so the page costs the queries a ranked one does. When it fails, the caller
reads every match as before, and gets the same page.
"""

from django.db import connections
from django.db.models import F
from django.db.models.expressions import RawSQL

from claims.filters import Ordering
from claims.models import Claim

# The deepest page read from the sample's claims, which hold 1,000 matches: deeper
# ones read every match.
MOST_SHOWN = 500


def applies(search, shown: int) -> bool:
    """Whether `search` (a ClaimSearch) lists more matches than its count's cap, newest
    first by their episodes, on SQLite; and `shown` of them are read from the start."""
    return (
        connections[Claim.objects.db].vendor == "sqlite"
        and search.query.is_searchable
        and search.count.capped
        and search.oldest_sampled is not None
        and search.ordering == Ordering.NEWEST
        and search.air_date_field == "episode__air_date"
        and shown <= min(MOST_SHOWN, search.facet_sample)
    )


def first_ids(search, shown: int) -> list[int] | None:
    """The ids of the first `shown` matches of `search`, newest first, read from those
    of the facets' sample up; None when they can't be proved to be those of every match."""
    oldest = search.oldest_sampled
    page = search.ordered(shown, newer_than=oldest - 1).values(
        c_id=F("pk"), c_aired=F("episode__air_date"), c_episode=F("episode"), c_number=F("number")
    )[:shown]
    page_sql, page_params = page.query.sql_with_params()
    aired_as_late = Claim.objects.published().filter(
        pk__lt=oldest, episode__air_date__gte=RawSQL("(SELECT MIN(c_aired) FROM page)", [])
    )
    older_sql, older_params = aired_as_late.values("pk")[:1].query.sql_with_params()
    with connections[Claim.objects.db].cursor() as cursor:
        cursor.execute(
            f"WITH page AS ({page_sql}) "
            f"SELECT c_id, c_aired, c_episode, c_number, EXISTS ({older_sql}) FROM page",
            [*page_params, *older_params],
        )
        rows = cursor.fetchall()
    if len(rows) < shown or any(older for *_, older in rows):
        return None
    # In the page's order, which a CTE's rows need not keep: newest episode first (ISO
    # dates sort as text), each episode's claims in ledger order.
    rows.sort(key=lambda row: (row[2], row[3]))
    rows.sort(key=lambda row: row[1], reverse=True)
    return [row[0] for row in rows]
