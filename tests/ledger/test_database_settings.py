"""The databases as the environment describes them: replicas, and a transaction-mode pooler."""

import json
import subprocess
import sys

import pytest
from django.db import connection

from tests.ledger.stack import BASE_DIR

PRIMARY = "postgres://ledger@db.example.org:5432/ledger"
REPLICA = "postgres://ledger@replica.example.org:5432/ledger"


def databases(**env):
    """DATABASES and DATABASE_ROUTERS as settings.py makes them from `env`."""
    script = (
        "import json; from ledger import settings; "
        "print(json.dumps([settings.DATABASES, settings.DATABASE_ROUTERS], default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": PRIMARY, **env},
        capture_output=True,
        text=True,
    )
    if result.returncode:
        return result.stderr
    return json.loads(result.stdout)


def test_without_replicas_there_is_one_database_and_no_router():
    dbs, routers = databases()

    assert list(dbs) == ["default"]
    assert routers == []


def test_each_replica_url_is_a_database_the_router_reads_from():
    dbs, routers = databases(DATABASE_REPLICA_URLS=f"{REPLICA}, {REPLICA.replace('replica', 'r2')}")

    assert list(dbs) == ["default", "replica_1", "replica_2"]
    assert dbs["replica_1"]["HOST"] == "replica.example.org"
    assert dbs["replica_2"]["HOST"] == "r2.example.org"
    assert routers == ["ledger.routers.ReplicaRouter"]


def test_under_test_a_replica_reads_the_primarys_test_database_and_is_never_created():
    dbs, _ = databases(DATABASE_REPLICA_URLS=REPLICA)

    assert dbs["replica_1"]["TEST"]["MIRROR"] == "default"


def test_replicas_get_the_primarys_timeouts():
    dbs, _ = databases(DATABASE_REPLICA_URLS=REPLICA, DATABASE_CONNECT_TIMEOUT="3")

    assert dbs["replica_1"]["OPTIONS"] == dbs["default"]["OPTIONS"]
    assert dbs["replica_1"]["OPTIONS"]["connect_timeout"] == 3


def test_behind_a_transaction_pooler_there_are_no_server_side_cursors_or_startup_options():
    dbs, _ = databases(DATABASE_POOLER="transaction", DATABASE_REPLICA_URLS=REPLICA)

    for alias in ("default", "replica_1"):
        assert dbs[alias]["DISABLE_SERVER_SIDE_CURSORS"] is True
        # PgBouncer refuses a startup `options` parameter: statement_timeout goes on the role.
        assert "options" not in dbs[alias]["OPTIONS"]


def test_without_a_pooler_server_side_cursors_stay_on():
    dbs, _ = databases()

    assert dbs["default"]["DISABLE_SERVER_SIDE_CURSORS"] is False


def test_an_unknown_pooler_mode_fails_loudly():
    assert "DATABASE_POOLER must be empty or 'transaction', not 'session'" in databases(
        DATABASE_POOLER="session"
    )


def test_random_page_cost_can_be_set_for_spinning_disks():
    dbs, _ = databases(DATABASE_RANDOM_PAGE_COST="4")

    assert "-c random_page_cost=4.0" in dbs["default"]["OPTIONS"]["options"]


def test_a_random_page_cost_that_is_not_a_number_fails_loudly():
    assert "DATABASE_RANDOM_PAGE_COST must be a number, not 'fast'" in databases(
        DATABASE_RANDOM_PAGE_COST="fast"
    )


@pytest.mark.django_db
def test_no_statement_is_prepared_on_the_server():
    """PgBouncer in transaction mode may hand the next statement to another server
    connection, which would not know a prepared statement: psycopg must not prepare."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    connection.ensure_connection()

    assert connection.connection.prepare_threshold is None


def test_sqlite_connections_keep_a_larger_page_cache(db):
    if connection.vendor != "sqlite":
        pytest.skip("the page cache is SQLite's; PostgreSQL's is its shared buffers")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        # Negative: in KiB, not pages.
        assert cursor.fetchone()[0] == -16 * 1024


def test_the_sqlite_page_cache_can_be_sized():
    dbs, _ = databases(DATABASE_URL="sqlite:///ledger.sqlite3", SQLITE_CACHE_MB="64")

    assert dbs["default"]["OPTIONS"]["init_command"] == "PRAGMA cache_size = -65536"


@pytest.mark.parametrize("size", ["0", "-5"])
def test_a_sqlite_page_cache_below_one_megabyte_fails_loudly(size):
    assert f"SQLITE_CACHE_MB must be 1 or more, not {size}" in databases(
        DATABASE_URL="sqlite:///ledger.sqlite3", SQLITE_CACHE_MB=size
    )
