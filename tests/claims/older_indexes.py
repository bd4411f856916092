"""The search index as an older release left it, for tests of its upgrade."""


def vectors_of_the_excerpt_only(cursor):
    """PostgreSQL's vectors of the excerpt alone, from a function that has changed since
    (it also let the parser drop markup)."""
    cursor.execute(
        "CREATE OR REPLACE FUNCTION claims_claim_search_vector_update() RETURNS trigger "
        "AS $$ BEGIN NEW.search_vector := to_tsvector('english', NEW.excerpt); "
        "RETURN NEW; END $$ LANGUAGE plpgsql"
    )
    cursor.execute("UPDATE claims_claim SET excerpt = excerpt")
    # As after a migration: no update's checks still pending.
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
