from bisect import bisect_right

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from episodes.records import RemembersLoadedValues, reverse_once
from episodes.trigrams import first_holding, holding_any, holding_every
from episodes.web import WebURLField, is_web_url, validate_web_url, web_url_or_blank
from ledger.models import RecordQuerySet


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"


def protect_published(collector, field, sub_objs, using):
    """on_delete: refuse to delete anything published (or retracted), cascade to drafts.

    A draft may go with its parent; a published record never disappears by accident, and
    a retracted claim keeps its permalink (the admin shows a "cannot delete" page).
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


class Podcast(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True, help_text="Used in this podcast's URLs.")
    description = models.TextField(blank=True)
    website_url = WebURLField("website", max_length=500, blank=True)
    feed_url = WebURLField("feed URL", max_length=500, blank=True)
    # Kept by claims.counters with every public change; `manage.py recount` repairs them.
    public_episode_count = models.PositiveIntegerField(
        "published episodes", default=0, editable=False
    )
    public_claim_count = models.PositiveIntegerField("public claims", default=0, editable=False)
    # /predictions/ offers to filter by the podcasts with one.
    public_prediction_count = models.PositiveIntegerField(
        "public predictions", default=0, editable=False
    )
    # The corrections and retractions of the claims on record in its published episodes:
    # /corrections/ sums them instead of checking each correction's claim and episode.
    public_correction_count = models.PositiveIntegerField(
        "public corrections", default=0, editable=False
    )

    objects = PodcastQuerySet.as_manager()

    class Meta:
        ordering = ("name",)
        constraints = [
            models.CheckConstraint(
                condition=web_url_or_blank("website_url"), name="podcast_website_is_web_url"
            ),
            models.CheckConstraint(
                condition=web_url_or_blank("feed_url"), name="podcast_feed_is_web_url"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse_once(self, "episodes:podcast_detail", slug=self.slug)


class SpeakerQuerySet(RecordQuerySet):
    def named_like(self, words: list[str], every: bool = False) -> "SpeakerQuerySet":
        """Speakers whose name holds any of `words` (or, with `every`, each of them), in
        any case (trigrams: holds())."""
        if not words:
            return self.none()
        return self.filter((holding_every if every else holding_any)(self, "name", words))


class Speaker(RemembersLoadedValues):
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
    # Kept by claims.counters with every public change; `manage.py recount` repairs them.
    public_claim_count = models.PositiveIntegerField("public claims", default=0, editable=False)
    public_claim_mix = models.JSONField(default=dict, editable=False)  # {claim type: count}
    # Published episodes they appeared in or have a public claim in, each once; and how
    # many published episodes they appeared on in each role.
    public_episode_count = models.PositiveIntegerField("public episodes", default=0, editable=False)
    public_role_counts = models.JSONField(default=dict, editable=False)  # {role: episodes}
    # Their public predictions by outcome, for their track record.
    public_prediction_outcomes = models.JSONField(default=dict, editable=False)
    # The moves of their positions on the public record (claims.links.moves_of).
    public_move_count = models.PositiveIntegerField("public moves", default=0, editable=False)

    objects = SpeakerQuerySet.as_manager()
    remembered_fields = ("name",)

    class Meta:
        ordering = ("name",)
        indexes = [
            # The speakers index, and their count from it alone (SQLite: if it holds the column).
            models.Index(
                fields=("-public_claim_count", "name", "public_episode_count"),
                condition=Q(public_episode_count__gt=0),
                name="speaker_on_record",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse_once(self, "episodes:speaker_detail", slug=self.slug)

    @property
    def public_roles(self) -> list[str]:
        """The roles (values) of their appearances on published episodes, in role order."""
        return sorted(self.public_role_counts, key=ROLE_ORDER.__getitem__)

    @property
    def link_list(self):
        """The links a page may show: http(s) addresses only, whatever was stored."""
        return [line for line in self.written_links if is_web_url(line)]

    @property
    def written_links(self):
        return [line.strip() for line in self.links.splitlines() if line.strip()]

    def clean(self):
        for link in self.written_links:
            try:
                validate_web_url(link)
            except ValidationError:
                raise ValidationError({"links": f"“{link}” is not a web address."}) from None


class EpisodeQuerySet(RecordQuerySet):
    def published(self):
        return self.filter(Episode.public_q())

    def newest_first(self):
        # Explicit: Meta.ordering is dropped from queries that aggregate.
        return self.order_by("-air_date", "title", "pk")

    def titled_like(self, words: list[str]) -> "EpisodeQuerySet":
        """Episodes whose title holds all of `words`, in any case (trigrams: holds())."""
        if not words:
            return self.none()
        return self.filter(holding_every(self, "title", words))

    def newest_titled_like(self, words: list[str], count: int) -> "EpisodeQuerySet":
        """The `count` newest of these episodes whose titles hold all of `words`
        (titled_like), found the faster way for how many titles hold them (first_holding)."""
        if not words:
            return self.none()
        return first_holding(self.newest_first(), "title", words, count)

    def with_transcript_flag(self) -> "EpisodeQuerySet":
        """Annotated with `has_public_transcript`, read in the same query without the text."""
        return self.annotate(
            has_public_transcript=Coalesce(F("transcript__is_public"), Value(False))
        )


class Episode(RemembersLoadedValues):
    podcast = models.ForeignKey(
        Podcast, on_delete=protect_published, related_name="episodes", help_text="The publisher."
    )
    title = models.CharField(max_length=300)
    slug = models.SlugField(max_length=200, help_text="Unique within the podcast.")
    air_date = models.DateField()
    original_url = WebURLField(
        "original episode URL", max_length=500, help_text="The episode on its publisher's site."
    )
    audio_url = WebURLField("audio URL", max_length=1000, blank=True)
    summary = models.TextField(blank=True)
    # Its published claims and their identified speakers, whatever the episode's own
    # status: kept by claims.counters, so a podcast's count is a sum over its episodes.
    published_claim_count = models.PositiveIntegerField(
        "published claims", default=0, editable=False
    )
    published_people_count = models.PositiveIntegerField(
        "identified speakers", default=0, editable=False
    )
    published_prediction_count = models.PositiveIntegerField(
        "published predictions", default=0, editable=False
    )
    # The corrections and retractions of its claims, whatever the episode's own status.
    correction_count = models.PositiveIntegerField(
        "corrections and retractions", default=0, editable=False
    )
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.DRAFT,
        help_text="Only published episodes, and their published claims, are public.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EpisodeQuerySet.as_manager()
    remembered_fields = ("title", "status", "air_date", "podcast_id")

    class Meta:
        ordering = ("-air_date", "title")
        constraints = [
            models.UniqueConstraint(
                fields=("podcast", "slug"), name="episode_slug_unique_per_podcast"
            ),
            models.CheckConstraint(
                condition=Q(status__in=Status.values), name="episode_status_valid"
            ),
            models.CheckConstraint(
                condition=web_url_or_blank("original_url") & ~Q(original_url=""),
                name="episode_original_is_web_url",
            ),
            models.CheckConstraint(
                condition=web_url_or_blank("audio_url"), name="episode_audio_is_web_url"
            ),
        ]
        indexes = [
            # All source episodes: published episodes, newest first.
            models.Index(fields=("status", "-air_date"), name="episode_status_air_date"),
            # Every claim, newest episodes first (the admin's claims changelist): the
            # database walks this index and each episode's claims, not a sort of all.
            models.Index(fields=("-air_date", "id"), name="episode_air_date_id"),
            # A podcast's page reads its 25 newest published episodes, not a sort of all.
            models.Index(
                fields=("podcast", "status", "-air_date", "title"), name="episode_podcast_newest"
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_once(
            self, "episodes:episode_detail", podcast_slug=self.podcast.slug, slug=self.slug
        )

    def get_transcript_url(self):
        """The page of the whole transcript, which answers only while it is public."""
        return reverse(
            "episodes:episode_transcript",
            kwargs={"podcast_slug": self.podcast.slug, "slug": self.slug},
        )

    @staticmethod
    def public_q(prefix=""):
        """The condition for a public episode, usable across a relation (`prefix="episodes__"`)."""
        return Q(**{f"{prefix}status": Status.PUBLISHED})

    @property
    def transcript_text(self) -> str:
        """The transcript's words, or "" without one: read once, then kept on the instance."""
        try:
            return self.transcript.text
        except Transcript.DoesNotExist:
            return ""

    @property
    def transcript_cues(self) -> list:
        """The transcript's cues ([start_seconds, offset] pairs), or [] without times."""
        try:
            return self.transcript.cues
        except Transcript.DoesNotExist:
            return []

    def save_transcript(self, text=None, cues=None, *, is_public=None) -> "Transcript":
        """Store this episode's transcript: its `text` with its `cues`, if timed (new text
        without cues has no times; its claims are checked again), whether it `is_public`,
        or both. Returns the Transcript."""
        changes = {} if text is None else {"text": text, "cues": cues or []}
        if is_public is not None:
            changes["is_public"] = is_public
        transcript, _ = Transcript.objects.update_or_create(episode=self, defaults=changes)
        self.transcript = transcript
        return transcript


