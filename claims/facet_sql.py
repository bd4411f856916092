"""The SQL of a facets' pass (claims/facets.py) after its two CTEs, `matches` and
`sample`: each facet's counts among the sample, the records they name, and the ids of
the first claims in the orders a page shows them."""


def after_sample(connection, facets, largest=None, firsts=None, first_count=0):
    """(SQL, parameters): rows of (name, value, label, n). For each of `facets` ({name:
    Facet}), its counts among the sample (of a facet of records, the `largest` largest
    if given, in the order Tally.for_template shows them); the matches' count, the
    sample's smallest id and, for each of `firsts` ({tag: (CTE, order)}), the ids of the
    first `first_count` claims of that CTE in that order, each with its place (as text,
    since the places share a column with the facets' values)."""
    params, parts = [], []
    for name, facet in facets.items():
        if facet.through:
            grouped = _through_sql(connection, *facet.through)
        else:
            grouped, condition_params = _grouped_sql(name, facet.condition)
            params.extend(condition_params)
        if facet.labelled_by:
            parts.append(_labelled(connection, name, grouped, facet.labelled_by, largest))
        else:
            parts.append(f"SELECT '{name}', value, NULL, n FROM ({grouped}) AS grouped")
    parts.append("SELECT 'matches', NULL, NULL, COUNT(*) FROM matches")
    parts.append("SELECT 'oldest_sampled', NULL, NULL, MIN(c_pk) FROM sample")
    for tag, (source, order) in (firsts or {}).items():
        placed = f"SELECT c_pk, ROW_NUMBER() OVER (ORDER BY {order}) AS place FROM {source}"
        parts.append(
            f"SELECT '{tag}', CAST(place AS TEXT), NULL, c_pk FROM ({placed}) AS placed "
            f"WHERE place <= {int(first_count)}"
        )
    return " UNION ALL ".join(parts), params


def _grouped_sql(name, condition):
    """Each value's count among the sample's claims, of their own column `c_{name}`."""
    where, params = f" WHERE c_{name} IS NOT NULL", []
    if condition:
        column, value = condition
        where += f" AND c_{column} = %s"
        params.append(value)
    return f"SELECT c_{name} AS value, COUNT(*) AS n FROM sample{where} GROUP BY c_{name}", params


def _labelled(connection, name, grouped, model, largest):
    table = connection.ops.quote_name(model._meta.db_table)
    labelled = (
        f"SELECT '{name}', record.slug, record.name, grouped.n FROM ({grouped}) AS grouped "
        f"JOIN {table} AS record ON record.id = grouped.value"
    )
    if largest is None:
        return labelled
    if connection.vendor == "postgresql":
        # Only the records whose count ties with the `largest` largest or beats them are
        # read, their slugs then breaking the ties: PostgreSQL looked up 280 speakers one
        # at a time to show 12. At a million claims, the statement of a rare word took
        # 6.35 -> 5.51 ms, of every claim 3.84 -> 3.49. SQLite's lookups by rowid cost
        # less than ranking the counts (every claim's 2.73 -> 2.87 ms ranked).
        ranked = f"SELECT value, n, RANK() OVER (ORDER BY n DESC) AS place FROM ({grouped}) AS g"
        labelled = (
            f"SELECT '{name}', record.slug, record.name, grouped.n FROM ({ranked}) AS grouped "
            f"JOIN {table} AS record ON record.id = grouped.value "
            f"WHERE grouped.place <= {int(largest)}"
        )
    # Slugs compared byte by byte, as Python sorts them, whatever the database's collation.
    by_bytes = ' COLLATE "C"' if connection.vendor == "postgresql" else ""
    return (
        f"SELECT * FROM ({labelled} ORDER BY grouped.n DESC, "
        f"record.slug{by_bytes} LIMIT {int(largest)}) AS largest_{name}"
    )


def _through_sql(connection, through, field_name):
    """Each record's count among the sample's claims, through a many-to-many table."""
    table = connection.ops.quote_name(through._meta.db_table)
    claim = connection.ops.quote_name(through._meta.get_field("claim").column)
    value = connection.ops.quote_name(through._meta.get_field(field_name).column)
    links = _looked_up_per_claim(connection, table, claim, "sample.c_pk", value, "link")
    return f"SELECT link.{value} AS value, COUNT(*) AS n FROM sample {links} GROUP BY link.{value}"


def _looked_up_per_claim(connection, table, key, column, value, alias):
    """`table` joined to the rows before it on `key` = `column`, a row at a time.

    Joined plainly, PostgreSQL read the whole table to find the sample's thousand rows:
    every topic link in the ledger (535,000 at a million claims). SQLite keeps a CROSS
    JOIN's tables in the order written; on PostgreSQL, OFFSET 0 keeps the lateral lookup
    from being turned back into that join.
    """
    if connection.vendor == "postgresql":
        return (
            f"CROSS JOIN LATERAL (SELECT {value} FROM {table} "
            f"WHERE {key} = {column} OFFSET 0) AS {alias}"
        )
    return f"CROSS JOIN {table} AS {alias} ON {alias}.{key} = {column}"
