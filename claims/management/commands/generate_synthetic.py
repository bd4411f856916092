"""Fill the ledger with plainly fictional data at scale, for benchmarks and demos.

    python manage.py generate_synthetic --claims 1000000 --seed 1 --reset

The data is planned by claims/synthetic.py, which says what it looks like.

Loading is set-based: rows are streamed with COPY on PostgreSQL and executemany
on SQLite; the full-text index is dropped for the load and built once at the end
(PostgreSQL: the GIN index; the tsvector itself is still written by the trigger,
as every row goes in once. SQLite: the FTS5 insert trigger is dropped and
search_index.install() rebuilds the FTS table). search_context is composed as
Claim.compose_search_context() would, and the ledger's version moves. What needs
the claims' ids (topics, named references, links, revisions, prediction sources;
claims/synthetic_curation.py) follows, a batch of episodes at a time.

Synthetic records are recognised by their web addresses (SYNTHETIC_URL), topics by
their description (SYNTHETIC_TOPIC); `--reset` deletes them, and only them, before generating.
"""

import sys
import time
from itertools import islice

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from claims import search_index
from claims.links import ClaimLink
from claims.models import Claim, ClaimRevision
from claims.predictions import PredictionSource
from claims.recount import recount_everything
from claims.references import ClaimReference, Reference
from claims.synthetic import MIN_CLAIMS, SYNTHETIC_URL, Plan, unique_slug
from claims.synthetic_curation import SYNTHETIC_TOPIC
from claims.topics import Topic
from episodes.models import Appearance, Episode, Podcast, Speaker, Status, Transcript
from ledger.bulk import lift_time_limit, time_limit_lifted_for_session
from ledger.models import ledger_changed


class Progress:
    """A plain progress line on stderr: rewritten in place on a terminal, every 10% otherwise."""

    def __init__(self, total, label, stream=None):
        self.total, self.label, self.stream = total, label, stream or sys.stderr
        self.started = time.monotonic()
        self.tty = self.stream.isatty()
        self.shown = self.done = -1

    def update(self, done):
        if done == self.done:
            return
        self.done = done
        percent = done * 100 // max(self.total, 1)
        if not self.tty and percent // 10 == self.shown // 10 and done < self.total:
            return
        if self.tty and percent == self.shown and done < self.total:
            return
        self.shown = percent
        elapsed = time.monotonic() - self.started
        line = f"{self.label}: {done:,}/{self.total:,} ({percent}%) {elapsed:.1f}s"
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


