from django.db import migrations, models

from ledger.bulk import lift_time_limit


def date_every_move(apps, schema_editor):
    """The later claim's air date on each link that tells how its shared speaker's position
    moved, in one statement (ClaimLink.save and refresh_kept keep it from then on)."""
    lift_time_limit(schema_editor.connection)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE claims_claimlink SET moved_on = ("
            "SELECT CASE WHEN f.air_date > t.air_date THEN f.air_date ELSE t.air_date END "
            "FROM claims_claim f, claims_claim t "
            "WHERE f.id = claims_claimlink.from_claim_id AND t.id = claims_claimlink.to_claim_id "
            "AND claims_claimlink.shared_speaker_id IS NOT NULL "
            "AND claims_claimlink.relation IN ('contradicts', 'refines', 'repeats') "
            "AND f.air_date <> t.air_date "
            "AND (claims_claimlink.relation IN ('contradicts', 'repeats') "
            "OR f.air_date > t.air_date))"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0025_shared_speakers'),
    ]

    operations = [
        migrations.AddField(
            model_name='claimlink',
            name='moved_on',
            field=models.DateField(editable=False, null=True),
        ),
        migrations.RemoveIndex(
            model_name='claimlink',
            name='claim_link_shared_speaker',
        ),
        migrations.AddIndex(
            model_name='claimlink',
            index=models.Index(condition=models.Q(('moved_on__isnull', False)), fields=['shared_speaker', '-moved_on'], name='claim_link_moves'),
        ),
        # After the index: built on rows just updated, PostgreSQL would not use it until
        # every transaction older than the migration had ended.
        migrations.RunPython(date_every_move, migrations.RunPython.noop),
    ]
