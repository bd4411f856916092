"""Looking up a word inside names and titles, served by trigram indexes on both databases."""

from django.db import connections, models
from django.db.models import Q
from django.db.models.expressions import RawSQL

# FTS5 tables of the trigrams of these (table, column)s on SQLite, installed with the
# full-text index (claims/search_index.py), as trigram indexes are on PostgreSQL.
TRIGRAM_TABLES = {
    ("episodes_speaker", "name"): "episodes_speaker_name_trigrams",
    ("episodes_episode", "title"): "episodes_episode_title_trigrams",
}


def holds(queryset: models.QuerySet, field: str, word: str) -> Q:
    """The rows of `queryset` whose `field` holds `word`, in any case: `icontains`,
    which a trigram index serves on PostgreSQL. On SQLite the same LIKE is asked of
    the field's table of trigrams, whose index answers it; a word holding LIKE's own
    wildcards is looked for in the rows themselves."""
    table = TRIGRAM_TABLES.get((queryset.model._meta.db_table, field))
    if connections[queryset.db].vendor != "sqlite" or table is None or set(word) & set("%_\\"):
        return Q(**{f"{field}__icontains": word})
    return Q(pk__in=RawSQL(f"SELECT rowid FROM {table} WHERE {field} LIKE %s", [f"%{word}%"]))
