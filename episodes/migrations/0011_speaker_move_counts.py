from django.db import migrations, models

from ledger.bulk import lift_time_limit


def count_every_speakers_moves(apps, schema_editor):
    """What claims.counters.recount_speakers keeps from now on, counted once: each
    speaker's public links that tell a move (ClaimLink.moved_on)."""
    lift_time_limit(schema_editor.connection)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE episodes_speaker SET public_move_count = ("
            "SELECT COUNT(*) FROM claims_claimlink l "
            "JOIN claims_claim f ON f.id = l.from_claim_id "
            "JOIN episodes_episode fe ON fe.id = f.episode_id "
            "JOIN claims_claim t ON t.id = l.to_claim_id "
            "JOIN episodes_episode te ON te.id = t.episode_id "
            "WHERE l.shared_speaker_id = episodes_speaker.id AND l.moved_on IS NOT NULL "
            "AND f.status = 'published' AND fe.status = 'published' "
            "AND t.status = 'published' AND te.status = 'published')"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('episodes', '0010_appearance_dates_role_counts'),
        ('claims', '0026_link_moves'),
    ]

    operations = [
        migrations.AddField(
            model_name='speaker',
            name='public_move_count',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='public moves'),
        ),
        migrations.RunPython(count_every_speakers_moves, migrations.RunPython.noop),
    ]