class Command(BaseCommand):
    help = "Generate plainly fictional podcasts, episodes, speakers and claims at scale."

    def add_arguments(self, parser):
        parser.add_argument("--claims", type=int, required=True, help="How many claims to make.")
        parser.add_argument("--seed", type=int, default=1, help="Same seed, same data.")
        parser.add_argument(
            "--reset", action="store_true", help="Delete earlier synthetic data first."
        )
        parser.add_argument("--quiet", action="store_true", help="No progress output.")

    def handle(self, *args, claims, seed, reset, quiet, **options):
        if claims < MIN_CLAIMS:
            raise CommandError(f"--claims must be at least {MIN_CLAIMS}.")
        started = time.monotonic()
        if reset:
            self.reset()
        elif Podcast.objects.filter(website_url__startswith=SYNTHETIC_URL).exists():
            raise CommandError("Synthetic data is already here: add --reset to replace it.")
        self.quiet = quiet
        plan = Plan(claims, seed)
        with transaction.atomic():
            # A bulk load's COPY, its foreign-key checks and its index builds.
            lift_time_limit(connection)
            self.create_records(plan)
            self.load_claims(plan)
            Appearance.objects.bulk_create(plan.appearances(), batch_size=2000)
            self.load_curation(plan)
            with connection.cursor() as cursor:
                # Statistics for all that was just loaded, before counting it: without
                # them SQLite counted the namings of each chunk of references by probing
                # every published claim for each of them (hours at a million claims).
                cursor.execute("ANALYZE")
            recount_everything()
            ledger_changed()
        self.tidy_up()
        self.stdout.write(
            f"Generated {claims:,} claims in {len(plan.episodes):,} episodes of "
            f"{len(plan.podcasts):,} podcasts, by {len(plan.speakers):,} speakers "
            f"(seed {seed}) in {time.monotonic() - started:.1f}s."
        )

    def progress(self, total, label):
        return Progress(total, label, stream=open("/dev/null", "w") if self.quiet else None)

    def reset(self):
        """Delete synthetic records with plain SQL deletes (the models refuse to lose published ones)."""
        with transaction.atomic():
            podcasts = Podcast.objects.filter(website_url__startswith=SYNTHETIC_URL)
            claims = Claim.objects.filter(episode__podcast__in=podcasts)
            # Whatever hangs off a claim (its history, links, topics, references) goes first.
            Claim.topics.through.objects.filter(claim__in=claims)._raw_delete(connection.alias)
            for relation in Claim._meta.related_objects:
                relation.related_model._base_manager.filter(
                    **{f"{relation.field.name}__in": claims}
                )._raw_delete(connection.alias)
            with search_index_paused():
                claims._raw_delete(connection.alias)
            episodes = Episode.objects.filter(podcast__in=podcasts)
            Appearance.objects.filter(episode__in=episodes)._raw_delete(connection.alias)
            Transcript.objects.filter(episode__in=episodes)._raw_delete(connection.alias)
            episodes._raw_delete(connection.alias)
            podcasts._raw_delete(connection.alias)
            Speaker.objects.filter(
                links__startswith=SYNTHETIC_URL, claims__isnull=True, appearances__isnull=True
            )._raw_delete(connection.alias)
            Topic.objects.filter(description=SYNTHETIC_TOPIC, claims__isnull=True)._raw_delete(
                connection.alias
            )
            Reference.objects.filter(
                url__startswith=SYNTHETIC_URL, named_in__isnull=True
            )._raw_delete(connection.alias)
            ledger_changed()

    def create_records(self, plan):
        taken = set(Podcast.objects.values_list("slug", flat=True))
        for podcast in plan.podcasts:
            podcast.slug = unique_slug(podcast.slug, taken)
        Podcast.objects.bulk_create(plan.podcasts, batch_size=1000)
        taken = set(Speaker.objects.values_list("slug", flat=True))
        for speaker in plan.speakers:
            speaker.slug = unique_slug(speaker.slug, taken)
        Speaker.objects.bulk_create(plan.speakers, batch_size=1000)
        progress = self.progress(len(plan.episodes), "episodes")
        for start in range(0, len(plan.episodes), 2000):
            batch = plan.episodes[start : start + 2000]
            for episode in batch:
                episode.podcast_id = episode.podcast.pk
            Episode.objects.bulk_create(batch)
            progress.update(start + len(batch))

    def load_claims(self, plan):
        fields = [
            f
            for f in Claim._meta.concrete_fields
            if not f.primary_key and f.name != "search_vector"
        ]
        now = timezone.now()
        constant = {}
        for f in fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                constant[f.attname] = f.get_db_prep_save(now, connection)
            elif f.attname not in CLAIM_COLUMNS:
                constant[f.attname] = f.get_db_prep_save(f.get_default(), connection)
        order = [f.attname for f in fields]
        # The columns a few rows set (a horizon, a correction): prepared for the database.
        prepared = {f.attname: f for f in fields if f.attname in CURATED_COLUMNS}

        def values_of(row):
            for name in prepared.keys() & row.keys():
                row[name] = prepared[name].get_db_prep_save(row[name], connection)
            return tuple(row.get(name, constant.get(name)) for name in order)

        insert = RowWriter(Claim, fields)
        progress, done = self.progress(plan.total, "claims"), 0
        with search_index_paused(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL synchronous_commit = off")
            # A batch of episodes at a time: their claims, then their transcripts.
            for batch in batched(plan.ledger(), EPISODES_PER_BATCH):
                insert.write(
                    cursor,
                    (values_of(values) for rows, _ in batch for values in rows),
                )
                Transcript.objects.bulk_create(
                    [transcript for _, transcript in batch], batch_size=100
                )
                done += sum(len(rows) for rows, _ in batch)
                progress.update(done)

    def load_curation(self, plan):
        """Topics and references, then what needs the claims' ids, a batch of episodes at
        a time in ledger order: tags and named references by COPY, the rest in bulk."""
        curation = plan.curation
        for model, made in ((Topic, curation.topics), (Reference, curation.references)):
            taken = set(model.objects.values_list("slug", flat=True))
            for record in made:
                record.slug = unique_slug(record.slug, taken)
            model.objects.bulk_create(made, batch_size=1000)
        tags = RowWriter(Claim.topics.through, ("claim_id", "topic_id"))
        named = RowWriter(
            ClaimReference, ("claim_id", "reference_id", "role", "air_date", "episode_id", "number")
        )
        progress = self.progress(len(plan.episodes), "topics, references, links, corrections")
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # Statistics for the claims just loaded, so that reading them back by
                # episode takes the (episode, number) index rather than a scan per batch.
                cursor.execute(f"ANALYZE {Claim._meta.db_table}")
            for start in range(0, len(plan.episodes), EPISODES_PER_BATCH):
                batch = plan.episodes[start : start + EPISODES_PER_BATCH]
                episodes = {e.pk: (e.air_date, e.status == Status.PUBLISHED) for e in batch}
                claims = (
                    Claim.objects.filter(episode__in=episodes)
                    .order_by("episode_id", "number")
                    .values_list("pk", "episode_id", "number", "speaker_id", "status")
                )
                made = curation.records(claims, episodes)
                tags.write(cursor, made.tags)
                named.write(cursor, made.named)
                ClaimLink.objects.bulk_create(made.links, batch_size=2000)
                ClaimRevision.objects.bulk_create(made.revisions, batch_size=2000)
                PredictionSource.objects.bulk_create(made.sources, batch_size=2000)
                progress.update(start + len(batch))

    def tidy_up(self):
        """Fresh planner statistics, and on PostgreSQL a visibility map for index-only counts."""
        if connection.in_atomic_block:
            return
        with time_limit_lifted_for_session(connection), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                for model in (
                    Claim,
                    Episode,
                    Speaker,
                    Podcast,
                    Appearance,
                    ClaimLink,
                    ClaimRevision,
                    # Without statistics the planner guessed 139k topic rows for an
                    # episode's 23 claims and went parallel: 52 ms, not 1 ms.
                    Claim.topics.through,
                    ClaimReference,
                    PredictionSource,
                    Reference,
                    Topic,
                ):
                    cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
            else:
                cursor.execute("ANALYZE")


class search_index_paused:
    """Drop the full-text index's per-row upkeep for a bulk write; rebuild it once after.

    PostgreSQL keeps the trigger (the tsvector is computed once per row either way)
    but drops the GIN index, which is far cheaper to build in one go than row by row.
    SQLite drops the FTS triggers; search_index.install() puts them back and, because
    they were missing, rebuilds the FTS table from the claims.
    """

    def __enter__(self):
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("DROP INDEX IF EXISTS claim_search_vector_gin")
            elif connection.vendor == "sqlite":
                for name in search_index.SQLITE_TRIGGERS:
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}")

    def __exit__(self, *exc):
        if exc[0] is None:
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    # The deferred foreign-key checks run now: PostgreSQL builds no
                    # index on a table with pending trigger events.
                    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                    cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
            search_index.install(connection)


