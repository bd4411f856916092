from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.text import Truncator

from claims import moments, predictions, timing, verbatim
from claims.choices import (
    DEFAULT_UNRESOLVED_LABEL,
    GATE,
    UNVERIFIED,
    Attribution,
    ClaimStatus,
    ClaimType,
    Verification,
)
from claims.history import DERIVED_FIELDS, ClaimChange, ClaimRevision, PublicHistory, RevisionKind
from claims.links import CLAIM_INDEXES_FOR_LINKS, ClaimLink, KeptContradiction
from claims.listed_counts import ListedCount
from claims.pending import PendingImport
from claims.prediction_counts import PredictionCount
from claims.querysets import KEPT_AIR_DATE_INDEXES, ClaimQuerySet, public_q
from claims.references import ClaimReference, Reference, ReferenceKind, Role
from claims.reports import Report, ReportKind, ReportStatus
from claims.topics import Topic
from episodes.models import Episode, Speaker, Status, protect_published

# The app's models and choices, as Django and the rest of the code expect to find them.
__all__ = [
    "DEFAULT_UNRESOLVED_LABEL",
    "Attribution",
    "Claim",
    "ClaimLink",
    "ClaimReference",
    "ClaimRevision",
    "ClaimStatus",
    "ClaimType",
    "ListedCount",
    "Reference",
    "ReferenceKind",
    "Report",
    "ReportKind",
    "ReportStatus",
    "PendingImport",
    "PredictionCount",
    "RevisionKind",
    "Role",
    "Topic",
    "Verification",
]


