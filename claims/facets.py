"""The claims browser's counts: how many claims match, and how many each choice would show.

Counting is the expensive part of a page at a million claims: the matches of a
phrase lie scattered over the whole table. So the counts are taken in as few
passes as possible, each over a bounded sample:

- every facet whose own filter is not in use counts the same claims as the page
  does, so one query counts the matches (up to the cap) and all those facets;
- a facet whose filter is in use (say ?type=prediction) counts the claims every
  other filter allows, one more query each.

The counting pass reads at most cap + 1 matches, the newest first, and every pass
counts facets among the `sample` newest: below that every match is counted and the
figures are exact; above it the page says they are a sample. A pass with nothing to
count (a facet in use, or claims whose count is kept: the whole ledger's, a topic's
or a speaker's, of some types or all: claims.counters) reads only its sample. Without
search text the count is taken apart from the sample, in no order: an index then
answers it without reading the claims, and the sample reads only its own rows, in the
order an index hands them over.

Newest means most recently added (the highest ids), which SQLite's full-text index and
the claims table hand over in that order (PostgreSQL's full-text index does not:
claims.search_sample); but with a range of air dates or a podcast and
no search text, most recently aired, so that the walk stays inside the range or the
show's episodes: walked by id, the claims aired in 2020 lay behind half a million
others (PostgreSQL, 373 ms). On PostgreSQL a search too, with a range of dates or for
one word (ClaimSearch.samples_by_air_date): its first claims are then those of the first
pages shown newest first, and come back with the counts, as do the matches' first by
relevance when it asks to be ranked (Tally.first_ids).
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Case, CharField, F, Value, When
from django.db.models.expressions import RawSQL
from django.utils import timezone

from claims import facet_sql, search, search_sample
from claims.choices import Due, Resolution
from claims.filters import Ordering
from claims.models import Attribution, Claim, ClaimType, Topic
from claims.pagination import Exactly, capped
from claims.predictions import due_q
from episodes.models import Episode, Podcast, Speaker


@dataclass(frozen=True)
class Facet:
    """What a facet groups claims by: a column (or an expression: a function of the day
    that makes one), or a record whose slug and name label it. Claims it gives no value
    are not counted."""

    column: str | Callable | None
    labelled_by: type | None = None
    # (column, value) a claim must have to be counted
    condition: tuple | None = None
    # A many-to-many relation instead of a column: (its through model, the field that
    # names the record). Joined to the sample, not to the matches, so that a claim
    # with two topics is still one match and one of each other facet's counts.
    through: tuple | None = None

    def __post_init__(self):
        # The links are counted as they are: a condition would go unapplied.
        if self.through and self.condition:
            raise ValueError("a facet counted through links takes no condition")

    def expression(self, connection):
        if not callable(self.column):
            return F(self.column)
        sql, params = _compiled(self.column, connection.alias, timezone.localdate())
        return RawSQL(sql, params, output_field=CharField())


@functools.lru_cache(maxsize=16)
def _compiled(make_expression, using, today):
    """The SQL and parameters of `make_expression(today)`, compiled once a day for each
    database: Django took 1.4 ms to compile the two facets' CASEs, on every page of the
    claims browser. Written for the claims table under its own name, as the facets'
    passes select from it."""
    query = Claim.objects.all().query
    return query.get_compiler(using).compile(make_expression(today).resolve_expression(query))


def due_from(today):
    """Where an open prediction's horizon falls from `today`; NULL for any other claim."""
    return Case(*(When(due_q(due, today), then=Value(due.value)) for due in Due), default=None)


PREDICTIONS_ONLY = ("type", ClaimType.PREDICTION)


def in_a_contradiction(today):
    """?contradictions='s one choice, "only", for a claim in a contradiction (as it keeps
    it: links.KeptContradiction); NULL for any other claim, whatever the day."""
    return Case(When(in_contradiction=True, then=Value("only")), default=None)


