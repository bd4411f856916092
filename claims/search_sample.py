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

Words that many claims hold are read from the first window another way: the index
hands over every claim holding them, whatever its window, and PostgreSQL builds the
whole set before it keeps the window's share (301,314 claims for "open source" at ten
million, 46 ms; 249,879 for a speaker's name, 89 ms). Walking the window's ids newest
first and asking each claim reads about 1,001 / share claims instead (35 and 47 ms),
which at a million claims costs more than the index (28 against 18 ms for "open
source", which 3% of the claims hold). The index's work grows with share × ledger, the
walk's with 1 / share: the walk wins once share² × ledger passes WALK_BREAK_EVEN. The share is
counted among the newest PROBE claims, the ones the walk would read first, in the same
statement: PostgreSQL's estimates take words for unrelated, and cost its index too low.
"""

import math

from django.db import connections

from claims.models import Claim

# How many of the newest ids the first window holds, and the second, read only when the
# first held too few matches.
WINDOW = 100_000
WIDER_WINDOW = 1_000_000
# Measured at a million and ten million claims (module docstring); PROBE claims are
# about a millisecond's read. The probe and the branches it chooses between cost about
# 3 ms on every search for words together (at a million, words no claim holds: 17 ->
# 20 ms), so they are written only where words that a twentieth of the claims hold
# would be walked: past 1.6 million claims. Few words together are as common as that.
WALK_BREAK_EVEN = 4_000
PROBE = 1_000
MOST_COMMON_SHARE = 0.05


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
    return words_together(search.query)


def words_together(query) -> bool:
    """Whether a ParsedQuery asks for words together: a phrase, or several words that
    must all appear."""
    groups = query.groups
    return len(groups) > 1 or any(term.is_phrase for group in groups for term in group)


def windows_for(search):
    """(the ledger's newest id, `search`'s matches found by walking) if its newest matches
    are read from windows (applies()), else (None, None)."""
    if not applies(search):
        return None, None
    newest = newest_id()
    return newest, search.without(None, walked=True) if _probed(newest) else None


def newest_id() -> int:
    return Claim.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def newest_matches_sql(claims, columns, limit, newest_id, walked=None):
    """The SQL of the newest `limit` of `claims`, with `columns`, newest first, and its
    parameters. `walked`: the same claims found by asking each (ClaimSearch.without),
    which the first window reads instead if the words are common enough (module docstring).

    The claims' query is compiled once and read in each window, as a subquery
    PostgreSQL folds back into each (so each plans as if written out): compiling each
    through the ORM took about 1 ms of Python on every such search.
    """
    claims_sql, params = _compiled(claims, columns)
    branches = [(claims_sql, params, bounds) for bounds in _windows(newest_id)]
    dense, dense_params = "", ()
    if walked is not None:
        needed = _walks_from(newest_id)
        walked_sql, walked_params = _compiled(walked, columns)
        newest = f"SELECT 1 FROM ({walked_sql}) AS probe WHERE c_pk > {int(newest_id) - PROBE}"
        dense = f"WITH dense AS (SELECT COUNT(*) >= {needed} AS walks FROM ({newest}) AS found) "
        dense_params = walked_params  # the probe asks the newest claims as the walk does
        first = branches[0][2]
        branches[:1] = [
            (walked_sql, walked_params, f"{first} AND (SELECT walks FROM dense)"),
            (claims_sql, params, f"{first} AND NOT (SELECT walks FROM dense)"),
        ]
    newest_sql = " UNION ALL ".join(
        f"(SELECT * FROM ({sql}) AS claims WHERE {bounds} ORDER BY c_pk DESC LIMIT {int(limit)})"
        for sql, _, bounds in branches
    )
    all_params = [*dense_params, *(param for _, values, _ in branches for param in values)]
    return f"{dense}SELECT * FROM ({newest_sql}) AS newest LIMIT {int(limit)}", all_params


def _compiled(claims, columns):
    return claims.order_by().values(**columns).query.sql_with_params()


def _probed(newest_id) -> bool:
    """Whether words a twentieth of the claims hold would be walked (MOST_COMMON_SHARE)."""
    return _walks_from(newest_id) <= PROBE * MOST_COMMON_SHARE


def _walks_from(newest_id) -> int:
    """How many of the newest PROBE claims must match for the first window to be walked."""
    return math.ceil(PROBE * math.sqrt(WALK_BREAK_EVEN / max(int(newest_id), 1)))


def _windows(newest_id):
    """The conditions of the newest ids' windows, then of the rest, newest first: the
    matches are read from them in turn, since a LIMIT over UNION ALL reads a branch only while
    it lacks rows."""
    wide, wider = int(newest_id) - WINDOW, int(newest_id) - WIDER_WINDOW
    return [f"c_pk > {wide}", f"c_pk > {wider} AND c_pk <= {wide}", f"c_pk <= {wider}"]
