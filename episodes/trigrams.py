"""Looking up a word inside names and titles, served by trigram indexes on both databases."""

from functools import reduce
from operator import and_, or_

from django.db import connections, models
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL

# FTS5 tables of the trigrams of these (table, column)s on SQLite, installed with the
# full-text index (claims/search_index.py), as trigram indexes are on PostgreSQL.
TRIGRAM_TABLES = {
    ("episodes_speaker", "name"): "episodes_speaker_name_trigrams",
    ("episodes_episode", "title"): "episodes_episode_title_trigrams",
}


def holds(queryset: models.QuerySet, field: str, word: str) -> Q:
    """The rows of `queryset` whose `field` holds `word`, in any case: `icontains`,
    which a trigram index serves on PostgreSQL. On SQLite the field's table of trigrams
    is asked for the word's trigrams in a row, which its index answers alone; `LIKE`
    there read each candidate's row to check it (the 3,825 titles holding "model" at a
    million claims: 14 -> 3.4 ms). A word too short to have a trigram is looked for with
    LIKE, or in the rows themselves if it holds LIKE's own wildcards."""
    rowids = _rowids_holding(queryset, field, word)
    if rowids is None:
        return Q(**{f"{field}__icontains": word})
    return Q(pk__in=RawSQL(*rowids))


def holding_every(queryset: models.QuerySet, field: str, words: list[str]) -> Q:
    """The rows of `queryset` whose `field` holds every one of `words` (holds())."""
    return _holding(queryset, field, words, and_, "AND")


def holding_any(queryset: models.QuerySet, field: str, words: list[str]) -> Q:
    """The rows of `queryset` whose `field` holds any of `words` (holds())."""
    return _holding(queryset, field, words, or_, "OR")


def _holding(queryset, field, words, combine, joiner) -> Q:
    """holds() of each of `words`, combined by `combine`. On SQLite, the words too short
    for a trigram are asked together, `joiner` between them, in one pass of the table of
    trigrams: asked one at a time, each read the whole table (thirty-three two-letter
    words in the API's search of speakers: 419 ms at a million claims, now 133)."""
    words = each_once(words)
    table = _trigram_table(queryset, field)
    liked = [word for word in words if table and len(word) < 3 and not _has_wildcards(word)]
    conditions = [holds(queryset, field, word) for word in words if word not in liked]
    if liked:
        conditions.append(Q(pk__in=RawSQL(*_rowids_liked(table, field, liked, joiner))))
    return reduce(combine, conditions)


def each_once(words: list[str]) -> list[str]:
    """`words` without repeats, in any case. Fifty times "ai" made PostgreSQL's planner
    take the fifty tests of a title for one that no title passes, and read every episode
    to find the five newest holding it (75.6 -> 0.66 ms at a million claims)."""
    return list({word.casefold(): word for word in words}.values())


def _rowids_holding(queryset, field, word) -> tuple[str, list[str]] | None:
    """(SQL, params) of the rowids whose `field` holds `word`, from the field's table of
    trigrams on SQLite; None where only the rows themselves can tell (holds())."""
    table = _trigram_table(queryset, field)
    if table is None:
        return None
    if len(word) >= 3:
        phrase = '"' + word.replace('"', '""') + '"'
        return f"SELECT rowid FROM {table} WHERE {field} MATCH %s", [phrase]
    if _has_wildcards(word):
        return None
    return _rowids_liked(table, field, [word], "OR")


def _trigram_table(queryset, field) -> str | None:
    """The table of trigrams of `field` of `queryset`'s rows, on SQLite."""
    if connections[queryset.db].vendor != "sqlite":
        return None
    return TRIGRAM_TABLES.get((queryset.model._meta.db_table, field))


def _has_wildcards(word) -> bool:
    return bool(set(word) & set("%_\\"))


def _rowids_liked(table, field, words, joiner) -> tuple[str, list[str]]:
    """(SQL, params) of the rowids whose `field` holds `words`, `joiner` (AND or OR)
    between them, in one pass of `table` with LIKE."""
    likes = f" {joiner} ".join([f"{field} LIKE %s"] * len(words))
    return f"SELECT rowid FROM {table} WHERE {likes}", [f"%{word}%" for word in words]


# Past this many rows holding the words, SQLite walks `queryset` in its order and asks
# each row until it has the first few; up to it, SQLite reads every row holding them and
# sorts them. The five newest of 27,282 episodes' titles at a million claims: "model",
# in 3,825 titles, 4.2 ms read and sorted, 1.5 walked; "show", in every title, 9.1 and
# 4.0; "quokka", in 3, 0.11 read and 2.5 walked, asking every episode.
WALK_PAST = 300


def first_holding(queryset: models.QuerySet, field: str, words: list[str], count: int):
    """The first `count` rows of `queryset`, in its order, whose `field` holds every one
    of `words` (holds()).

    SQLite's planner can't tell a word many rows hold from a rare one, and always read
    and sorted every row holding it. Here one statement counts those rows from the
    trigrams alone, and the count picks the way (WALK_PAST): each way's LIMIT is read
    once before it starts, so the way not taken stops at once. Words too short for a
    trigram are asked of each row either way.
    """
    if _trigram_table(queryset, field) is None:
        return queryset.filter(holding_every(queryset, field, words))[:count]
    words = each_once(words)
    # A word too short for a trigram is asked of each row on the way: looked for in the
    # table of trigrams, it was looked for in every title ("ai" at a million claims:
    # 6.9 ms to find five titles, which the walk finds among the newest).
    short = [Q(**{f"{field}__icontains": word}) for word in words if len(word) < 3]
    queryset = queryset.filter(*short)
    rowids = [_rowids_holding(queryset, field, word) for word in words if len(word) >= 3]
    if not rowids:
        return queryset[:count]
    pk = f'"{queryset.model._meta.db_table}"."{queryset.model._meta.pk.column}"'
    read, read_params = _ids_sql(queryset, f"{pk} IN held")
    # The unary plus keeps SQLite from starting from the held ids. Compiled once:
    # compiling a second queryset cost more than a rare word's statement (0.18 ms).
    walked = read.replace(f"{pk} IN held", f"+{pk} IN held")
    count = int(count)
    chosen = (
        "WITH held(id) AS MATERIALIZED ("
        + " INTERSECT ".join(sql for sql, _ in rowids)
        + f"), walks(walks) AS MATERIALIZED (SELECT count(*) > {WALK_PAST} FROM held) "
        f"SELECT * FROM ({walked} LIMIT (SELECT iif(walks, {count}, 0) FROM walks)) "
        f"UNION ALL SELECT * FROM ({read} LIMIT (SELECT iif(walks, 0, {count}) FROM walks))"
    )
    params = [param for _, word_params in rowids for param in word_params]
    chosen_ids = RawSQL(chosen, [*params, *read_params, *read_params])
    return queryset.filter(pk__in=chosen_ids)[:count]


def _ids_sql(queryset, condition: str) -> tuple[str, tuple]:
    """(SQL, params) of the ids of `queryset`'s rows that meet `condition`, in its order."""
    ids = queryset.filter(RawSQL(condition, [], output_field=BooleanField())).values("pk")
    return ids.query.get_compiler(using=queryset.db).as_sql()
