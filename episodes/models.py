from functools import reduce
from operator import and_, or_

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.db.models import Count, Exists, OuterRef, Q
from django.urls import reverse

from ledger.models import RecordQuerySet


def reverse_once(instance, viewname, **kwargs):
    """reverse(viewname, kwargs=kwargs), worked out once per instance and kwargs.

    A page of claims links to the same podcast, episode or speaker from card after
    card, and reverse() is the costly part of a link. Kept on the instance, which
    lives for one request, and keyed by the kwargs, so a changed slug gets its own URL.
    """
    urls = instance.__dict__.setdefault("_reversed_urls", {})
    key = (viewname, *kwargs.items())
    if key not in urls:
        urls[key] = reverse(viewname, kwargs=kwargs)
    return urls[key]


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"


def protect_published(collector, field, sub_objs, using):
    """on_delete: refuse to delete anything published (or retracted), cascade to drafts.

    A draft may go with its parent; a published record never disappears by
    accident, and a retracted claim keeps its permalink. The admin turns the
    ProtectedError into its "cannot delete" page.
    """
    published = sub_objs.exclude(status=Status.DRAFT)
    if published.exists():
        raise models.ProtectedError(
            f"Cannot delete: published {field.model._meta.verbose_name_plural} rely on it "
            f"({field.model._meta.label}.{field.name}).",
            set(published),
        )
    models.CASCADE(collector, field, sub_objs, using)


class PodcastQuerySet(RecordQuerySet):
    def public(self):
        """Podcasts with at least one published episode (an EXISTS per row)."""
        return self.filter(Exists(Episode.objects.published().filter(podcast=OuterRef("pk"))))

    def with_published_episodes(self):
        """Podcasts with at least one published episode, by name, annotated with
        `episode_count` (published episodes only): no claim is read."""
        return (
            self.annotate(episode_count=Count("episodes", filter=Episode.public_q("episodes__")))
            .filter(episode_count__gt=0)
            .order_by("name")
        )

    def in_public_record(self):
        """Podcasts with at least one published episode, by name, as a list, each with
        its public `episode_count` and `claim_count`.

        Two queries: the claims of all podcasts are counted at once, grouped, from
        the claims' (status, episode) index. Counted beside the episodes in one
        query, every claim row was read and both counts had to be DISTINCT: 1 224 ->
        150 ms for 250 podcasts and a million claims on PostgreSQL.
        """
        from claims.models import Claim

        podcasts = list(self.with_published_episodes())
        claim_counts = dict(
            Claim.objects.published()
            .order_by()
            .values_list("episode__podcast")
            .annotate(claims=Count("*"))
        )
        for podcast in podcasts:
            podcast.claim_count = claim_counts.get(podcast.pk, 0)
        return podcasts


class Podcast(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True, help_text="Used in this podcast's URLs.")
    description = models.TextField(blank=True)
    website_url = models.URLField("website", max_length=500, blank=True)
    feed_url = models.URLField("feed URL", max_length=500, blank=True)

    objects = PodcastQuerySet.as_manager()

    class Meta:
        ordering = ("name",)

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse_once(self, "episodes:podcast_detail", slug=self.slug)


class SpeakerQuerySet(RecordQuerySet):
    def public(self):
        """Speakers with at least one public claim (cheap per row: an EXISTS)."""
        from claims.models import Claim

        return self.filter(Exists(Claim.objects.published().filter(speaker=OuterRef("pk"))))

    def in_public_record(self):
        """Speakers with at least one public claim, annotated with `claim_count`.

        Joined to their public claims and grouped: COUNT(*) over the join needs no
        column outside the claims' (speaker, status, episode) index, so PostgreSQL
        reads that index instead of the claims table (1 130 -> 232 ms at a million
        claims), where counting claim ids with a FILTER reads every claim.
        """
        from claims.models import Claim

        return self.filter(Claim.public_q(prefix="claims__")).annotate(claim_count=Count("*"))

    def named_like(self, words: list[str]) -> "SpeakerQuerySet":
        """Speakers whose name holds any of `words`, in any case (a trigram index
        serves it on PostgreSQL: claims/search_index.py)."""
        if not words:
            return self.none()
        return self.filter(reduce(or_, (Q(name__icontains=word) for word in words)))


