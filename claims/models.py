from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Length
from django.urls import reverse

from episodes.models import Episode, Speaker, Status, protect_published
from ledger.models import RecordQuerySet


class ClaimType(models.TextChoices):
    EVALUATION = "evaluation"
    BELIEF = "belief"
    PREDICTION = "prediction"
    RECOMMENDATION = "recommendation"
    UNCERTAINTY = "uncertainty"
    OBSERVATION = "observation"
    PREFERENCE = "preference"
    COMMITMENT = "commitment"
    DISAGREEMENT = "disagreement"


TYPE_MEANINGS = {
    ClaimType.EVALUATION: "A judgement of how good, bad, important or true something is.",
    ClaimType.BELIEF: "Something the speaker holds to be so, stated as their view.",
    ClaimType.PREDICTION: "A statement about what will happen.",
    ClaimType.RECOMMENDATION: "Advice: what someone should do or use.",
    ClaimType.UNCERTAINTY: "An open question or an admitted doubt.",
    ClaimType.OBSERVATION: "A report of something the speaker saw, measured or experienced.",
    ClaimType.PREFERENCE: "What the speaker likes or would choose.",
    ClaimType.COMMITMENT: "Something the speaker says they or their organisation will do.",
    ClaimType.DISAGREEMENT: "A statement that contradicts another person or a common view.",
}


class Attribution(models.TextChoices):
    IDENTIFIED = "identified", "Identified speaker"
    UNRESOLVED = "unresolved", "Unresolved voice"


DEFAULT_UNRESOLVED_LABEL = "Unresolved voice"


class ClaimQuerySet(RecordQuerySet):
    def published(self):
        """The one gate to the public: published claims of published episodes."""
        return self.filter(Claim.public_q())

    def for_listing(self):
        """Everything a claim card shows, fetched in the same query."""
        return self.select_related("episode__podcast", "speaker")

    def newest_first(self):
        """Newest episodes first, each episode's claims in ledger order."""
        return self.order_by("-episode__air_date", "episode_id", "number")

    def refresh_search_context(self):
        """Recompute search_context after a speaker or episode changed (one read, batched writes)."""
        claims = list(self.select_related("episode", "speaker"))
        for claim in claims:
            claim.search_context = claim.compose_search_context()
        Claim.objects.bulk_update(claims, ["search_context"], batch_size=500)

    def type_mix(self):
        """[(type, count)] largest first, ties in the order types are defined."""
        counts = dict(self.order_by().values_list("type").annotate(n=models.Count("pk")))
        return sorted(
            ((ClaimType(t), n) for t, n in counts.items()),
            key=lambda item: (-item[1], ClaimType.values.index(item[0])),
        )


class Claim(models.Model):
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
        null=True, blank=True, help_text="Seconds into the episode where the excerpt starts."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    search_context = models.TextField(
        blank=True,
        editable=False,
        help_text="What search finds besides the excerpt: summary, speaker or label, episode title. "
        "Kept in step by save() here and by Speaker and Episode when they are renamed.",
    )
    # Written by a PostgreSQL trigger from excerpt and search_context (claims/search_index.py);
    # unused on SQLite, which indexes the same columns in an FTS5 table instead.
    search_vector = SearchVectorField(null=True, editable=False)
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
                condition=Q(status__in=Status.values), name="claim_status_valid"
            ),
        ]
        indexes = [
            # A speaker's public record: their claims, newest episodes first.
            models.Index(fields=("speaker", "status"), name="claim_speaker_status"),
            # Admin changelist filters on type and status.
            models.Index(fields=("status", "type"), name="claim_status_type"),
        ]

    def __str__(self):
        return f"{self.number:02d} / {self.type} — {self.episode}"

    def save(self, *args, **kwargs):
        self.search_context = self.compose_search_context()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_context"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse(
            "claims:claim_detail",
            kwargs={
                "podcast_slug": self.episode.podcast.slug,
                "episode_slug": self.episode.slug,
                "number": self.number,
            },
        )

    @staticmethod
    def public_q(prefix=""):
        """The condition for a public claim, usable across a relation (`prefix="claims__"`)."""
        return Q(
            **{f"{prefix}status": Status.PUBLISHED, f"{prefix}episode__status": Status.PUBLISHED}
        )

    @property
    def label(self):
        """ "01", "17": how the ledger names this claim."""
        return f"{self.number:02d}"

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
    def anchor(self):
        return f"claim-{self.label}"

    def compose_search_context(self):
        return "\n".join(part for part in (self.summary, self.voice, self.episode.title) if part)

    def clean(self):
        from django.core.exceptions import ValidationError

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
        if errors:
            raise ValidationError(errors)
