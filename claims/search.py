"""Search the evidence with the database's own full-text engine.

A reader's query uses web-search syntax: words, "quoted phrases", OR between
alternatives and -word to exclude. `parse()` reads it once, the same way for
both databases, so the same text finds the same claims on PostgreSQL
(websearch_to_tsquery over a stored, stemmed tsvector) and on SQLite (an FTS5
MATCH expression over a Porter-stemmed index). Raw reader text never reaches
either engine: only words re-quoted by this module do.
"""

import re
from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank
from django.db import connections
from django.db.models import BooleanField, F, FloatField, IntegerField
from django.db.models.expressions import RawSQL
from django.db.models.sql.constants import INNER
from django.utils.html import escape
from django.utils.safestring import mark_safe

MAX_QUERY_LENGTH = 300
SEARCH_CONFIG = "english"
MARK_START, MARK_STOP = "\x02", "\x03"
FTS_TABLE = "claims_claim_fts"

# PostgreSQL's English stop words (the Snowball list): websearch_to_tsquery drops
# them, so the SQLite translation drops them too.
STOP_WORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves what which
    who whom this that these those am is are was were be been being have has had having do
    does did doing a an the and but if or because as until while of at by for with about
    against between into through during before after above below to from up down in out on
    off over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very s t can will
    just don should now""".split()
)

_TOKEN = re.compile(r'-?"[^"]*"?|\S+')
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Term:
    """A word, or a phrase whose words must appear in order."""

    words: tuple[str, ...]

    @property
    def is_phrase(self):
        return len(self.words) > 1

    def as_fts5(self):
        return '"' + " ".join(self.words) + '"'

    def as_websearch(self):
        return '"' + " ".join(self.words) + '"' if self.is_phrase else self.words[0]


@dataclass
class ParsedQuery:
    text: str = ""
    truncated: bool = False
    # Every group must match; within a group, any term (OR).
    groups: list[list[Term]] = field(default_factory=list)
    excluded: list[Term] = field(default_factory=list)
    dropped_stop_words: bool = False

    @property
    def is_searchable(self):
        return bool(self.groups)

    @property
    def words(self):
        return [word for group in self.groups for term in group for word in term.words]

    def as_websearch(self):
        parts = [" or ".join(term.as_websearch() for term in group) for group in self.groups]
        parts += ["-" + term.as_websearch() for term in self.excluded]
        return " ".join(parts)

    def as_fts5(self):
        expression = " AND ".join(
            "(" + " OR ".join(term.as_fts5() for term in group) + ")" for group in self.groups
        )
        for term in self.excluded:
            expression += " NOT " + term.as_fts5()
        return expression


def parse(raw):
    """Read a reader's query. Never raises: anything unreadable is simply not a term."""
    text = " ".join(raw.replace("\x00", " ").split())
    query = ParsedQuery(text=text[:MAX_QUERY_LENGTH], truncated=len(text) > MAX_QUERY_LENGTH)
    join_with_previous = False
    for token in _TOKEN.findall(query.text):
        if token.lower() == "or":
            join_with_previous = bool(query.groups)
            continue
        negated = token.startswith("-") and len(token) > 1
        body = token[1:] if negated else token
        quoted = body.startswith('"')
        words = tuple(word.lower() for word in _WORD.findall(body))
        if not quoted and len(words) == 1 and words[0] in STOP_WORDS:
            query.dropped_stop_words = True
            words = ()
        if not words:
            continue
        term = Term(words)
        if negated:
            query.excluded.append(term)
        elif join_with_previous:
            query.groups[-1].append(term)
        else:
            query.groups.append([term])
        join_with_previous = False
    return query


def search(claims, query, ranked=True):
    """Claims matching `query`, annotated with `rank` (higher is more relevant) if `ranked`."""
    if connections[claims.db].vendor == "postgresql":
        tsquery = _tsquery(query)
        matches = claims.filter(search_vector=tsquery)
        return matches.annotate(rank=SearchRank(F("search_vector"), tsquery)) if ranked else matches
    if not ranked:
        # Only a join with the FTS table can rank, and the join makes SQLite read and
        # sort every match before it can show them by air date. As a set of ids,
        # SQLite walks the episodes in the order asked and stops at the page; the
        # unary + keeps it from starting from the ids instead.
        return claims.filter(
            RawSQL(
                f"+claims_claim.id IN (SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s)",
                [query.as_fts5()],
                output_field=BooleanField(),
            )
        )
    return (
        _joined_to_index(claims)
        .filter(RawSQL(f"{FTS_TABLE} MATCH %s", [query.as_fts5()], output_field=BooleanField()))
        .annotate(
            # bm25 weights: the excerpt counts more than the speaker, summary and title.
            rank=RawSQL(f"-bm25({FTS_TABLE}, 10.0, 3.0)", [], output_field=FloatField()),
            match_id=RawSQL(f"{FTS_TABLE}.rowid", [], output_field=IntegerField()),
        )
    )


