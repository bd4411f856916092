import datetime
from dataclasses import dataclass

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.db.models import Exists, F, Func, OuterRef, Q, Value
from django.db.models.functions import Length
from django.urls import reverse
from django.utils import timezone
from django.utils.text import get_text_list

from claims import moments, verbatim
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


class ClaimStatus(models.TextChoices):
    """An episode is a draft or published; a published claim may also be retracted."""

    DRAFT = Status.DRAFT.value, Status.DRAFT.label
    PUBLISHED = Status.PUBLISHED.value, Status.PUBLISHED.label
    RETRACTED = "retracted", "Retracted"


class Verification(models.TextChoices):
    FOUND = "found", "Found in the transcript"
    NOT_FOUND = "not_found", "Not found in the transcript"
    NO_TRANSCRIPT = "no_transcript", "No transcript to check"


# What a claim's history records. Relations are kept by id and shown by name.
TRACKED_FIELDS = (
    "episode",
    "number",
    "type",
    "excerpt",
    "summary",
    "attribution",
    "speaker",
    "unresolved_label",
    "timestamp",
    "status",
    "retraction_reason",
)
# Once a claim is public, changing what it says or who said it is a correction,
# made in the open: it needs a note, and readers see the note.
CORRECTED_FIELDS = ("excerpt", "type", "attribution", "speaker", "unresolved_label")
# A claim's permalink is made of these; once public they never change.
PERMALINK_FIELDS = ("episode", "number")
# Relations, which a claim's state holds by id and its history by name.
RELATIONS = ("episode", "speaker")


def field_words(names):
    """ "excerpt and unresolved label": fields as a sentence names them."""
    return get_text_list([name.replace("_", " ") for name in names], "and")


def changed_fields(before, after):
    """The tracked fields that differ between two states (see Claim.tracked_state)."""
    return [name for name in TRACKED_FIELDS if before[name] != after[name]]


def describe_changes(before, after):
    """{field: [before, after]} for a revision, relations by name. `before` None: a new claim."""
    if before is None:
        return {
            name: [None, after["names"].get(name, after[name])]
            for name in TRACKED_FIELDS
            if after[name] not in (None, "")
        }
    return {
        name: [before["names"].get(name, before[name]), after["names"].get(name, after[name])]
        for name in changed_fields(before, after)
    }


def record_problems(label, before, after, correction_note):
    """Why a change may not be made to the public record, as {field: message}.

    The rules live here, not in a form, so the admin, the importer and code in a
    shell all meet the same ones. `before` is None for a new claim; `label` is
    its number as the ledger writes it ("07"), or None when not known yet.
    """
    if before is not None:
        label = f"{before['number']:02d}"  # the number readers know it by
    claim = f"Claim {label}" if label else "This claim"
    was = before["status"] if before else None
    now = after["status"]
    if was in (None, ClaimStatus.DRAFT):
        if now == ClaimStatus.RETRACTED:
            return {"status": "Only a published claim can be retracted: delete a draft instead."}
        return {}
    changed = changed_fields(before, after)
    if was == ClaimStatus.RETRACTED:
        if changed:
            return {
                NON_FIELD_ERRORS: f"{claim} was retracted: it is kept as it was and "
                "cannot be changed."
            }
        return {}
    problems = {}
    for name in PERMALINK_FIELDS:
        if name in changed:
            problems[name] = (
                f"{claim} is published: its {name} is part of its permalink and never "
                "changes. Retract it and add a new claim instead."
            )
    if now == ClaimStatus.RETRACTED and set(changed) - {"status", "retraction_reason"}:
        problems[NON_FIELD_ERRORS] = (
            f"{claim} is retracted as it stands: save other changes first, or leave them."
        )
    corrected = [name for name in CORRECTED_FIELDS if name in changed]
    if corrected and not correction_note.strip():
        words = field_words(corrected)
        problems["correction_note"] = (
            f"{claim} is published: a change to its {words} is a correction. "
            "Say what was wrong in a correction note; readers will see it with the claim."
        )
    return problems


