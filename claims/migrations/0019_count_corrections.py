from django.db import migrations
from django.db.models import Count, Sum

LOGGED_KINDS = ("corrected", "retracted")  # claims.history.LOGGED_KINDS when this was written
ON_RECORD = ("published", "retracted")  # claims.querysets.ON_RECORD


def count_corrections(apps, schema_editor):
    """The counts claims.counters keeps from now on, counted once for what exists."""
    ClaimRevision = apps.get_model("claims", "ClaimRevision")
    Episode = apps.get_model("episodes", "Episode")
    Podcast = apps.get_model("episodes", "Podcast")
    for episode, n in (
        ClaimRevision.objects.filter(kind__in=LOGGED_KINDS, claim__status__in=ON_RECORD)
        .values_list("claim__episode")
        .annotate(n=Count("*"))
        .order_by()
    ):
        Episode.objects.filter(pk=episode).update(correction_count=n)
    for podcast, n in (
        Episode.objects.filter(status="published", correction_count__gt=0)
        .values_list("podcast")
        .annotate(n=Sum("correction_count"))
        .order_by()
    ):
        Podcast.objects.filter(pk=podcast).update(public_correction_count=n)


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0018_public_page_indexes"),
        ("episodes", "0009_correction_counts"),
    ]

    operations = [migrations.RunPython(count_corrections, migrations.RunPython.noop)]