class Transcript(RemembersLoadedValues):
    """An episode's transcript, in a table of its own.

    A real one is 60 to 120 KB. Apart from the episode's row, no listing, count or
    join over episodes ever reads it: SQLite keeps long text inside the row, so
    every scan of episodes would walk its overflow pages, deferred or not.
    """

    episode = models.OneToOneField(
        Episode, on_delete=models.CASCADE, primary_key=True, related_name="transcript"
    )
    text = models.TextField(blank=True)
    is_public = models.BooleanField(
        "public",
        default=False,
        help_text="Show the whole transcript to readers. The ledger stores transcripts to "
        "check excerpts; publish one only where its rights allow.",
    )

    # Where each cue of a timed transcript (WebVTT, SubRip, "[hh:mm:ss]" text) starts:
    # [[start_seconds, index in `text` of its first character], …], sorted; empty without
    # times. Written by episodes/transcripts.py; read through time_at().
    cues = models.JSONField(default=list, blank=True)

    remembered_fields = ("text", "cues")

    def __str__(self):
        return f"Transcript of episode {self.episode_id}"

    def time_at(self, offset: int) -> int | None:
        """Seconds into the episode of the cue holding `offset` of the text; None before the
        first cue or without cues. A binary search over the cues."""
        index = bisect_right(self.cues, offset, key=lambda cue: cue[1]) - 1
        return self.cues[index][0] if index >= 0 else None


