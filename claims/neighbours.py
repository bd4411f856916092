"""Phrases on PostgreSQL: each claim's pairs of neighbouring words, kept in its vector.

A phrase's words must stand side by side, which PostgreSQL's GIN index can't tell: it
keeps which claims hold a word, not where. Every claim holding a phrase's words was read
and checked for the phrase, and a phrase of common words ("market data model": 138,507
claims hold all three words, 254 the phrase) took 0.9 s at a million claims. So each
claim's vector also holds each pair of neighbouring words as one lexeme, "market data",
without a position (search_index.POSTGRES_FUNCTION_BODY): the index finds it, and a
reader's words never do, as none holds a space. A phrase asks the index for its pairs
and the query's other words, and each claim found is checked against the whole query.
"""

from django.contrib.postgres.search import SearchQueryField
from django.db.models import BooleanField, F, Func, Q, Value

# A pair longer than a lexeme may be (2,047 bytes) is left out, of a claim's vector and
# of a phrase's pairs alike: two long runs of characters without a space between them (a
# hash, a script written without spaces) would otherwise stop the claim being saved.
NEIGHBOURS_BODY = """
    SELECT coalesce(array_to_tsvector(array_agg(DISTINCT one.lexeme || ' ' || next.lexeme)), '')
    FROM (SELECT lexeme, position FROM unnest(words), unnest(positions) AS position) AS one
    JOIN (SELECT lexeme, position FROM unnest(words), unnest(positions) AS position) AS next
        ON next.position = one.position + 1
    WHERE octet_length(one.lexeme) + octet_length(next.lexeme) < 2047
"""

NEIGHBOURS_FUNCTION = f"""
CREATE OR REPLACE FUNCTION claims_neighbours(words tsvector) RETURNS tsvector AS $$
{NEIGHBOURS_BODY}
$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
"""

# A phrase's pairs of neighbouring words, all required (its words if it has none), as a
# tsquery: each pair quoted, its quotes and backslashes doubled. Immutable, so that
# PostgreSQL works it out once while planning and hands the index a constant.
PHRASE_PAIRS_FUNCTION = r"""
CREATE OR REPLACE FUNCTION claims_phrase_pairs(phrase text) RETURNS tsquery AS $$
    SELECT coalesce(
        string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' & ')
            ::tsquery,
        plainto_tsquery('english', phrase)
    )
    FROM unnest(claims_neighbours(to_tsvector('english', phrase)))
$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
"""


def condition(phrases, others, whole) -> Q:
    """Claims holding each of `phrases` (tuples of words, each with two neighbouring
    words that are not stop words) and matching `whole`, the query's tsquery; `others`,
    the tsquery of its other words (or None), narrows the index's candidates too.

    The check against the whole query is a function call, which the planner doesn't
    estimate, rather than `@@`: estimating both, it multiplied the frequencies of a
    phrase's words and of its pairs as if they were unrelated, expected 57 claims to hold
    "open source" where 30,054 do, and read them all to list the newest (49 -> 190 ms).
    The candidates' conditions are one tsquery, whose parts without a lexeme (words
    PostgreSQL's parser drops, "²") drop out of it, as they do from the whole query:
    asked apart, such a part matched nothing.
    """
    pairs = [Func(Value(" ".join(words)), function="claims_phrase_pairs") for words in phrases]
    candidates = Func(
        *pairs,
        *([others] if others else []),
        template="(%(expressions)s)",
        arg_joiner=" && ",
        output_field=SearchQueryField(),
    )
    on_index = Func(
        F("search_vector"),
        candidates,
        template="(%(expressions)s)",
        arg_joiner=" @@ ",
        output_field=BooleanField(),
    )
    return Q(on_index) & Q(matches(whole))


def matches(tsquery) -> Func:
    """Whether a claim's vector matches `tsquery`, as a function call: no index answers it,
    so each claim is asked in turn (claims.search_sample walks the newest claims so)."""
    return Func(F("search_vector"), tsquery, function="ts_match_vq", output_field=BooleanField())
