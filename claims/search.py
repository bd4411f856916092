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
from itertools import pairwise

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connections
from django.db.models import BooleanField, F, FloatField, IntegerField, Q
from django.db.models.expressions import RawSQL
from django.db.models.lookups import GreaterThan
from django.db.models.sql.constants import INNER
from django.utils.html import escape
from django.utils.safestring import mark_safe

from claims import neighbours
from claims.search_index import FTS_TABLE, SPACED_OUT, Within, highlights_sql
from claims.stop_words import STOP_WORDS, trimmed

MAX_QUERY_LENGTH = 300
SEARCH_CONFIG = "english"
MARK_START, MARK_STOP = "\x02", "\x03"
# bm25's weights by column: the excerpt counts more than the speaker, summary and title,
# the speaker's id and type nothing. Weighted 1 and the rest 0, a claim scores below 0
# only if its excerpt matched.
RANK_SQL = f"-bm25({FTS_TABLE}, 10.0, 3.0, 0, 0)"
IN_EXCERPT_SQL = f"bm25({FTS_TABLE}, 1, 0, 0, 0) < 0"
_SPACING = str.maketrans(SPACED_OUT, " " * len(SPACED_OUT))
_MARKERS = re.compile(f"([{MARK_START}{MARK_STOP}])")

_QUOTED = re.compile(r'"([^"]*)"?')
_TOKEN = re.compile(r'-?"[^"]*"?|\S+')
# Words as both engines split them: letters and digits, not underscores.
_WORD = re.compile(r"[^\W_]+")


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
    def contradicts_itself(self):
        """Whether a group's every term is left out too ("model -model"): nothing matches."""
        return any(set(group) <= set(self.excluded) for group in self.groups)

    @property
    def in_quotes(self) -> str:
        """The reader's text in curly quotes, to show it: their own straight quotes
        become the curly ones, so a phrase is quoted once (“reward model”)."""
        if '"' in self.text:
            return _QUOTED.sub(r"“\1”", self.text)
        return f"“{self.text}”"

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
        words = trimmed(tuple(word.lower() for word in _WORD.findall(body)))
        if not words:
            query.dropped_stop_words |= bool(_WORD.search(body))
            continue
        term = Term(words)
        if negated:
            query.excluded.append(term)
        elif join_with_previous:
            query.groups[-1].append(term)
        else:
            query.groups.append([term])
        join_with_previous = False
    # Asked again, a term or a group of them asks nothing more, but PostgreSQL read the
    # matches again for each: "model" a hundred times took 5.2 s at a million claims.
    query.groups = [list(group) for group in dict.fromkeys(map(_each_once, query.groups))]
    query.excluded = list(_each_once(query.excluded))
    return query


def _each_once(terms):
    return tuple(dict.fromkeys(terms))


def search(claims, query, ranked=True, newer_than=None, within=None, walked=False):
    """Claims matching `query`; if `ranked`, annotated with `rank` (higher is more relevant)
    and `in_excerpt`: whether the excerpt matched, not only the summary, speaker or title,
    which relevance puts first whatever the ranks. `newer_than`: only claims with greater
    ids, which SQLite's index then reads alone. `within`: a Within, the speaker and types
    the caller filters the claims by anyway, which SQLite's index then narrows to first.
    `walked`, on PostgreSQL: each claim asked in turn, not the index (claims.search_sample).

    On SQLite the conditions name the FTS5 table and claims_claim, as tables of
    the outer query: a subquery that renames them (`pk__in=`) can't hold them.
    """
    within = within or Within()
    if query.contradicts_itself:
        # PostgreSQL read every claim to find none (0.6-1.2 s at a million claims).
        claims = claims.none()
    if newer_than is not None:
        claims = claims.filter(pk__gt=newer_than)
    if connections[claims.db].vendor == "postgresql":
        return _postgres_search(claims, query, ranked, walked)
    expression = within.fts5_match(query)
    if not ranked:
        # Only a join with the FTS table can rank, and the join makes SQLite read and
        # sort every match before it can show them by air date. As a set of ids,
        # SQLite walks the episodes in the order asked and stops at the page; the
        # unary + keeps it from starting from the ids instead.
        newer = "" if newer_than is None else f" AND rowid > {int(newer_than)}"
        return claims.filter(
            RawSQL(
                f"+claims_claim.id IN (SELECT rowid FROM {FTS_TABLE} "
                f"WHERE {FTS_TABLE} MATCH %s{newer})",
                [expression],
                output_field=BooleanField(),
            )
        )
    return (
        _joined_to_index(claims)
        .filter(RawSQL(f"{FTS_TABLE} MATCH %s", [expression], output_field=BooleanField()))
        .annotate(
            rank=RawSQL(RANK_SQL, [], output_field=FloatField()),
            in_excerpt=RawSQL(IN_EXCERPT_SQL, [], output_field=BooleanField()),
            match_id=RawSQL(f"{FTS_TABLE}.rowid", [], output_field=IntegerField()),
        )
    )


