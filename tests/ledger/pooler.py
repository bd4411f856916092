"""Connections beside Django's to the pooler and, past it, to the server itself."""

import psycopg
from django.db import connection


def through_the_pooler(**options):
    """A client of its own on the pooler, to the test database, as Django's connects."""
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"],
        port=db["PORT"],
        user=db["USER"],
        password=db["PASSWORD"],
        dbname=db["NAME"],
        autocommit=True,
        **options,
    )


def close_server_connections():
    """Close every server connection to the test database, on the server itself: the
    pooler names the server it forwards to."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT host(inet_server_addr()), inet_server_port(), current_database()")
        host, port, database = cursor.fetchone()
    connection.close()
    db = connection.settings_dict
    with psycopg.connect(
        host=host, port=port, user=db["USER"], password=db["PASSWORD"], dbname="postgres"
    ) as server:
        server.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )
