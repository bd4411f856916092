"""A PostgreSQL search's matches and sample, for the facets' pass (claims/facets.py).

The pass reads the newest matches (by id) up to the count's cap, and counts the facets
among the newest of those. PostgreSQL's full-text index hands a search's matches over
in no order, so asking for the newest read and sorted every match: a phrase at a
million claims, 28,000 matches from 26,000 heap blocks, 74 ms of a 98 ms page, and ten
times as many at ten million. Here they are read newest first from windows of the
newest ids, in each of which PostgreSQL intersects the index's matches with the range
of ids before it reads a row, and reading stops one past the count's cap. The cap is
the sample's size (claims.pagination.SEARCH_COUNT_CAP), so the matches read hold the
sample; the index is asked once when the first window holds them all, as it does for
a common phrase, and up to three times for a search with fewer matches
(docs/performance.md).

The windows' bounds are numbers in the SQL: given a subquery instead, a planner that
can't tell how wide the window is read every match.
"""

from django.db import connections

from claims.models import Claim

# How many of the newest ids the first window holds, and the second, read only when the
# first held too few matches.
WINDOW = 100_000
WIDER_WINDOW = 1_000_000


def applies(search) -> bool:
    """Whether `search` (a ClaimSearch) looks for words together, on PostgreSQL: a
    phrase, or several words that must all appear.

    For one word, or alternatives of words, the planner knows from its statistics how
    many claims hold them, and picks well: the newest of common words straight from
    the ids' index, a rare one's few matches from the full-text index. For words that
    must appear together it guesses, multiplying their frequencies as if they were
    unrelated: 1,618 claims for "open source", which 27,872 hold, and so it read and
    sorted them all.
    """
    if connections[Claim.objects.db].vendor != "postgresql" or not search.chosen.get("q"):
        return False
    if search.samples_by_air_date:
        # Its newest are the most recently aired, which windows of ids can't hold.
        return False
    groups = search.query.groups
    return len(groups) > 1 or any(term.is_phrase for group in groups for term in group)


def newest_id() -> int:
    return Claim.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def newest_matches_sql(claims, columns, limit, newest_id):
    """The SQL of the newest `limit` of `claims`, with `columns`, newest first, and its
    parameters.

    The claims' query is compiled once and read in each window, as a subquery
    PostgreSQL folds back into each (so each plans as if written out): compiling each
    through the ORM took about 1 ms of Python on every such search.
    """
    claims_sql, params = claims.order_by().values(**columns).query.sql_with_params()
    windows = _windows(newest_id)
    newest_sql = " UNION ALL ".join(
        f"(SELECT * FROM ({claims_sql}) AS claims WHERE {bounds} "
        f"ORDER BY c_pk DESC LIMIT {int(limit)})"
        for bounds in windows
    )
    return f"SELECT * FROM ({newest_sql}) AS newest LIMIT {int(limit)}", params * len(windows)


def _windows(newest_id):
    """The conditions of the newest ids' windows, then of the rest, newest first: the
    matches are read from them in turn, since a LIMIT over UNION ALL reads a branch only while
    it lacks rows."""
    wide, wider = int(newest_id) - WINDOW, int(newest_id) - WIDER_WINDOW
    return [f"c_pk > {wide}", f"c_pk > {wider} AND c_pk <= {wide}", f"c_pk <= {wider}"]