def _postgres_search(claims, query, ranked, walked=False):
    # PostgreSQL's planner picks well between the full-text index and the indexes of
    # the claims' speaker and type, from its statistics of each: asking the speaker and
    # type of the full-text index too made it misjudge how many claims hold both
    # ("model" among predictions, at a million claims: 55 -> 138 ms).
    tsquery = _tsquery(query)
    condition = neighbours.matches(tsquery) if walked else _phrases_by_neighbours(query, tsquery)
    matches = claims.filter(condition or Q(search_vector=tsquery))
    if not ranked:
        return matches
    # Weights for D, C, B and A: only the excerpt's words (A) count.
    excerpt_rank = SearchRank(F("search_vector"), tsquery, weights=[0, 0, 0, 1])
    return matches.annotate(
        rank=SearchRank(F("search_vector"), tsquery), in_excerpt=GreaterThan(excerpt_rank, 0)
    )


def _phrases_by_neighbours(query, tsquery):
    """For a query with a phrase every match holds (not one among alternatives or left
    out, nor one whose words all stand apart: "cost of the model"), its condition that
    asks the index for the phrase's pairs of neighbouring words (claims.neighbours) and
    checks each claim found against `tsquery`, the whole query's. None for other queries."""
    phrases, others = [], []
    for group in query.groups:
        if len(group) == 1 and _has_neighbours(group[0]):
            phrases.append(group[0].words)
        else:
            others.append(group)
    if not phrases:
        return None
    others_tsquery = _tsquery(ParsedQuery(groups=others)) if others else None
    return neighbours.condition(phrases, others_tsquery, tsquery)


def _has_neighbours(term):
    return any(
        one not in STOP_WORDS and following not in STOP_WORDS
        for one, following in pairwise(term.words)
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


def highlight(claims, query, matches=None):
    """Set `claim.highlighted` on these claims (one page), the escaped excerpt with the
    matched words in <mark>, and `claim.matched_in`: where else words matched ("the
    episode title"). One query, for the rows shown only. `matches`: how many claims hold
    the words, if known (search_index.highlights_sql)."""
    claims = list(claims)
    if not claims or not query.is_searchable:
        return
    from claims.models import Claim

    ids = [claim.pk for claim in claims]
    connection = connections[Claim.objects.db]
    if connection.vendor == "postgresql":
        marked = _headlines(connection, ids, query)
    else:
        with connection.cursor() as cursor:
            cursor.execute(*highlights_sql(Within().fts5_match(query), ids, matches))
            marked = {pk: (excerpt, context) for pk, excerpt, context in cursor.fetchall()}
    for claim in claims:
        excerpt, context = marked.get(claim.pk, (None, None))
        text = excerpt or claim.excerpt
        if MARK_START in claim.excerpt or MARK_STOP in claim.excerpt:
            # Markers already in the words would be read as highlights.
            text = claim.excerpt.replace(MARK_START, "").replace(MARK_STOP, "")
        claim.highlighted = mark_safe(
            escape(text).replace(MARK_START, "<mark>").replace(MARK_STOP, "</mark>")
        )
        claim.matched_in = _places_matched(claim, context or "")


def _places_matched(claim, context):
    """The places besides the excerpt whose words are marked in `context`, the
    claim's search context: its summary, voice and episode title, one a line."""
    marked_lines = {
        line.replace(MARK_START, "").replace(MARK_STOP, ""): MARK_START in line
        for line in context.split("\n")
    }
    places = (
        ("the editor's summary", claim.summary),
        ("the speaker's name" if claim.is_identified else "the voice's label", claim.voice),
        ("the episode title", claim.episode.title),
    )
    return [place for place, text in places if text and marked_lines.get(text)]


def _headlines(connection, ids, query):
    """{id: (excerpt, search context)}, each with markers, from ts_headline, which
    reads them the way the index does (markup as spaces) and so marks the same words.

    Written out: the ORM's SearchHeadline took 0.9 ms of a search's page to compile, and
    the claims' default order joined their episodes to sort the rows."""
    headline = (
        "ts_headline(%(config)s::regconfig, translate({}, %(spaced_out)s, %(spaces)s), "
        "words, %(options)s)"
    )
    sql = (
        f"SELECT id, {headline.format('excerpt')}, excerpt, "
        f"{headline.format('search_context')}, search_context FROM claims_claim, "
        "websearch_to_tsquery(%(config)s::regconfig, %(words)s) AS words WHERE id = ANY(%(ids)s)"
    )
    params = {
        "config": SEARCH_CONFIG,
        "spaced_out": SPACED_OUT,
        "spaces": " " * len(SPACED_OUT),
        "options": f"StartSel='{MARK_START}', StopSel='{MARK_STOP}', HighlightAll=true",
        "words": query.as_websearch(),
        "ids": ids,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {
            pk: (_unspaced(marked, excerpt), _unspaced(marked_context, context))
            for pk, marked, excerpt, marked_context, context in cursor.fetchall()
        }


def _unspaced(marked, excerpt):
    """`marked` with the excerpt's own characters back where spaces stood in for them;
    None if the two don't line up, and the excerpt is then shown unmarked."""
    if marked.replace(MARK_START, "").replace(MARK_STOP, "") != excerpt.translate(_SPACING):
        return None
    # The text between markers, a slice of the excerpt at a time: a character at a time
    # took 0.7 ms of a PostgreSQL search's page.
    pieces, start = [], 0
    for piece in _MARKERS.split(marked):
        if piece in (MARK_START, MARK_STOP):
            pieces.append(piece)
        else:
            pieces.append(excerpt[start : start + len(piece)])
            start += len(piece)
    return "".join(pieces)


def _tsquery(query):
    return SearchQuery(query.as_websearch(), search_type="websearch", config=SEARCH_CONFIG)
