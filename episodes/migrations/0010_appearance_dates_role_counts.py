from collections import defaultdict

from django.db import migrations, models

from ledger.bulk import lift_time_limit


def date_every_appearance(apps, schema_editor):
    """Every appearance's date from its episode, in one statement (Appearance.save and
    claims.signals keep it from then on)."""
    lift_time_limit(schema_editor.connection)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE episodes_appearance SET air_date = (SELECT episodes_episode.air_date "
            "FROM episodes_episode WHERE episodes_episode.id = episodes_appearance.episode_id)"
        )


def count_roles_and_outcomes(apps, schema_editor):
    """What claims.counters.recount_speakers keeps from now on, counted once."""
    Speaker = apps.get_model("episodes", "Speaker")
    Appearance = apps.get_model("episodes", "Appearance")
    Claim = apps.get_model("claims", "Claim")
    roles, outcomes = defaultdict(dict), defaultdict(dict)
    appeared = Appearance.objects.filter(episode__status="published")
    for speaker, role, n in (
        appeared.values("speaker", "role").annotate(n=models.Count("*")).values_list(
            "speaker", "role", "n"
        ).order_by()
    ):
        roles[speaker][role] = n
    predictions = Claim.objects.filter(
        status="published", episode__status="published", type="prediction"
    ).exclude(speaker=None)
    for speaker, resolution, n in (
        predictions.values("speaker", "resolution").annotate(n=models.Count("*")).values_list(
            "speaker", "resolution", "n"
        ).order_by()
    ):
        outcomes[speaker][resolution] = n
    speakers = list(Speaker.objects.filter(pk__in=roles.keys() | outcomes.keys()).only("pk"))
    for speaker in speakers:
        speaker.public_role_counts = roles.get(speaker.pk, {})
        speaker.public_prediction_outcomes = outcomes.get(speaker.pk, {})
    Speaker.objects.bulk_update(
        speakers, ["public_role_counts", "public_prediction_outcomes"], batch_size=500
    )


class Migration(migrations.Migration):

    dependencies = [
        ('episodes', '0009_correction_counts'),
        ('claims', '0025_shared_speakers'),
    ]

    operations = [
        migrations.AddField(
            model_name='appearance',
            name='air_date',
            field=models.DateField(editable=False, null=True),
        ),
        # Before the rows are dated: built on rows just updated, PostgreSQL would not use
        # the index until every transaction older than the migration had ended.
        migrations.AddIndex(
            model_name='appearance',
            index=models.Index(fields=['speaker', 'role', '-air_date', 'episode'], name='appearance_speaker_newest'),
        ),
        migrations.RunPython(date_every_appearance, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='appearance',
            name='air_date',
            field=models.DateField(editable=False),
        ),
        migrations.RemoveField(
            model_name='speaker',
            name='public_roles',
        ),
        migrations.AddField(
            model_name='speaker',
            name='public_role_counts',
            field=models.JSONField(default=dict, editable=False),
        ),
        migrations.AddField(
            model_name='speaker',
            name='public_prediction_outcomes',
            field=models.JSONField(default=dict, editable=False),
        ),
        migrations.RunPython(count_roles_and_outcomes, migrations.RunPython.noop),
    ]
