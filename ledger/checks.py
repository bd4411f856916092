"""Checks of what the settings cannot see: how the database itself runs the ledger's sessions."""

from django.conf import settings
from django.core import checks
from django.db import connections


@checks.register(checks.Tags.database)
def pooled_sessions_run_as_direct_ones(databases=None, **kwargs):
    """Behind a transaction pooler the ledger sends no startup options, which PgBouncer
    refuses, so its sessions run with whatever their role sets: without a statement
    timeout there, a slow database holds a worker until gunicorn kills it. Run by
    `migrate` and `check --database default`."""
    if not settings.DATABASE_POOLER:
        return []
    return [
        warning
        for alias in databases or []
        if connections[alias].vendor == "postgresql"
        for warning in _role_lacks_settings(alias)
    ]


def _role_lacks_settings(alias):
    connection = connections[alias]
    wanted = settings.POSTGRESQL_SESSION
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_user, name, setting FROM pg_settings WHERE name = ANY(%s) ORDER BY name",
            [list(wanted)],
        )
        rows = cursor.fetchall()
    differing = {name: setting for _, name, setting in rows if not _same(setting, wanted[name])}
    if not differing:
        return []
    role = connection.ops.quote_name(rows[0][0])
    found = ", ".join(f"{name} = {setting}" for name, setting in differing.items())
    return [
        checks.Warning(
            f"The database {alias!r} is reached through a pooler (DATABASE_POOLER), and its "
            f"sessions run with {found}, not as the ledger's own connections set them.",
            hint="PgBouncer refuses startup options, so the role must carry them: "
            + " ".join(f"ALTER ROLE {role} SET {name} = {wanted[name]};" for name in differing)
            + " (docs/scaling.md)",
            id="ledger.W001",
        )
    ]


def _same(setting: str, wanted) -> bool:
    """PostgreSQL writes a number its own way (1.1 may come back as it is, 4.0 as "4")."""
    try:
        return float(setting) == float(wanted)
    except ValueError:
        return setting == str(wanted)
