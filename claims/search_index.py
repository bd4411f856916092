"""The full-text index behind "Search evidence", one per database, and how a search
asks SQLite's for a speaker's claims or some types (Within).

PostgreSQL: a trigger fills `claims_claim.search_vector` (English stemming; the
excerpt weighted above the context; markup read as plain words) and a GIN index
serves `@@` queries;
trigram indexes serve the matching speakers' and episodes' names.
SQLite: an FTS5 table with the Porter stemmer mirrors `excerpt` and
`search_context`, and each claim's speaker and type, through triggers; FTS5 tables of
trigrams serve the names.

Installed after every migrate rather than in one migration because SQLite drops a
table's triggers whenever a migration rebuilds that table; `install()` puts back
whatever is missing or changed and, if anything was, rebuilds the index from the claims.
"""

from dataclasses import dataclass

from django.db import transaction

from claims import neighbours
from episodes.trigrams import TRIGRAM_TABLES
from ledger.bulk import lift_time_limit

# Characters PostgreSQL's parser reads as part of markup or of one compound token
# ("<b>", "&amp;", "example.com", "GPT-3"), where FTS5 reads them as spaces between
# words: the vector sees them as spaces too, so that both databases index the same
# words. Replaced one for one, so positions in the text are kept (search.highlight).
SPACED_OUT = "<>&-./@:+"

POSTGRES_FUNCTION_BODY = f"""
BEGIN
    NEW.search_vector :=
        setweight(to_tsvector('english', translate(coalesce(NEW.excerpt, ''),
            '{SPACED_OUT}', '{" " * len(SPACED_OUT)}')), 'A')
        || setweight(to_tsvector('english', translate(coalesce(NEW.search_context, ''),
            '{SPACED_OUT}', '{" " * len(SPACED_OUT)}')), 'B');
    -- Its pairs of neighbouring words too, for phrases (claims.neighbours).
    NEW.search_vector := NEW.search_vector || claims_neighbours(NEW.search_vector);
    RETURN NEW;
END
"""

POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION claims_claim_search_vector_update() RETURNS trigger AS $$
{POSTGRES_FUNCTION_BODY}
$$ LANGUAGE plpgsql
"""

POSTGRES_TRIGGER = """
CREATE TRIGGER claims_claim_search_vector
BEFORE INSERT OR UPDATE OF excerpt, search_context ON claims_claim
FOR EACH ROW EXECUTE FUNCTION claims_claim_search_vector_update()
"""

# Serves every search: `search_vector @@ websearch_to_tsquery('english', ...)`.
POSTGRES_INDEX = (
    "CREATE INDEX IF NOT EXISTS claim_search_vector_gin ON claims_claim USING gin (search_vector)"
)

# Serve the speakers and episodes whose names match a search, shown beside the
# results (Speaker.objects.named_like, Episode.objects.titled_like): `icontains`
# is `UPPER(column) LIKE UPPER('%word%')`, which without a trigram index reads
# every episode and speaker on every search.
POSTGRES_TRIGRAM_INDEXES = (
    "CREATE INDEX IF NOT EXISTS episode_title_trgm "
    "ON episodes_episode USING gin (UPPER(title) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS speaker_name_trgm "
    "ON episodes_speaker USING gin (UPPER(name) gin_trgm_ops)",
)
# How many titles and names PostgreSQL's statistics sample for those indexes. It judges
# how many titles hold a word by how many of its sample do: of a hundred, one that held
# "zeppelin" made it one title in a hundred (800 of 81,703 at three million claims, where
# 6 do), and the episodes were walked newest first looking for five (42,000, 35 ms).
TRIGRAM_STATISTICS = {
    "episode_title_trgm": "episodes_episode",
    "speaker_name_trgm": "episodes_speaker",
}
TRIGRAM_STATISTICS_TARGET = 1000


def _sqlite_fts_table(name, content, columns, tokenize):
    """An FTS5 table of `content`'s `columns` (a list, as SQL), tokenized by `tokenize`,
    kept in step by triggers: (its CREATE statement, {trigger name: CREATE TRIGGER
    statement})."""
    table = f"""
        CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5(
            {columns}, content='{content}', content_rowid='id', tokenize='{tokenize}'
        )"""
    names = columns.split(", ")
    old = "'delete', old.id, " + ", ".join(f"old.{column}" for column in names)
    new = "new.id, " + ", ".join(f"new.{column}" for column in names)
    triggers = {
        f"{name}_insert": f"""
            CREATE TRIGGER {name}_insert AFTER INSERT ON {content} BEGIN
                INSERT INTO {name}(rowid, {columns}) VALUES ({new});
            END""",
        f"{name}_delete": f"""
            CREATE TRIGGER {name}_delete AFTER DELETE ON {content} BEGIN
                INSERT INTO {name}({name}, rowid, {columns}) VALUES ({old});
            END""",
        f"{name}_update": f"""
            CREATE TRIGGER {name}_update AFTER UPDATE OF {columns} ON {content} BEGIN
                INSERT INTO {name}({name}, rowid, {columns}) VALUES ({old});
                INSERT INTO {name}(rowid, {columns}) VALUES ({new});
            END""",
    }
    return table, triggers


# SQLite's counterpart of the trigram indexes above: a word's trigrams asked of an FTS5
# table of trigrams are answered from its index (episodes.trigrams.holds(), for
# Speaker.objects.named_like and Episode.objects.titled_like); `LIKE '%word%'` asked of
# the table read every speaker's name and every episode's title on every search.
SQLITE_TRIGRAM_TABLES = {
    name: _sqlite_fts_table(name, content, column, "trigram")
    for (content, column), name in TRIGRAM_TABLES.items()
}

# The claims' speaker and type are indexed beside their words, so that a search within
# a speaker's claims or a type is answered by FTS5 alone: it intersects the word's
# matches with the speaker's, where SQLite otherwise read every claim holding the word
# to ask each one its speaker ("model" among the most prolific speaker's claims, at a
# million claims: counted in 234 -> 14 ms). A reader's words are asked of the first two
# columns only (READERS_COLUMNS).
SQLITE_COLUMNS = "excerpt, search_context, speaker_id, type"

FTS_TABLE = "claims_claim_fts"
SQLITE_TABLE, SQLITE_TRIGGERS = _sqlite_fts_table(
    FTS_TABLE, "claims_claim", SQLITE_COLUMNS, "porter unicode61 remove_diacritics 2"
)


# The FTS5 columns a reader's words are asked of; the others hold the claims' speaker
# and type, asked only by a Within.
READERS_COLUMNS = "{excerpt search_context}"


@dataclass(frozen=True)
class Within:
    """A speaker (an id) and claim types (values) a search's claims are filtered by, as
    SQLite's full-text index holds them beside the words (SQLITE_COLUMNS)."""

    speaker_id: int | None = None
    types: tuple[str, ...] = ()

    def fts5_match(self, query):
        """FTS5's MATCH expression: the reader's words in their columns, and these."""
        expression = f"{READERS_COLUMNS} : ({query.as_fts5()})"
        if self.speaker_id is not None:
            expression += f' AND {{speaker_id}} : "{int(self.speaker_id)}"'
        if self.types:
            types = " OR ".join(_fts5_string(kind) for kind in self.types)
            expression += f" AND {{type}} : ({types})"
        return expression


# A page's highlights (highlights_sql): ids this close share one range of the index;
# for at most this many matches, one range from the smallest id to the largest reads
# them all.
RUN_GAP = 1_000
FEW_MATCHES = 2_000


def highlights_sql(expression, ids, matches=None):
    """One statement for FTS5's highlights of the claims with these ids that match
    `expression`, and its parameters; `matches`: how many claims hold the words, if known.

    FTS5 is handed ranges of ids, each read alone: a run of close ids (a page newest
    first) is one range, and a lone id (a ranked page's ids lie all over the ledger) one
    of its own, which FTS5 seeks. One range from the smallest id to the largest read every
    match between them: a common word's ranked page at a million claims, 93 -> 1.4 ms;
    but for a rare word's few matches it is the cheapest (0.3 against 1.3 ms). The
    unary + keeps SQLite from handing FTS5 a run's ids one by one, each a seek of every
    term (a phrase's newest page: 8 -> 0.7 ms).
    """
    ids = sorted(ids)
    runs = [ids] if matches is not None and matches <= FEW_MATCHES else _id_runs(ids)
    selects, params = [], []
    for run in runs:
        selects.append(
            f"SELECT rowid, highlight({FTS_TABLE}, 0, char(2), char(3)), "
            f"highlight({FTS_TABLE}, 1, char(2), char(3)) FROM {FTS_TABLE} "
            f"WHERE {FTS_TABLE} MATCH %s AND rowid >= %s AND rowid <= %s "
            f"AND +rowid IN ({', '.join(['%s'] * len(run))})"
        )
        params += [expression, run[0], run[-1], *run]
    return " UNION ALL ".join(selects), params


def _id_runs(ids):
    """Sorted `ids` in runs, each id within RUN_GAP of the one before it."""
    runs = [[ids[0]]]
    for pk in ids[1:]:
        if pk - runs[-1][-1] <= RUN_GAP:
            runs[-1].append(pk)
        else:
            runs.append([pk])
    return runs