# Records are grouped by id and named after counting: joining every match to its
# speaker and podcast first cost more than the counting itself.
FACETS = {
    "type": Facet("type"),
    "speaker": Facet("speaker_id", Speaker, condition=("attribution", Attribution.IDENTIFIED)),
    # By the podcast each claim keeps of its episode: looked up by way of the episode, a
    # rare word's 700 claims read 530 episodes (PostgreSQL, 2.5 ms).
    "podcast": Facet("podcast_id", Podcast),
    "attribution": Facet("attribution"),
    "resolution": Facet("resolution", condition=PREDICTIONS_ONLY),
    "due": Facet(due_from, condition=PREDICTIONS_ONLY),
    "contradictions": Facet(in_a_contradiction),
    "topic": Facet(None, Topic, through=(Claim.topics.through, "topic")),
}


# The first five pages of twenty: deeper pages read the matches again.
FIRST_IDS = 100
# The columns of a pass that hold the fields of Ordering.RANKED_BY.
RANKED_COLUMNS = {
    "in_excerpt": "c_in_excerpt",
    "rank": "c_rank",
    "air_date": "c_aired",
    "episode_id": "c_episode",
    "number": "c_number",
}
RANKED = ", ".join(
    f"{RANKED_COLUMNS[field.lstrip('-')]}{' DESC' if field.startswith('-') else ''}"
    for field in Ordering.RANKED_BY
)


@dataclass
class Tally:
    count: int = Exactly(0)
    # facet name -> [(*values, count)], largest first
    facets: dict = field(default_factory=dict)
    # True when some facet counted a sample rather than every match
    sampled: bool = False
    # The smallest id in the sample of the claims shown, when more match than it holds,
    # else None: the ids from it up are the `sample` newest (claims.newest_page).
    oldest_sampled: int | None = None
    # Where a search's sample is taken by air date (ClaimSearch.samples_by_air_date), the
    # ids of the first FIRST_IDS claims newest first, of the sample, and, if it asks to be
    # ranked, by relevance, of every match: {Ordering: ids}.
    first_ids: dict = field(default_factory=dict)

    def first(self, ordering: str, shown: int) -> list[int] | None:
        """The first `shown` ids in `ordering`, if first_ids holds them, else None."""
        ids = self.first_ids.get(ordering)
        if ids is None or (ordering == Ordering.RELEVANCE and self.count.capped):
            return None  # ranked among the matches the count read, not every match
        # Fewer than FIRST_IDS ids are every match, unless the sample was short of them.
        every_match = len(ids) < FIRST_IDS and not (ordering == Ordering.NEWEST and self.sampled)
        return ids[:shown] if shown <= len(ids) or every_match else None

    def for_template(self, chosen_types, chosen_records, size):
        """Types as (type, count, chosen) in the order types are defined, with every
        chosen type; the other facets as (value, label, count), largest first: of the
        speakers, podcasts and topics (`chosen_records`: {facet: slug or None}), the
        `size` largest and the chosen one."""
        by_type = {row[0]: row[-1] for row in self.facets["type"]}
        return {
            "sampled": self.sampled,
            "type": [
                (choice, by_type.get(choice, 0), choice in chosen_types)
                for choice in ClaimType.values
                if by_type.get(choice) or choice in chosen_types
            ],
            **{
                name: _largest(self.facets[name], size, chosen)
                for name, chosen in chosen_records.items()
            },
            "attribution": [(value, value, count) for value, count in self.facets["attribution"]],
            "resolution": [
                (value, Resolution(value).label, count)
                for value, count in self.facets["resolution"]
            ],
            "due": [(value, Due(value).label, count) for value, count in self.facets["due"]],
            "contradictions": sum(count for _, count in self.facets["contradictions"]),
        }


def _largest(rows, size, chosen):
    """The first `size` of `rows` (value, label, count), largest first, and the chosen
    value's row wherever it falls: a reader must always see what they chose."""
    shown = rows[:size]
    shown += [row for row in rows[size:] if row[0] == chosen]
    return shown


