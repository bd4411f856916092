"""The SQL that reads, for the facets' sample (claims/facets.py), the records its claims
name: a podcast by way of each claim's episode, a topic through the claims' links."""


def by_way_of_sql(connection, name, where, model, field_name):
    """Each value's count among the sample's claims, read from the record each names:
    the sample counted by record first, so that each record is read once (the newest
    thousand claims come from a few dozen episodes, which were read once a claim)."""
    table = connection.ops.quote_name(model._meta.db_table)
    value = connection.ops.quote_name(model._meta.get_field(field_name).column)
    per_record = f"SELECT c_{name}, COUNT(*) AS n FROM sample{where} GROUP BY c_{name}"
    way = looked_up_per_claim(connection, table, "id", f"counted.c_{name}", value, "way")
    return (
        f"SELECT way.{value} AS value, CAST(SUM(counted.n) AS INTEGER) AS n "
        f"FROM ({per_record}) AS counted {way} GROUP BY way.{value}"
    )


def through_sql(connection, through, field_name):
    """Each record's count among the sample's claims, through a many-to-many table."""
    table = connection.ops.quote_name(through._meta.db_table)
    claim = connection.ops.quote_name(through._meta.get_field("claim").column)
    value = connection.ops.quote_name(through._meta.get_field(field_name).column)
    links = looked_up_per_claim(connection, table, claim, "sample.c_pk", value, "link")
    return f"SELECT link.{value} AS value, COUNT(*) AS n FROM sample {links} GROUP BY link.{value}"


def looked_up_per_claim(connection, table, key, column, value, alias):
    """`table` joined to the rows before it on `key` = `column`, a row at a time.

    Joined plainly, a planner read the whole table to find the sample's thousand rows:
    PostgreSQL every topic link in the ledger (535,000 at a million claims), either
    database every episode. SQLite keeps a CROSS JOIN's tables in the order written; on
    PostgreSQL, OFFSET 0 keeps the lateral lookup from being turned back into that join.
    """
    if connection.vendor == "postgresql":
        return (
            f"CROSS JOIN LATERAL (SELECT {value} FROM {table} "
            f"WHERE {key} = {column} OFFSET 0) AS {alias}"
        )
    return f"CROSS JOIN {table} AS {alias} ON {alias}.{key} = {column}"