def _fts5_string(text):
    """`text` as one string of an FTS5 query: quoted, its quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def install(connection):
    if connection.vendor == "postgresql":
        _install_postgres(connection)
    elif connection.vendor == "sqlite":
        _install_sqlite(connection)


def _install_postgres(connection):
    """In one transaction, without the site's time limit: rewriting every claim's vector
    at a million claims outlasts it, and a cancelled rewrite must not leave the new
    function in place, or the next migrate would find nothing to do."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        lift_time_limit(connection)
        cursor.execute(
            "SELECT proname, prosrc FROM pg_proc WHERE proname IN "
            "('claims_claim_search_vector_update', 'claims_neighbours')"
        )
        installed = {name: body.strip() for name, body in cursor.fetchall()}
        changed = "claims_claim_search_vector_update" in installed and installed != {
            "claims_claim_search_vector_update": POSTGRES_FUNCTION_BODY.strip(),
            "claims_neighbours": neighbours.NEIGHBOURS_BODY.strip(),
        }
        cursor.execute(neighbours.NEIGHBOURS_FUNCTION)
        cursor.execute(neighbours.PHRASE_PAIRS_FUNCTION)
        cursor.execute(POSTGRES_FUNCTION)
        cursor.execute(
            "SELECT 1 FROM pg_trigger WHERE tgname = 'claims_claim_search_vector' "
            "AND tgrelid = 'claims_claim'::regclass"
        )
        missing = cursor.fetchone() is None
        if missing:
            cursor.execute(POSTGRES_TRIGGER)
        cursor.execute(POSTGRES_INDEX)
        # pg_trgm ships with PostgreSQL and is a trusted extension: the database's
        # owner may create it.
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for index in POSTGRES_TRIGRAM_INDEXES:
            cursor.execute(index)
        _sample_trigram_statistics(cursor)
        if missing or changed:
            # Claims written before the trigger existed, or indexed the old way, get
            # their vector now (about five minutes a million claims). Last: inside a
            # transaction, the update's pending trigger events would forbid creating an
            # index on the table.
            cursor.execute("UPDATE claims_claim SET excerpt = excerpt")


def _sample_trigram_statistics(cursor):
    """Set TRIGRAM_STATISTICS_TARGET on the trigram indexes where it is not yet set, and
    gather their statistics again (a second or so for a quarter of a million episodes)."""
    cursor.execute(
        "SELECT index.relname FROM pg_class AS index JOIN pg_attribute AS expression "
        "ON expression.attrelid = index.oid AND expression.attnum = 1 "
        "WHERE index.relname = ANY(%s) AND expression.attstattarget <> %s",
        [list(TRIGRAM_STATISTICS), TRIGRAM_STATISTICS_TARGET],
    )
    for (index,) in cursor.fetchall():
        cursor.execute(
            f"ALTER INDEX {index} ALTER COLUMN 1 SET STATISTICS {TRIGRAM_STATISTICS_TARGET}"
        )
        cursor.execute(f"ANALYZE {TRIGRAM_STATISTICS[index]}")


def _install_sqlite(connection):
    """Create what is missing, and make again what an older release made differently:
    a table whose columns changed is dropped, then rebuilt from the claims. In one
    transaction: readers never see an emptied index, and a rebuild cut short leaves
    the older index whole, to be made again by the next install."""
    tables = {FTS_TABLE: (SQLITE_TABLE, SQLITE_TRIGGERS), **SQLITE_TRIGRAM_TABLES}
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')")
        present = {name: _squeezed(sql) for name, sql in cursor.fetchall()}
        for table, (create, triggers) in tables.items():
            stale = table in present and present[table] != _squeezed(create, existing=True)
            if stale:
                cursor.execute(f"DROP TABLE {table}")
            outdated = [
                name
                for name, sql in triggers.items()
                if name in present and present[name] != _squeezed(sql)
            ]
            for name in outdated:
                cursor.execute(f"DROP TRIGGER {name}")
            missing = [name for name in triggers if name not in present or name in outdated]
            cursor.execute(create)
            for name in missing:
                cursor.execute(triggers[name])
            if missing or stale or table not in present:
                cursor.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")


def _squeezed(sql, existing=False):
    """`sql` as SQLite keeps it in sqlite_master, its whitespace made single, to compare
    a statement with the one that made a table: SQLite keeps a CREATE ... IF NOT EXISTS
    without its IF NOT EXISTS."""
    sql = " ".join(sql.split())
    return sql.replace(" IF NOT EXISTS", "") if existing else sql
