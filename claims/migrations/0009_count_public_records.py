from collections import defaultdict

from django.db import migrations
from django.db.models import Count, Sum


def count_public_records(apps, schema_editor):
    """The counts claims.counters keeps from now on, counted once for what exists."""
    Claim = apps.get_model("claims", "Claim")
    Episode = apps.get_model("episodes", "Episode")
    Podcast = apps.get_model("episodes", "Podcast")
    Speaker = apps.get_model("episodes", "Speaker")
    published = Claim.objects.filter(status="published")
    for row in (
        published.values("episode")
        .annotate(claims=Count("*"), people=Count("speaker", distinct=True))
        .order_by()
    ):
        Episode.objects.filter(pk=row["episode"]).update(
            published_claim_count=row["claims"], published_people_count=row["people"]
        )
    for row in (
        Episode.objects.filter(status="published")
        .values("podcast")
        .annotate(episodes=Count("*"), claims=Sum("published_claim_count"))
        .order_by()
    ):
        Podcast.objects.filter(pk=row["podcast"]).update(
            public_episode_count=row["episodes"], public_claim_count=row["claims"] or 0
        )
    mixes = defaultdict(dict)
    for row in (
        published.filter(episode__status="published", speaker__isnull=False)
        .values("speaker", "type")
        .annotate(n=Count("*"))
        .order_by()
    ):
        mixes[row["speaker"]][row["type"]] = row["n"]
    for speaker, mix in mixes.items():
        Speaker.objects.filter(pk=speaker).update(
            public_claim_count=sum(mix.values()), public_claim_mix=mix
        )


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0008_where_excerpts_were_found"),
        ("episodes", "0005_public_counts"),
    ]

    operations = [
        migrations.RunPython(count_public_records, migrations.RunPython.noop, elidable=True),
    ]
