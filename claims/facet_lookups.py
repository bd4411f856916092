"""The SQL that reads, for the facets' sample (claims/facets.py), the records its claims
name through a many-to-many table: the topics, through the claims' links."""


def through_sql(connection, through, field_name):
    """Each record's count among the sample's claims, through a many-to-many table."""
    table = connection.ops.quote_name(through._meta.db_table)
    claim = connection.ops.quote_name(through._meta.get_field("claim").column)
    value = connection.ops.quote_name(through._meta.get_field(field_name).column)
    links = looked_up_per_claim(connection, table, claim, "sample.c_pk", value, "link")
    return f"SELECT link.{value} AS value, COUNT(*) AS n FROM sample {links} GROUP BY link.{value}"


def looked_up_per_claim(connection, table, key, column, value, alias):
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