def newest_added_first(claims):
    """`claims` by id, the most recently added first.

    A SQLite search orders by its FTS5 rowid (the claim's id) instead: FTS5 hands
    over its matches in that order and stops at the LIMIT, where an order by
    claims_claim.id sorts every match first.
    """
    if "match_id" in claims.query.annotations:
        return claims.order_by("-match_id")
    return claims.order_by("-pk")


class _IndexJoin:
    """`INNER JOIN claims_claim_fts ON claims_claim_fts.rowid = claims_claim.id`.

    Ranking needs the FTS5 table joined, not asked in a subquery: bm25() scores a
    row only inside the FTS5 query that matched it, and a subquery per claim would
    count every term's matches again for each claim. Django joins only along
    relations, so this is an entry of the kind `Query.alias_map` holds (see
    django.db.models.sql.datastructures.Join), added once by _joined_to_index().
    """

    table_name = FTS_TABLE
    nullable = False
    filtered_relation = None

    def __init__(self, parent_alias, table_alias=None, join_type=INNER):
        self.parent_alias = parent_alias
        self.table_alias = table_alias
        self.join_type = join_type

    def as_sql(self, compiler, connection):
        quote = compiler.quote_name_unless_alias
        alias = "" if self.table_alias == self.table_name else f" {self.table_alias}"
        return (
            f"{self.join_type} {quote(self.table_name)}{alias} "
            f"ON ({quote(self.table_alias)}.rowid = {quote(self.parent_alias)}.id)",
            [],
        )

    def relabeled_clone(self, change_map):
        return _IndexJoin(
            change_map.get(self.parent_alias, self.parent_alias),
            change_map.get(self.table_alias, self.table_alias),
            self.join_type,
        )

    @property
    def identity(self):
        return _IndexJoin, self.parent_alias

    def __eq__(self, other):
        return isinstance(other, _IndexJoin) and self.identity == other.identity

    def __hash__(self):
        return hash(self.identity)

    def demote(self):
        return self  # always INNER

    promote = demote


def _joined_to_index(claims):
    claims = claims.all()
    claims.query.join(_IndexJoin(claims.query.get_initial_alias()))
    return claims


def highlight(claims, query):
    """Set `claim.highlighted` on these claims (one page): the escaped excerpt with
    the matched words in <mark>. One query, for the rows shown only."""
    claims = list(claims)
    if not claims or not query.is_searchable:
        return
    from claims.models import Claim

    ids = [claim.pk for claim in claims]
    connection = connections[Claim.objects.db]
    if connection.vendor == "postgresql":
        rows = (
            Claim.objects.filter(pk__in=ids)
            .annotate(
                marked=SearchHeadline(
                    "excerpt",
                    _tsquery(query),
                    config=SEARCH_CONFIG,
                    start_sel=MARK_START,
                    stop_sel=MARK_STOP,
                    highlight_all=True,
                )
            )
            .values_list("pk", "marked")
        )
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT rowid, highlight(claims_claim_fts, 0, char(2), char(3)) "
                "FROM claims_claim_fts WHERE claims_claim_fts MATCH %s "
                f"AND rowid IN ({', '.join(['%s'] * len(ids))})",
                [query.as_fts5(), *ids],
            )
            rows = cursor.fetchall()
    marked = dict(rows)
    for claim in claims:
        text = marked.get(claim.pk) or claim.excerpt
        if MARK_START in claim.excerpt or MARK_STOP in claim.excerpt:
            # Markers already in the words would be read as highlights.
            text = claim.excerpt.replace(MARK_START, "").replace(MARK_STOP, "")
        claim.highlighted = mark_safe(
            escape(text).replace(MARK_START, "<mark>").replace(MARK_STOP, "</mark>")
        )


def _tsquery(query):
    return SearchQuery(query.as_websearch(), search_type="websearch", config=SEARCH_CONFIG)
