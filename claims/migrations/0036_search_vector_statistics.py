"""PostgreSQL keeps ten times the default statistics of the claims' search vectors.

Its planner knows how many claims hold a word from the most common words it samples
(a thousand by default) and takes any other word to be half as common as the rarest of
those. At ten million claims that put a rare word at 19,608 claims where 7,000 hold it,
and the page of its newest matches walked the claims by air date for 31 ms, expecting
to meet one soon. With ten thousand words sampled (9,188 at a million claims) it expects
720 claims to hold "quokka", which 729 do. ANALYZE then reads 300,000 claims, not 30,000
(15 s at a million claims), and planning a search takes about 0.2 ms longer.
"""

from django.db import migrations

from ledger.bulk import lift_time_limit

STATISTICS_TARGET = 1000


def set_target(target):
    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        lift_time_limit(schema_editor.connection)  # ANALYZE reads a sample of 300,000 claims
        schema_editor.execute(
            "ALTER TABLE claims_claim ALTER COLUMN search_vector "
            f"SET STATISTICS {int(target)}"
        )
        schema_editor.execute("ANALYZE claims_claim")

    return forward


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0035_listed_counts"),
    ]

    operations = [
        migrations.RunPython(set_target(STATISTICS_TARGET), set_target(-1)),
    ]