EPISODES_PER_BATCH = 500


def batched(items, size):
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch


class RowWriter:
    """Rows into a model's table as fast as each database takes them: COPY on
    PostgreSQL, executemany elsewhere."""

    def __init__(self, model, fields):
        """`fields`: the model's fields, or their column names."""
        self.table = model._meta.db_table
        columns = [name if isinstance(name, str) else name.column for name in fields]
        self.columns = ", ".join(connection.ops.quote_name(name) for name in columns)
        self.placeholders = ", ".join(["%s"] * len(fields))

    def write(self, cursor, rows):
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {self.table} ({self.columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            sql = f"INSERT INTO {self.table} ({self.columns}) VALUES ({self.placeholders})"
            cursor.executemany(sql, list(rows))


# What load_claims takes from each generated row; other columns get their field default.
CLAIM_COLUMNS = {
    "episode_id",
    "number",
    "type",
    "excerpt",
    "summary",
    "attribution",
    "speaker_id",
    "unresolved_label",
    "timestamp",
    "status",
    "search_context",
    "verification",
    "transcript_start",
    "transcript_end",
    "timestamp_from_transcript",
    "air_date",
    "episode_published",
    "podcast_id",
}
# What claims/synthetic_curation.py sets on some rows only.
CURATED_COLUMNS = {
    "horizon",
    "horizon_precision",
    "resolution",
    "resolved_on",
    "resolution_note",
    "resolution_sources",
    "resolution_history",
    "corrections",
    "retraction_reason",
    "retracted_at",
}
