from django.db import migrations, models

from ledger.bulk import lift_time_limit


def copy_every_claims_podcast(apps, schema_editor):
    """Each claim's episode's podcast, in one statement (Claim.refresh_derived_fields and
    claims.signals keep it from then on)."""
    lift_time_limit(schema_editor.connection)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE claims_claim SET podcast_id = (SELECT podcast_id FROM episodes_episode "
            "WHERE episodes_episode.id = claims_claim.episode_id)"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0036_search_vector_statistics"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="podcast_id",
            field=models.IntegerField(editable=False, null=True),
        ),
        migrations.RunPython(copy_every_claims_podcast, migrations.RunPython.noop),
    ]