class Speaker(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True, help_text="Used in this speaker's URL.")
    description = models.CharField(
        max_length=300,
        blank=True,
        help_text="A short description or affiliation, e.g. 'Founder of Example Labs'.",
    )
    links = models.TextField(
        blank=True, help_text="Public pages about this person (website, profile), one URL per line."
    )

    objects = SpeakerQuerySet.as_manager()

    class Meta:
        ordering = ("name",)

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        # A renamed speaker must be found under the new name.
        self.claims.refresh_search_context()

    def get_absolute_url(self):
        return reverse_once(self, "episodes:speaker_detail", slug=self.slug)

    @property
    def link_list(self):
        return [line.strip() for line in self.links.splitlines() if line.strip()]

    def clean(self):
        validate = URLValidator(schemes=("http", "https"))
        for link in self.link_list:
            try:
                validate(link)
            except ValidationError:
                raise ValidationError({"links": f"“{link}” is not a web address."}) from None


class EpisodeQuerySet(RecordQuerySet):
    def published(self):
        return self.filter(Episode.public_q())

    def newest_first(self):
        # Explicit: Meta.ordering is dropped from queries that aggregate.
        return self.order_by("-air_date", "title", "pk")

    def titled_like(self, words: list[str]) -> "EpisodeQuerySet":
        """Episodes whose title holds every one of `words`, in any case (a trigram
        index serves it on PostgreSQL: claims/search_index.py)."""
        if not words:
            return self.none()
        return self.filter(reduce(and_, (Q(title__icontains=word) for word in words)))

    def with_public_counts(self):
        """Annotate `claim_count` and `people_count` (identified speakers) from public claims."""
        from claims.models import Attribution, Claim

        public = Claim.public_q(prefix="claims__")
        return self.annotate(
            claim_count=Count("claims", filter=public, distinct=True),
            people_count=Count(
                "claims__speaker",
                filter=public & Q(claims__attribution=Attribution.IDENTIFIED),
                distinct=True,
            ),
        )


class Episode(models.Model):
    podcast = models.ForeignKey(
        Podcast, on_delete=protect_published, related_name="episodes", help_text="The publisher."
    )
    title = models.CharField(max_length=300)
    slug = models.SlugField(max_length=200, help_text="Unique within the podcast.")
    air_date = models.DateField()
    original_url = models.URLField(
        "original episode URL", max_length=500, help_text="The episode on its publisher's site."
    )
    audio_url = models.URLField("audio URL", max_length=1000, blank=True)
    summary = models.TextField(blank=True)
    transcript = models.TextField(blank=True)
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.DRAFT,
        help_text="Only published episodes, and their published claims, are public.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EpisodeQuerySet.as_manager()

    class Meta:
        ordering = ("-air_date", "title")
        constraints = [
            models.UniqueConstraint(
                fields=("podcast", "slug"), name="episode_slug_unique_per_podcast"
            ),
            models.CheckConstraint(
                condition=Q(status__in=Status.values), name="episode_status_valid"
            ),
        ]
        indexes = [
            # All source episodes: published episodes, newest first.
            models.Index(fields=("status", "-air_date"), name="episode_status_air_date"),
            # Every claim, newest episodes first (the admin's claims changelist): the
            # database walks this index and each episode's claims, not a sort of all.
            models.Index(fields=("-air_date", "id"), name="episode_air_date_id"),
        ]

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        # A retitled episode must be found under its new title.
        self.claims.refresh_search_context()
        if self.transcript != getattr(self, "_stored_transcript", None):
            self.claims.reverify(self.transcript)
            self._stored_transcript = self.transcript

    def get_absolute_url(self):
        return reverse_once(
            self, "episodes:episode_detail", podcast_slug=self.podcast.slug, slug=self.slug
        )

    @classmethod
    def from_db(cls, db, field_names, values):
        episode = super().from_db(db, field_names, values)
        # Remembered so that save() re-checks the claims only when the transcript changed.
        episode._stored_transcript = episode.__dict__.get("transcript")
        return episode

    @staticmethod
    def public_q(prefix=""):
        """The condition for a public episode, usable across a relation (`prefix="episodes__"`)."""
        return Q(**{f"{prefix}status": Status.PUBLISHED})