def tally(search, cap, sample, known_count=None, largest=None):
    """Count the claims a ClaimSearch shows (an Exactly, or AtLeast(cap)) and every facet.

    `search.without(name)` gives the claims every filter but `name` allows;
    `known_count`, if given, is how many claims it shows, so none are counted;
    `search.samples_by_air_date` says which claims are the newest (module docstring);
    `largest`: how many rows of each facet of records not in use come back, the largest
    (a rare word's sample named 280 speakers, of whom a page shows 12)."""
    if sample > cap:
        # The count's pass reads cap + 1 matches: its sample would call itself whole.
        raise ValueError(f"A sample of {sample} is more than a count to {cap} reads.")
    chosen = search.chosen
    in_use = [name for name in FACETS if chosen.get(name)]
    result = Tally()
    newest = _newest_for(search)
    names = [name for name in FACETS if name not in in_use]
    newest_id, walked = search_sample.windows_for(search)
    firsts = ()
    if chosen.get("q") and search.samples_by_air_date:
        firsts = (
            (Ordering.NEWEST, Ordering.RELEVANCE) if search.ranking_asked else (Ordering.NEWEST,)
        )
    if known_count is None:
        # Without search text the count is taken apart from the sample (_pass).
        sample_claims = None
        if not chosen.get("q"):
            sample_claims = newest(search.without(None, shown=sample))[0]
        claims = newest(search.without(None))
        count, result.facets, oldest_sampled, result.first_ids = _pass(
            claims, names, cap + 1, sample, sample_claims, newest_id, largest, walked, firsts
        )
        found = count
    else:
        newest_claims = newest(search.without(None, shown=sample + 1))
        found, result.facets, oldest_sampled, _ = _pass(
            newest_claims, names, sample + 1, sample, largest=largest
        )
        count = known_count
    result.count = capped(count, cap)
    # A facet counted a sample when its pass found more matches than the sample holds.
    result.sampled = found > sample
    if result.sampled:
        result.oldest_sampled = oldest_sampled
    for name in in_use:
        claims = newest(_countable(search, name, sample + 1))
        matches, counted, *_ = _pass(claims, [name], sample + 1, sample, newest_id=newest_id)
        result.facets.update(counted)
        result.sampled |= matches > sample
    return result


def _newest_for(search):
    """How `search`'s claims are taken newest first (module docstring)."""
    if not search.samples_by_air_date:
        return _newest_added
    return _newest_aired_kept if search.reads_kept_dates else _newest_aired


def _countable(search, name, shown):
    """The claims every filter of `search` but `name` allows that its facet can count:
    only those, so that its sample is all countable claims."""
    claims = search.without(name, shown=shown)
    if FACETS[name].condition:
        column, value = FACETS[name].condition
        claims = claims.filter(**{column: value})
    return claims


def _newest_added(claims):
    return search.newest_added_first(claims), {}, "c_pk DESC"


def _newest_aired(claims):
    # The episodes' own date and status let a planner walk the range of the episodes'
    # index, newest first, and stop at the limit.
    claims = claims.filter(Episode.public_q(prefix="episode__")).newest_first()
    columns = {
        "c_aired": F("episode__air_date"),
        "c_episode": F("episode_id"),
        "c_number": F("number"),
    }
    return claims, columns, "c_aired DESC, c_episode, c_number"


def _newest_aired_kept(claims):
    # By the date each claim keeps of its episode (ClaimSearch.reads_kept_dates): an
    # index of the claims by date, or by type and date, then counts them and hands over
    # the newest without reading an episode (a year of predictions at a million claims,
    # PostgreSQL: 12 -> 2 ms to count).
    columns = {"c_aired": F("air_date"), "c_episode": F("episode_id"), "c_number": F("number")}
    return claims.newest_first_kept(), columns, "c_aired DESC, c_episode, c_number"


