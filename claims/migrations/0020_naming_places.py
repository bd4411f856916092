import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

ROLES = ("recommends", "uses", "criticises", "mentions")  # claims.references.Role, in order


def place_namings(apps, schema_editor):
    """Each naming's claim's place, copied once for what exists (ClaimReference.place)."""
    Claim = apps.get_model("claims", "Claim")
    ClaimReference = apps.get_model("claims", "ClaimReference")
    if schema_editor.connection.vendor == "postgresql":
        # Checked now, not at commit: the fields are altered after, in this transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    claims = Claim.objects.filter(pk=OuterRef("claim_id"))
    ClaimReference.objects.update(
        air_date=Subquery(claims.values("episode__air_date")),
        episode=Subquery(claims.values("episode")),
        number=Subquery(claims.values("number")),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0019_count_corrections"),
        ("episodes", "0009_correction_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="claimreference",
            name="role_rank",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Case(
                    *(models.When(role=role, then=models.Value(place)) for place, role in enumerate(ROLES)),
                    output_field=models.IntegerField(),
                ),
                output_field=models.PositiveSmallIntegerField(),
            ),
        ),
        migrations.AddField(
            model_name="claimreference",
            name="air_date",
            field=models.DateField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="claimreference",
            name="episode",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="episodes.episode",
            ),
        ),
        migrations.AddField(
            model_name="claimreference",
            name="number",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.RunPython(place_namings, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="claimreference",
            name="air_date",
            field=models.DateField(editable=False),
        ),
        migrations.AlterField(
            model_name="claimreference",
            name="episode",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="episodes.episode",
            ),
        ),
        migrations.AlterField(
            model_name="claimreference",
            name="number",
            field=models.PositiveIntegerField(editable=False),
        ),
        migrations.AddIndex(
            model_name="claimreference",
            index=models.Index(
                fields=["reference", "role_rank", "-air_date", "episode", "number"],
                name="claim_reference_page",
            ),
        ),
    ]