@dataclass(frozen=True)
class Correction:
    """A correction as readers see it (from Claim.corrections)."""

    at: datetime.datetime
    note: str
    fields: tuple[str, ...]

    @property
    def what(self):
        return field_words(self.fields)


class ClaimQuerySet(RecordQuerySet):
    def published(self):
        """The one gate to the public: published claims of published episodes."""
        return self.filter(Claim.public_q())

    def on_record(self):
        """Claims with a public permalink: the published ones and those retracted since.

        Only permalinks use this: a retracted claim shows its retraction there and
        counts, lists and searches nowhere.
        """
        return self.filter(
            status__in=(ClaimStatus.PUBLISHED, ClaimStatus.RETRACTED),
            episode__status=Status.PUBLISHED,
        )

    def change_status(self, status, *, changed_by=None, via=""):
        """Move these claims to `status`, each move kept in its claim's history.

        Three queries whatever the number of claims. Returns how many moved. For
        publishing and unpublishing only: retraction needs a reason (Claim.retract).
        """
        moving = list(self.exclude(status=status).values_list("pk", "status"))
        if not moving:
            return 0
        Claim.objects.filter(pk__in=[pk for pk, _ in moving]).update(
            status=status, updated_at=timezone.now()
        )
        ClaimRevision.objects.bulk_create(
            ClaimRevision(
                claim_id=pk,
                kind=RevisionKind.EDITED,
                changes={"status": [was, status]},
                changed_by=changed_by,
                via=via,
            )
            for pk, was in moving
        )
        return len(moving)

    def reverify(self, transcript):
        """Check these claims' excerpts against `transcript` again.

        One read; writes only the claims whose result changed, in batches.
        """
        changed = []
        for claim in self.only("pk", "excerpt", "verification"):
            result = verbatim.check(claim.excerpt, transcript)
            if claim.verification != result:
                claim.verification = result
                changed.append(claim)
        Claim.objects.bulk_update(changed, ["verification"], batch_size=500)

    def delete(self):
        # Drafts may go; anything that was ever public stays on the record.
        on_record = self.exclude(status=ClaimStatus.DRAFT)
        if on_record.exists():
            raise models.ProtectedError(
                "Published and retracted claims are never deleted: retract a claim instead.",
                set(on_record),
            )
        return super().delete()

    def for_listing(self):
        """Everything a claim card shows, fetched in the same query.

        Without what a card never shows: the episode's transcript (a real one is
        tens of kilobytes, carried by every row) and summary, and the search text.
        """
        return self.select_related("episode__podcast", "speaker").defer(
            "episode__transcript", "episode__summary", "search_context", "search_vector"
        )

    def newest_first(self):
        """Newest episodes first, each episode's claims in ledger order."""
        return self.order_by("-episode__air_date", "episode_id", "number")

    def refresh_search_context(self):
        """Recompute search_context after a speaker or episode changed (one read, batched writes)."""
        claims = list(self.select_related("episode", "speaker").defer("episode__transcript"))
        for claim in claims:
            claim.search_context = claim.compose_search_context()
        Claim.objects.bulk_update(claims, ["search_context"], batch_size=500)

    def speakers(self) -> models.QuerySet[Speaker]:
        """The speakers of these claims, checked with an EXISTS per speaker."""
        return Speaker.objects.filter(Exists(self.filter(speaker=OuterRef("pk"))))

    def count_by_podcast(self) -> dict[int, int]:
        """{podcast id: how many of these claims} in one grouped query."""
        return dict(self.order_by().values_list("episode__podcast").annotate(n=models.Count("*")))

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
    retraction_reason = models.TextField(
        blank=True,
        help_text="Why the claim was retracted. Its permalink shows this instead of the excerpt.",
    )
    retracted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Public correction notes, oldest first: [{"at": ISO time, "note": …, "fields": […]}].
    # The revisions hold the full history; this copy lets every claim card show its
    # corrections without a query per claim.
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
        ]
        indexes = [
            # A speaker's public record: their claims, newest episodes first; with the
            # episode, it also answers "who is in the public record, with how many
            # claims" without reading the claims table (Speaker.in_public_record).
            models.Index(
                fields=("speaker", "status", "episode"), name="claim_speaker_status_episode"
            ),
            # Admin changelist filters on type and status.
            models.Index(fields=("status", "type"), name="claim_status_type"),
            # Counting public claims (home totals): an index-only scan joined to the
            # published episodes; 642 ms -> 95 ms at a million claims on PostgreSQL.
            models.Index(fields=("status", "episode"), name="claim_status_episode"),
            # A type among the public claims of some episodes (the claims browser's
            # ?type= with a date range or a podcast) without reading the episodes'
            # other claims: 94 -> 47 ms for a year of predictions at a million claims.
            models.Index(
                fields=("episode", "type"),
                condition=Q(status="published"),
                name="claim_published_episode_type",
            ),
        ]

    def __str__(self):
        return f"{self.number:02d} / {self.type} — {self.episode}"

    # Set by whoever corrects a published claim, before save(); see record_problems().
    correction_note = ""
    # The excerpt with the searched words marked, set by claims.search.highlight() on a
    # page of results. A default, not a missing attribute: the claim card asks for it on
    # every page, and a template's failed lookup is costly.
    highlighted = None
    # The claim as stored, read once per save (stored_state()).
    _stored = None

    def save(self, *args, changed_by=None, via="", **kwargs):
        """Save, and keep the change in the claim's history.

        `changed_by` (a user) and `via` ("admin", "import of ledger.csv") say who
        and how. Refuses, with a ValidationError, a change the public record
        forbids (record_problems): no caller gets round the rules by skipping clean().
        """
        before = self.stored_state()
        after = self.tracked_state()
        problems = record_problems(self.label, before, after, self.correction_note)
        if problems:
            raise ValidationError(problems)
        changes = describe_changes(before, after)
        kind = revision_kind(before, after, self.correction_note) if changes else None
        if kind == RevisionKind.CORRECTED:
            self.corrections = [
                *self.corrections,
                correction_entry(changes, self.correction_note, timezone.now()),
            ]
        if kind == RevisionKind.RETRACTED and self.retracted_at is None:
            self.retracted_at = timezone.now()
        self.refresh_derived_fields()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {
                *kwargs["update_fields"],
                "search_context",
                "verification",
                "corrections",
                "retracted_at",
            }
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
            if changes:
                ClaimRevision.objects.create(
                    claim=self,
                    kind=kind,
                    changes=changes,
                    note=revision_note(kind, self),
                    changed_by=changed_by,
                    via=via,
                )
        self._stored = after
        self.correction_note = ""

    def get_absolute_url(self):
        # The permalink nests under its episode's page (see claims/urls.py): built on
        # the episode's URL, a page of one episode's claims reverses once, not per claim.
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
        self.verification = verbatim.check(self.excerpt, self.episode.transcript)

    def tracked_state(self):
        """The fields its history tracks, relations by id, with their names for display."""
        state = {name: getattr(self, name) for name in TRACKED_FIELDS if name not in RELATIONS}
        state["episode"] = self.episode_id
        state["speaker"] = self.speaker_id
        state["names"] = {
            "episode": self.episode.title if self.episode_id else None,
            "speaker": self.speaker.name if self.speaker_id else None,
        }
        return state

    def stored_state(self):
        """tracked_state() of the claim as the database holds it; None for a new claim.

        One query, remembered until the next save or refresh_from_db().
        """
        if self._state.adding or self.pk is None:
            return None
        if self._stored is None:
            plain = [name for name in TRACKED_FIELDS if name not in RELATIONS]
            row = (
                Claim.objects.filter(pk=self.pk)
                .values(
                    *plain,
                    episode_key=F("episode_id"),
                    speaker_key=F("speaker_id"),
                    episode_title=F("episode__title"),
                    speaker_name=F("speaker__name"),
                )
                .first()
            )
            if row is None:
                return None
            self._stored = {
                **{name: row[name] for name in plain},
                "episode": row["episode_key"],
                "speaker": row["speaker_key"],
                "names": {"episode": row["episode_title"], "speaker": row["speaker_name"]},
            }
        return self._stored

    def retract(self, reason, *, changed_by=None, via=""):
        """Take a published claim off the record, keeping its number and permalink."""
        if not reason.strip():
            raise ValidationError(
                {"retraction_reason": "Say why the claim is retracted: readers will see it."}
            )
        self.status = ClaimStatus.RETRACTED
        self.retraction_reason = reason.strip()
        self.save(changed_by=changed_by, via=via)

    @staticmethod
    def public_q(prefix=""):
        """The condition for a public claim, usable across a relation (`prefix="claims__"`)."""
        return Q(
            **{f"{prefix}status": Status.PUBLISHED, f"{prefix}episode__status": Status.PUBLISHED}
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

    @property
    def public_corrections(self):
        return [
            Correction(
                at=datetime.datetime.fromisoformat(entry["at"]),
                note=entry["note"],
                fields=tuple(entry["fields"]),
            )
            for entry in self.corrections
        ]

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
        problems = record_problems(
            self.label, self.stored_state(), self.tracked_state(), self.correction_note
        )
        errors = {**problems, **errors}
        if errors:
            raise ValidationError(errors)


class RevisionKind(models.TextChoices):
    CREATED = "created", "Created"
    EDITED = "edited", "Edited"
    CORRECTED = "corrected", "Corrected"
    RETRACTED = "retracted", "Retracted"


def revision_kind(before, after, correction_note):
    if before is None:
        return RevisionKind.CREATED
    if after["status"] == ClaimStatus.RETRACTED:
        return RevisionKind.RETRACTED
    if before["status"] == ClaimStatus.PUBLISHED and correction_note.strip():
        return RevisionKind.CORRECTED
    return RevisionKind.EDITED


def revision_note(kind, claim):
    if kind == RevisionKind.RETRACTED:
        return claim.retraction_reason
    return claim.correction_note.strip()


def correction_entry(changes, note, at):
    """One entry of Claim.corrections: what readers are told about a correction."""
    fields = [name for name in changes if name != "status"]
    return {"at": at.isoformat(), "note": note.strip(), "fields": fields}


class ClaimRevision(models.Model):
    """One change to a claim: who, when, how, what changed, and the editor's note."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="revisions")
    kind = models.CharField(max_length=10, choices=RevisionKind.choices)
    changes = models.JSONField(
        default=dict, help_text="What changed: {field: [before, after]}, people by name."
    )
    note = models.TextField(
        blank=True, help_text="The correction note or the retraction reason, if any."
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="claim_revisions",
    )
    via = models.CharField(
        max_length=200, blank=True, help_text='How: "admin", "import of ledger.csv", …'
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=RevisionKind.values), name="claim_revision_kind_valid"
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=(RevisionKind.CORRECTED, RevisionKind.RETRACTED))
                | ~Q(note=""),
                name="claim_revision_correction_has_note",
            ),
        ]
        indexes = [
            # A claim's history in the admin: its revisions, newest first.
            models.Index(fields=("claim", "-created_at"), name="claim_revision_history"),
        ]

    def __str__(self):
        return (
            f"{self.get_kind_display()} claim {self.claim.label}, {self.created_at:%Y-%m-%d %H:%M}"
        )

    def get_absolute_url(self):
        return reverse("admin:claims_claim_change", args=[self.claim_id])