class Claim(predictions.PredictionFields, KeptContradiction, PublicHistory, models.Model):
    episode = models.ForeignKey(Episode, on_delete=protect_published, related_name="claims")
    number = models.PositiveIntegerField(
        help_text="Its place in the episode's ledger. Never reused or renumbered: "
        "a claim that is not published leaves a gap."
    )
    type = models.CharField(max_length=20, choices=ClaimType.choices)
    excerpt = models.TextField(help_text="The exact words, verbatim from the episode.")
    summary = models.CharField(
        "editor's summary",
        max_length=300,
        blank=True,
        help_text="Optional one line in the editor's words. Leave blank rather than repeat the excerpt.",
    )
    attribution = models.CharField(
        max_length=10, choices=Attribution.choices, default=Attribution.IDENTIFIED
    )
    speaker = models.ForeignKey(
        Speaker,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="claims",
        help_text="Required for an identified speaker; empty for an unresolved voice.",
    )
    unresolved_label = models.CharField(
        max_length=100,
        blank=True,
        help_text=f"For an unresolved voice only, e.g. 'Caller 2'. "
        f"Blank shows '{DEFAULT_UNRESOLVED_LABEL}'.",
    )
    timestamp = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Seconds into the episode where the excerpt starts. Leave it blank to take "
        "the time from the episode's timed transcript.",
    )
    # Whether the timestamp is the transcript's (filled from the cue the excerpt starts
    # in, and refreshed with new timings) rather than an editor's (claims/timing.py).
    timestamp_from_transcript = models.BooleanField(default=False, editable=False)
    status = models.CharField(max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.DRAFT)
    verification = models.CharField(
        "verbatim check",
        max_length=13,
        choices=Verification.choices,
        default=Verification.NO_TRANSCRIPT,
        editable=False,
        help_text="Whether the excerpt appears word for word in the episode's transcript. "
        "Checked again whenever the claim or the transcript is saved.",
    )
    # Where the verbatim check found the excerpt: character indexes into the
    # transcript's text, kept with the check, so its context is a slice, not a search.
    transcript_start = models.PositiveIntegerField(null=True, blank=True, editable=False)
    transcript_end = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Kept of its episode (refresh_derived_fields(), claims.counters): its air date, whether
    # it is published and its podcast, for the listings' indexes, a public gate on this table
    # and the podcasts' facet. Null until migrated: NOT NULL would make SQLite copy the table.
    air_date = models.DateField(null=True, editable=False)
    episode_published = models.BooleanField(null=True, editable=False)
    podcast_id = models.IntegerField(null=True, editable=False)
    retraction_reason = models.TextField(
        blank=True,
        help_text="Why the claim was retracted. Its permalink shows this instead of the excerpt.",
    )
    retracted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Public correction notes, oldest first ([{"at", "note", "fields"}]): the revisions hold
    # the whole history; this copy shows a card's corrections without a query per claim.
    corrections = models.JSONField(default=list, blank=True, editable=False)
    search_context = models.TextField(
        blank=True,
        editable=False,
        help_text="What search finds besides the excerpt: summary, speaker or label, episode title. "
        "Kept in step by save() here and by Speaker and Episode when they are renamed.",
    )
    # Written by a PostgreSQL trigger from excerpt and search_context (claims/search_index.py);
    # unused on SQLite, which indexes the same columns in an FTS5 table instead.
    search_vector = SearchVectorField(null=True, editable=False)
    topics = models.ManyToManyField(
        Topic, blank=True, related_name="claims", help_text="What the claim is about."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ("episode", "number")
        constraints = [
            models.UniqueConstraint(
                fields=("episode", "number"), name="claim_number_unique_per_episode"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="claim_number_positive"),
            models.CheckConstraint(
                # TRIM(text, characters): both databases take it; plain TRIM keeps tabs and newlines.
                condition=models.lookups.GreaterThan(
                    Length(Func(F("excerpt"), Value(" \t\r\n"), function="TRIM")), 0
                ),
                name="claim_excerpt_not_blank",
            ),
            models.CheckConstraint(
                condition=(
                    Q(
                        attribution=Attribution.IDENTIFIED,
                        speaker__isnull=False,
                        unresolved_label="",
                    )
                    | Q(attribution=Attribution.UNRESOLVED, speaker__isnull=True)
                ),
                name="claim_attribution_matches_speaker",
            ),
            models.CheckConstraint(condition=Q(type__in=ClaimType.values), name="claim_type_valid"),
            models.CheckConstraint(
                condition=Q(status__in=ClaimStatus.values), name="claim_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(verification__in=Verification.values), name="claim_verification_valid"
            ),
            # A found excerpt says where; any other verdict has nowhere to point.
            models.CheckConstraint(
                condition=Q(
                    verification=Verification.FOUND,
                    transcript_start__isnull=False,
                    transcript_end__isnull=False,
                    transcript_start__lt=F("transcript_end"),
                )
                | Q(
                    ~Q(verification=Verification.FOUND),
                    transcript_start__isnull=True,
                    transcript_end__isnull=True,
                ),
                name="claim_found_excerpt_has_its_place",
            ),
            models.CheckConstraint(
                condition=(
                    Q(
                        Q(status=ClaimStatus.RETRACTED, retracted_at__isnull=False),
                        models.lookups.GreaterThan(
                            Length(Func(F("retraction_reason"), Value(" \t\r\n"), function="TRIM")),
                            0,
                        ),
                    )
                    | Q(
                        ~Q(status=ClaimStatus.RETRACTED),
                        retracted_at__isnull=True,
                        retraction_reason="",
                    )
                ),
                name="claim_retraction_has_reason",
            ),
            *predictions.PREDICTION_CONSTRAINTS,
        ]
        indexes = [
            # A speaker's public record, newest episodes first; it also recounts a
            # speaker's claims (claims.counters) without reading the claims table.
            models.Index(
                fields=("speaker", "status", "episode", *GATE), name="claim_speaker_status_episode"
            ),
            # Counting an episode's published claims (claims.counters) from the index
            # alone, and the public claims of many episodes at once.
            models.Index(fields=("status", "episode", *GATE), name="claim_status_episode"),
            # A type among the public claims of some episodes (the claims browser's
            # ?type= with a date range or a podcast) without reading the episodes'
            # other claims: 94 -> 47 ms for a year of predictions at a million claims.
            models.Index(
                fields=("episode", "type", *GATE),
                condition=Q(status="published"),
                name="claim_published_episode_type",
            ),
            # The admin home's review queue: published claims not verified
            # (claims/review_queue.py). Holds only those claims, so the capped count
            # reads them alone, not every published claim to find the few.
            models.Index(
                fields=("episode",),
                condition=Q(status=ClaimStatus.PUBLISHED, verification__in=UNVERIFIED),
                name="claim_published_unverified",
            ),
            *predictions.PREDICTION_INDEXES + CLAIM_INDEXES_FOR_LINKS + KEPT_AIR_DATE_INDEXES,
        ]

    def __str__(self):
        # Told apart in the admin's pickers by where it is and how it starts.
        start = Truncator(self.excerpt).chars(60)
        return f"{self.episode} · {self.label} — “{start}”"

    # The searched words marked in the excerpt, and where else they matched (search.highlight).
    # Defaults: every claim card asks for both, and a template's failed lookup is costly.
    highlighted = None
    matched_in = ()
    # The claim as stored, read once per save (history.stored_state()).
    _stored = None
    # Whether the last save touched a claim that was or became public (never a deleted draft).
    was_or_is_on_record = False
    # The last save's ClaimChange, for what follows a save (claims.signals).
    last_change = None

    def save(self, *args, changed_by=None, via="", correction_note="", **kwargs):
        """Save, and keep the change in the claim's history.

        `changed_by` (a user) and `via` ("admin", "import of ledger.csv") say who
        and how; `correction_note` says what was wrong, when a published claim's
        words, type or speaker change. Refuses, with a ValidationError, a change the
        public record forbids (ClaimChange.problems): no caller gets round the rules
        by skipping clean().
        """
        change = ClaimChange.of(self, correction_note)
        change.check()
        self.was_or_is_on_record = change.is_on_record
        self.last_change = change
        change.apply(self, timezone.now())
        self.refresh_derived_fields()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], *DERIVED_FIELDS, "timestamp"}
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
            revision = change.revision(self, changed_by=changed_by, via=via)
            if revision is not None:
                revision.save()
            if "resolution_sources" in change.changes:
                predictions.sync_source_records([self])
        # A timestamp taken from the transcript is derived, like the check: not a change.
        self._stored = {**change.after, "timestamp": self.timestamp}

    def get_absolute_url(self):
        # Under its episode's URL (claims/urls.py): one episode's claims reverse it once.
        return f"{self.episode.get_absolute_url()}claims/{self.number}/"

    def delete(self, *args, **kwargs):
        if self.status != ClaimStatus.DRAFT:
            raise models.ProtectedError(
                f"Claim {self.label} is {self.get_status_display().lower()}: only drafts are "
                "deleted. Retract a published claim instead.",
                {self},
            )
        return super().delete(*args, **kwargs)

    def refresh_from_db(self, *args, **kwargs):
        super().refresh_from_db(*args, **kwargs)
        self._stored = None

    def refresh_derived_fields(self):
        """What search and the verbatim check need, recomputed from the claim and its episode."""
        self.search_context = self.compose_search_context()
        self.air_date = self.episode.air_date
        self.episode_published = self.episode.status == Status.PUBLISHED
        self.podcast_id = self.episode.podcast_id
        self.verification, span = verbatim.check_and_locate(
            self.excerpt, self.episode.transcript_text
        )
        self.transcript_start, self.transcript_end = span or (None, None)
        timing.follow_transcript(self, timing.transcript_time(self.episode, self.transcript_start))

    def retract(self, reason, *, changed_by=None, via=""):
        """Take a published claim off the record, keeping its number and permalink."""
        if not reason.strip():
            raise ValidationError(
                {"retraction_reason": "Say why the claim is retracted: readers will see it."}
            )
        self.status = ClaimStatus.RETRACTED
        self.retraction_reason = reason.strip()
        self.save(changed_by=changed_by, via=via)

    public_q = staticmethod(public_q)

    def unique_error_message(self, model_class, unique_check):
        # Not "Claim with this Episode and Number already exists.": ours, with the way out.
        if tuple(unique_check) != ("episode", "number") or self.episode_id is None:
            return super().unique_error_message(model_class, unique_check)
        free = Claim.objects.filter(episode=self.episode_id).next_number()
        return ValidationError(
            f"Claim {self.label} of “{self.episode.title}” already exists: choose another "
            f"number (the next free one is {free}).",
            code="unique_together",
        )

    @property
    def label(self):
        """ "01", "17": how the ledger names this claim (None while it has no number)."""
        return None if self.number is None else f"{self.number:02d}"

    @property
    def is_identified(self):
        return self.attribution == Attribution.IDENTIFIED

    @property
    def voice(self):
        """Who said it, as a reader sees it: the speaker's name or the unresolved label."""
        if self.speaker_id is not None:
            return self.speaker.name
        return self.unresolved_label or DEFAULT_UNRESOLVED_LABEL

    @property
    def attribution_words(self):
        """Who said it, in words that cannot be mistaken for a person's name:
        the speaker's name, or "Unresolved voice — Caller 2" (plain text; pages put
        the label in <em>: claims.cards.unresolved_voice)."""
        if self.speaker_id is not None:
            return self.speaker.name
        if self.unresolved_label:
            return f"{DEFAULT_UNRESOLVED_LABEL} — {self.unresolved_label}"
        return DEFAULT_UNRESOLVED_LABEL

    @property
    def anchor(self):
        return f"claim-{self.label}"

    @property
    def is_retracted(self):
        return self.status == ClaimStatus.RETRACTED

    @property
    def moment_url(self):
        """The original episode or its audio, opened at this claim's moment; None if the host can't."""
        return moments.moment_url(self.episode.original_url, self.episode.audio_url, self.timestamp)

    @property
    def moment(self):
        """The timestamp as a clock reading, "12:34"; None without a timestamp."""
        return None if self.timestamp is None else moments.clock(self.timestamp)

    def compose_search_context(self):
        return "\n".join(part for part in (self.summary, self.voice, self.episode.title) if part)

    def clean(self):
        errors = {}
        if self.attribution == Attribution.IDENTIFIED:
            if self.speaker_id is None:
                errors["speaker"] = "An identified claim needs its speaker."
            if self.unresolved_label:
                errors["unresolved_label"] = "Only an unresolved voice takes a label."
        elif self.speaker_id is not None:
            errors["speaker"] = "An unresolved voice has no speaker: choose 'Identified speaker'."
        if not self.excerpt.strip():
            errors["excerpt"] = "The excerpt is the claim: paste the exact words."
        # The correction note comes with save(): a form checks it then (ClaimForm).
        problems = ClaimChange.of(self, correction_note=None).problems()
        errors = {**problems, **errors}
        if errors:
            raise ValidationError(errors)


class Prediction(Claim):
    """Prediction claims, as editors resolve them in the admin (claims/prediction_admin.py)."""

    class Meta:
        proxy = True
        ordering = ("horizon", "pk")