class Role(models.TextChoices):
    """How a person took part in an episode; pages list the roles in this order."""

    HOST = "host", "Host"
    GUEST = "guest", "Guest"
    OTHER = "other", "Other"


ROLE_ORDER = {role: rank for rank, role in enumerate(Role.values)}


class AppearanceQuerySet(RecordQuerySet):
    def published(self) -> "AppearanceQuerySet":
        """Appearances on published episodes: the only ones readers see or count."""
        return self.filter(Episode.public_q(prefix="episode__"))

    def date_from_episodes(self) -> int:
        """Copy onto these appearances their episodes' air dates again, in one UPDATE."""
        episodes = Episode.objects.filter(pk=OuterRef("episode_id"))
        return self.update(air_date=Subquery(episodes.values("air_date")))


class Appearance(models.Model):
    """Who was on an episode and in which role, whether or not they have claims in it."""

    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, related_name="appearances")
    speaker = models.ForeignKey(
        Speaker,
        on_delete=models.PROTECT,
        related_name="appearances",
        help_text="An identified person; an unresolved voice is not listed here.",
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.GUEST)
    # The episode's (claims.signals moves it): a speaker's newest episodes in a role, in order.
    air_date = models.DateField(editable=False)

    objects = AppearanceQuerySet.as_manager()

    class Meta:
        # The editor's order within an episode; pages sort by role, then name.
        ordering = ("episode", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("episode", "speaker"), name="appearance_speaker_once_per_episode"
            ),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="appearance_role_valid"),
        ]
        indexes = [
            models.Index(
                fields=("speaker", "role", "-air_date", "episode"), name="appearance_speaker_newest"
            )
        ]

    def __str__(self):
        return f"{self.speaker} ({self.get_role_display().lower()}) on {self.episode}"

    def save(self, *args, **kwargs):
        self.air_date = self.episode.air_date
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return self.episode.get_absolute_url()