def _pass(
    newest,
    names,
    limit,
    sample,
    sample_claims=None,
    newest_id=None,
    largest=None,
    walked=None,
    firsts=(),
):
    """(matches up to `limit`, {facet: rows}, the sample's smallest id, {ordering: the
    first FIRST_IDS ids} for each of `firsts` (Tally.first_ids)) for `newest`: claims,
    newest first, with the columns that order them and that order (_newest_for), in one
    query.
    `sample_claims`, if given, are the same claims in the same order, found the way that
    reads a few cheapest, for the sample; `newest_id`, if given, is the ledger's highest
    id: a PostgreSQL search's matches are then read from windows below it
    (claims.search_sample), the first perhaps from `walked`, the same claims asked one
    by one; `largest`, if given, how many rows of each facet of records come back.

    Built as plain SQL around the ORM's query: the facets share one sample
    (a CTE, read once), which the ORM can't express, and the SQLite search's
    FTS join can't be nested in an `IN (…)` either.
    """
    claims, order_columns, order = newest
    connection = connections[claims.db]
    empty = {name: [] for name in names}
    columns = _columns(connection, names, order_columns, firsts)
    try:
        matches_sql, sample_sql, params = _matches_and_sample_sql(
            claims, columns, order, limit, sample, sample_claims, newest_id, walked
        )
    except EmptyResultSet:  # .none(), e.g. a search of stop words only
        return 0, empty, None, {}
    orders = {Ordering.NEWEST: ("sample", order), Ordering.RELEVANCE: ("matches", RANKED)}
    facets = {name: FACETS[name] for name in names}
    firsts = {ordering: orders[ordering] for ordering in firsts}
    sql, facet_params = facet_sql.after_sample(connection, facets, largest, firsts, FIRST_IDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH matches AS ({matches_sql}), sample AS ({sample_sql}) {sql}",
            [*params, *facet_params],
        )
        rows = cursor.fetchall()
    facets, totals, placed = _read(rows, empty, {ordering: [] for ordering in firsts})
    first_ids = {ordering: [pk for _, pk in sorted(ids)] for ordering, ids in placed.items()}
    return totals["matches"], facets, totals["oldest_sampled"], first_ids


def _columns(connection, names, order_columns, firsts):
    """The matches' columns: what orders them, and what the facets `names` and the
    orders of `firsts` read."""
    columns = {"c_pk": F("pk"), "c_attribution": F("attribution"), **order_columns}
    if Ordering.RELEVANCE in firsts:  # annotated by search.search()
        columns.update(c_rank=F("rank"), c_in_excerpt=F("in_excerpt"))
    for name in names:
        if FACETS[name].through:
            continue
        columns[f"c_{name}"] = FACETS[name].expression(connection)
        if FACETS[name].condition:
            columns[f"c_{FACETS[name].condition[0]}"] = F(FACETS[name].condition[0])
    return columns


def _read(rows, facets, placed):
    """({facet: rows} largest first, {"matches"|"oldest_sampled": n}, {ordering: [(place,
    id)]}) from a pass's rows, into `facets`: {name: []} for each facet counted, and
    `placed`: {ordering: []} for each order whose first ids it read."""
    totals = {}
    for name, value, label, n in rows:
        if name in FACETS:
            facets[name].append((value, label, n) if FACETS[name].labelled_by else (value, n))
        elif name in placed:
            placed[name].append((int(value), n))
        else:
            totals[name] = n
    for counted in facets.values():
        counted.sort(key=lambda row: (-row[-1], *row[:-1]))
    return facets, totals, placed


def _matches_and_sample_sql(
    claims, columns, order, limit, sample, sample_claims=None, newest_id=None, walked=None
):
    """The matches' and the sample's SQL, and their parameters.

    The sample is the first of the matches, unless `sample_claims` are given: then the
    matches are only counted, in any order, and the sample is its own walk of the newest
    of `sample_claims`. At a million claims, the filtered browser's count took 12 ms from
    an index where reading its 10,001 claims in order took 25 ms (PostgreSQL). A search's
    matches come in no such order from PostgreSQL's full-text index: read twice, a phrase
    would cost twice. With `newest_id` they are read from windows of the newest ids
    instead (claims.search_sample), the first perhaps walked.
    """
    if sample_claims is not None:
        matches_sql, params = claims.order_by().values(one=Value(1))[:limit].query.sql_with_params()
        sample_sql, sample_params = sample_claims.values(**columns)[:sample].query.sql_with_params()
        return matches_sql, sample_sql, (*params, *sample_params)
    if newest_id is not None:
        matches_sql, params = search_sample.newest_matches_sql(
            claims, columns, limit, newest_id, walked
        )
    else:
        matches_sql, params = claims.values(**columns)[:limit].query.sql_with_params()
    return matches_sql, f"SELECT * FROM matches ORDER BY {order} LIMIT {int(sample)}", params
