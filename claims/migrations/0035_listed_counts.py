"""How many speakers and references the pages list, kept in a row each
(claims.listed_counts), counted once here from what each record keeps."""

from django.db import migrations, models


def count_listed(apps, schema_editor):
    Speaker = apps.get_model("episodes", "Speaker")
    Reference = apps.get_model("claims", "Reference")
    ListedCount = apps.get_model("claims", "ListedCount")
    speakers = Speaker.objects.filter(public_episode_count__gt=0)
    ListedCount.objects.bulk_create(
        [
            ListedCount(kind="speakers", count=speakers.count()),
            ListedCount(kind="people", count=speakers.filter(public_claim_count__gt=0).count()),
            ListedCount(
                kind="references",
                count=Reference.objects.filter(public_claim_count__gt=0).count(),
            ),
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0034_unresolved_voices_on_postgresql"),
        ("episodes", "0014_speakers_on_record_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="ListedCount",
            fields=[
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("speakers", "speakers with a published episode"),
                            ("people", "speakers with a public claim"),
                            ("references", "references a public claim names"),
                        ],
                        max_length=20,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("count", models.PositiveIntegerField()),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["speakers", "people", "references"])),
                        name="listed_count_kind_valid",
                    )
                ],
            },
        ),
        migrations.RunPython(count_listed, migrations.RunPython.noop, elidable=True),
    ]
