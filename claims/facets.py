"""The claims browser's counts: how many claims match, and how many each choice would show.

Counting is the expensive part of a page at a million claims: the matches of a
phrase lie scattered over the whole table. So the counts are taken in as few
passes as possible, each over a bounded sample:

- every facet whose own filter is not in use counts the same claims as the page
  does, so one query counts the matches (up to the cap) and all those facets;
- a facet whose filter is in use (say ?type=prediction) counts the claims every
  other filter allows, one more query each.

Each pass reads at most cap + 1 matches, the most recently added first, and
counts facets among the `sample` newest: below that every match is counted and
the figures are exact; above it the page says they are a sample.
"""

from dataclasses import dataclass, field

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import F

from claims import search
from claims.models import Attribution, ClaimType
from claims.pagination import AtLeast, Exactly
from episodes.models import Podcast, Speaker


@dataclass(frozen=True)
class Facet:
    """What a facet groups claims by: a column, or a record whose slug and name label it."""

    column: str
    labelled_by: type | None = None
    # (column, value) a claim must have to be counted
    condition: tuple | None = None


# Records are grouped by id and named after counting: joining every match to its
# speaker and podcast first cost more than the counting itself.
FACETS = {
    "type": Facet("type"),
    "speaker": Facet("speaker_id", Speaker, condition=("attribution", Attribution.IDENTIFIED)),
    "podcast": Facet("episode__podcast_id", Podcast),
    "attribution": Facet("attribution"),
}


@dataclass
class Tally:
    count: int = Exactly(0)
    # facet name -> [(*values, count)], largest first
    facets: dict = field(default_factory=dict)
    # True when some facet counted a sample rather than every match
    sampled: bool = False

    def for_template(self, chosen_types, speaker_facet_size):
        """Types as (type, count, chosen) in the order types are defined, with every
        chosen type; the other facets as (value, label, count), largest first."""
        by_type = {row[0]: row[-1] for row in self.facets["type"]}
        return {
            "sampled": self.sampled,
            "type": [
                (choice, by_type.get(choice, 0), choice in chosen_types)
                for choice in ClaimType.values
                if by_type.get(choice) or choice in chosen_types
            ],
            "speaker": self.facets["speaker"][:speaker_facet_size],
            "podcast": self.facets["podcast"],
            "attribution": [(value, value, count) for value, count in self.facets["attribution"]],
        }


def tally(search, cap, sample):
    """Count the claims a ClaimSearch shows (an Exactly, or AtLeast(cap)) and every facet.

    `search.without(name)` gives the claims every filter but `name` allows.
    """
    chosen = search.chosen
    in_use = [name for name in FACETS if chosen.get(name)]
    result = Tally()
    count, result.facets = _pass(
        search.without(None), [name for name in FACETS if name not in in_use], cap, sample
    )
    result.count = AtLeast(cap) if count > cap else Exactly(count)
    # A facet counted a sample when its pass found more matches than the sample holds.
    result.sampled = count > sample
    for name in in_use:
        claims = search.without(name)
        if FACETS[name].condition:
            # Only claims it can count, so that its sample is all countable claims.
            column, value = FACETS[name].condition
            claims = claims.filter(**{column: value})
        matches, counted = _pass(claims, [name], cap, sample)
        result.facets.update(counted)
        result.sampled |= matches > sample
    return result


def _pass(claims, names, cap, sample):
    """(matches up to cap + 1, {facet: rows}) for `claims`, in one query.

    Built as plain SQL around the ORM's query: the facets share one sample
    (a CTE, read once), which the ORM can't express, and the SQLite search's
    FTS join can't be nested in an `IN (…)` either.
    """
    connection = connections[claims.db]
    empty = {name: [] for name in names}
    columns = {"c_pk": F("pk"), "c_attribution": F("attribution")}
    columns.update({f"c_{name}": F(FACETS[name].column) for name in names})
    matches = search.newest_added_first(claims).values(**columns)[: cap + 1]
    try:
        matches_sql, params = matches.query.sql_with_params()
    except EmptyResultSet:  # .none(), e.g. a search of stop words only
        return 0, empty
    params = list(params)
    parts = [_facet_select(name, connection, params) for name in names]
    parts.append("SELECT 'matches', NULL, NULL, COUNT(*) FROM matches")
    sql = (
        f"WITH matches AS ({matches_sql}), "
        f"sample AS (SELECT * FROM matches ORDER BY c_pk DESC LIMIT {int(sample)}) "
        + " UNION ALL ".join(parts)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return _counted(cursor.fetchall(), empty)


def _facet_select(name, connection, params):
    """One facet's (name, value, label, count) rows as SQL over the sample; adds its params."""
    facet, where = FACETS[name], ""
    if facet.condition:
        column, value = facet.condition
        where = f" WHERE c_{column} = %s"
        params.append(value)
    grouped = f"SELECT c_{name} AS value, COUNT(*) AS n FROM sample{where} GROUP BY c_{name}"
    if not facet.labelled_by:
        return f"SELECT '{name}', value, NULL, n FROM ({grouped}) AS grouped"
    table = connection.ops.quote_name(facet.labelled_by._meta.db_table)
    return (
        f"SELECT '{name}', record.slug, record.name, grouped.n FROM ({grouped}) AS grouped "
        f"JOIN {table} AS record ON record.id = grouped.value"
    )


def _counted(rows, facets):
    """(matches, {facet: rows, most first}) from the one query's rows."""
    count = 0
    for name, value, label, n in rows:
        if name == "matches":
            count = n
        else:
            facets[name].append((value, label, n) if FACETS[name].labelled_by else (value, n))
    for facet_rows in facets.values():
        facet_rows.sort(key=lambda row: (-row[-1], *row[:-1]))
    return count, facets
