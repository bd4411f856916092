"""A claim's history: the rules a change to the public record must keep, and its revisions.

Every write to a claim goes through a ClaimChange — Claim.save(), so the admin
and code in a shell, and the importer, which builds one per row and writes in
bulk — so the rules (corrections, retractions, permalinks) are written once.
"""

import datetime
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import get_text_list

from claims.choices import ClaimStatus, Resolution
from claims.predictions import PREDICTION_FIELDS, prediction_problems

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
    *PREDICTION_FIELDS,
)
# Once a claim is public, changing what it says or who said it is a correction,
# made in the open: it needs a note, and readers see the note.
CORRECTED_FIELDS = ("excerpt", "type", "attribution", "speaker", "unresolved_label")
# A claim's permalink is made of these; once public they never change.
PERMALINK_FIELDS = ("episode", "number")
# Relations, which a claim's state holds by id and its history by name.
RELATIONS = ("episode", "speaker")
# What a write sets besides the tracked fields: by ClaimChange.apply() and
# Claim.refresh_derived_fields().
DERIVED_FIELDS = (
    "retracted_at",
    "corrections",
    "resolution_history",
    "search_context",
    "verification",
    "transcript_start",
    "transcript_end",
    "timestamp_from_transcript",
    "air_date",
    "episode_published",
    "podcast_id",
)


def field_words(names) -> str:
    """ "excerpt and unresolved label": fields as a sentence names them."""
    return get_text_list([name.replace("_", " ") for name in names], "and")


def changed_fields(before: dict, after: dict) -> list[str]:
    """The tracked fields that differ between two states (see tracked_state)."""
    return [name for name in TRACKED_FIELDS if before[name] != after[name]]


def describe_changes(before: dict | None, after: dict) -> dict:
    """{field: [before, after]} for a revision, relations by name. `before` None: a new claim."""

    def shown(state, name):
        value = state["names"].get(name, state[name])
        # A revision is stored as JSON, which has no dates.
        return value.isoformat() if isinstance(value, datetime.date) else value

    if before is None:
        return {
            name: [None, shown(after, name)]
            for name in TRACKED_FIELDS
            if after[name] not in (None, "", [])
            and not (name == "resolution" and after[name] == Resolution.OPEN)
        }
    return {
        name: [shown(before, name), shown(after, name)] for name in changed_fields(before, after)
    }


def tracked_state(claim) -> dict:
    """The fields a claim's history tracks, relations by id, with their names for display."""
    state = {name: getattr(claim, name) for name in TRACKED_FIELDS if name not in RELATIONS}
    state["episode"] = claim.episode_id
    state["speaker"] = claim.speaker_id
    state["names"] = {
        "episode": claim.episode.title if claim.episode_id else None,
        "speaker": claim.speaker.name if claim.speaker_id else None,
    }
    return state


def stored_state(claim) -> dict | None:
    """tracked_state() of the claim as the database holds it; None for a new claim.

    One query, remembered on the claim until its next save or refresh_from_db().
    """
    if claim._state.adding or claim.pk is None:
        return None
    if claim._stored is None:
        plain = [name for name in TRACKED_FIELDS if name not in RELATIONS]
        row = (
            type(claim)
            ._default_manager.filter(pk=claim.pk)
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
        claim._stored = {
            **{name: row[name] for name in plain},
            "episode": row["episode_key"],
            "speaker": row["speaker_key"],
            "names": {"episode": row["episode_title"], "speaker": row["speaker_name"]},
        }
    return claim._stored


class RevisionKind(models.TextChoices):
    CREATED = "created", "Created"
    EDITED = "edited", "Edited"
    CORRECTED = "corrected", "Corrected"
    RETRACTED = "retracted", "Retracted"
    RESOLVED = "resolved", "Resolution changed"


# The revisions the public corrections log lists (claims/corrections.py).
LOGGED_KINDS = (RevisionKind.CORRECTED, RevisionKind.RETRACTED)


@dataclass(frozen=True)
class Correction:
    """A correction as readers see it (from Claim.public_corrections)."""

    at: datetime.datetime
    note: str
    fields: tuple[str, ...]

    @property
    def what(self) -> str:
        return field_words(self.fields)


class PublicHistory:
    """What readers see of a claim's history, from the copies the write path keeps on it."""

    @property
    def public_corrections(self) -> list[Correction]:
        return [
            Correction(
                at=datetime.datetime.fromisoformat(entry["at"]),
                note=entry["note"],
                fields=tuple(entry["fields"]),
            )
            for entry in self.corrections
        ]

    @property
    def public_resolutions(self) -> list[dict]:
        """Each change of outcome since publication: {"at", "resolution", "label", "note"}."""
        return [
            {
                **entry,
                "at": datetime.datetime.fromisoformat(entry["at"]),
                "label": Resolution(entry["resolution"]).label,
            }
            for entry in self.resolution_history
        ]


@dataclass
class ClaimChange:
    """One change to a claim: its tracked state before (None for a new claim) and after.

    `correction_note` is None while the note is not known yet (a model's clean(),
    before the form hands it over): the rules that need it wait for the save.
    `label` names a new claim in messages ("07"); a stored one goes by its number.
    """

    before: dict | None
    after: dict
    correction_note: str | None = ""
    label: str | None = None

    @classmethod
    def of(cls, claim, correction_note: str | None = "") -> "ClaimChange":
        """The change saving `claim` would make (one query for a stored claim, remembered)."""
        return cls(stored_state(claim), tracked_state(claim), correction_note, claim.label)

    @property
    def note(self) -> str:
        return (self.correction_note or "").strip()

    @property
    def is_on_record(self) -> bool:
        """Whether the claim was or becomes public (a draft's changes are the editors' own)."""
        return any(
            state and state["status"] != ClaimStatus.DRAFT for state in (self.before, self.after)
        )

    @cached_property
    def changes(self) -> dict:
        return describe_changes(self.before, self.after)

    @cached_property
    def kind(self) -> RevisionKind | None:
        """What the revision records; None when nothing tracked changes."""
        if not self.changes:
            return None
        if self.before is None:
            return RevisionKind.CREATED
        if self.after["status"] == ClaimStatus.RETRACTED:
            return RevisionKind.RETRACTED
        if self.before["status"] == ClaimStatus.PUBLISHED and self.note:
            corrected = set(self.changes) - {"status", *PREDICTION_FIELDS}
            if corrected or "resolution" not in self.changes:
                return RevisionKind.CORRECTED
        if self.before["status"] == ClaimStatus.PUBLISHED and "resolution" in self.changes:
            return RevisionKind.RESOLVED
        return RevisionKind.EDITED

    def problems(self) -> dict[str, str]:
        """Why this change may not be made to the public record, as {field: message}."""
        was = self.before["status"] if self.before else None
        if was in (None, ClaimStatus.DRAFT):
            if self.after["status"] == ClaimStatus.RETRACTED:
                return {
                    "status": "Only a published claim can be retracted: delete a draft instead."
                }
            return prediction_problems(self.after)
        if was == ClaimStatus.RETRACTED:
            if self.changes:
                return {
                    NON_FIELD_ERRORS: f"{self.claim_words} was retracted: it is kept as it was "
                    "and cannot be changed."
                }
            return {}
        return {**prediction_problems(self.after), **self.published_problems()}

    def published_problems(self) -> dict[str, str]:
        claim, changed, problems = self.claim_words, list(self.changes), {}
        for name in PERMALINK_FIELDS:
            if name in changed:
                problems[name] = (
                    f"{claim} is published: its {name} is part of its permalink and never "
                    "changes. Retract it and add a new claim instead."
                )
        if self.after["status"] == ClaimStatus.DRAFT:
            problems["status"] = (
                f"{claim} is published: it leaves the public record only by retraction, "
                "which keeps its number and permalink. Retract it instead of making it a draft."
            )
        if self.after["status"] == ClaimStatus.RETRACTED and set(changed) - {
            "status",
            "retraction_reason",
        }:
            problems[NON_FIELD_ERRORS] = (
                f"{claim} is retracted as it stands: save other changes first, or leave them."
            )
        reopened = "resolution" in changed and self.after["resolution"] == Resolution.OPEN
        if reopened and self.correction_note is not None and not self.note:
            problems["correction_note"] = (
                f"{claim} is published: say in a note why its outcome is withdrawn. Readers "
                "will see it with the claim."
            )
        corrected = [name for name in CORRECTED_FIELDS if name in changed]
        if corrected and self.correction_note is not None and not self.note:
            problems["correction_note"] = (
                f"{claim} is published: a change to its {field_words(corrected)} is a "
                "correction. Say what was wrong in a correction note; readers will see it "
                "with the claim."
            )
        return problems

    @property
    def claim_words(self) -> str:
        """ "Claim 07", by the number readers know it by; "This claim" before it has one."""
        label = f"{self.before['number']:02d}" if self.before else self.label
        return f"Claim {label}" if label else "This claim"

    def check(self) -> None:
        """Raise a ValidationError naming each rule the change breaks."""
        problems = self.problems()
        if problems:
            raise ValidationError(problems)

    def apply(self, claim, now: datetime.datetime) -> None:
        """Set what the change means beyond its fields: the public correction, the retraction time."""
        if self.kind == RevisionKind.CORRECTED:
            fields = [name for name in self.changes if name != "status"]
            entry = {"at": now.isoformat(), "note": self.note, "fields": fields}
            claim.corrections = [*claim.corrections, entry]
        if self.kind == RevisionKind.RETRACTED and claim.retracted_at is None:
            claim.retracted_at = now
        if self.kind == RevisionKind.RESOLVED:
            entry = {"at": now.isoformat(), "resolution": claim.resolution, "note": self.why}
            claim.resolution_history = [*claim.resolution_history, entry]
        if self.before is None or "timestamp" in self.changes:
            # Whose timestamp it is is decided with the transcript's time (claims/timing.py).
            claim.timestamp_from_transcript = None

    @property
    def why(self) -> str:
        """The revision's note: the retraction reason, the outcome's note, or the editor's."""
        if self.kind == RevisionKind.RETRACTED:
            return self.after["retraction_reason"]
        if self.kind == RevisionKind.RESOLVED and self.after["resolution"] != Resolution.OPEN:
            return self.after["resolution_note"]
        return self.note

    def revision(self, claim, *, changed_by=None, via: str = "") -> "ClaimRevision | None":
        """The unsaved revision that records this change; None when nothing tracked changed."""
        if self.kind is None:
            return None
        return ClaimRevision(
            claim=claim,
            kind=self.kind,
            changes=self.changes,
            note=self.why,
            changed_by=changed_by,
            via=via,
        )


class ClaimRevision(models.Model):
    """One change to a claim: who, when, how, what changed, and the editor's note."""

    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE, related_name="revisions")
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
        app_label = "claims"
        ordering = ("-created_at", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=RevisionKind.values), name="claim_revision_kind_valid"
            ),
            models.CheckConstraint(
                condition=~Q(
                    kind__in=(RevisionKind.CORRECTED, RevisionKind.RETRACTED, RevisionKind.RESOLVED)
                )
                | ~Q(note=""),
                name="claim_revision_correction_has_note",
            ),
        ]
        indexes = [
            # A claim's history in the admin: its revisions, newest first.
            models.Index(fields=("claim", "-created_at"), name="claim_revision_history"),
            # The corrections log and its feed (claims/corrections.py), newest first,
            # without reading past the created and edited revisions every claim has.
            models.Index(
                fields=("-created_at", "-id"),
                condition=Q(kind__in=LOGGED_KINDS),
                name="claim_revision_public_log",
            ),
        ]

    def __str__(self):
        return (
            f"{self.get_kind_display()} claim {self.claim.label}, {self.created_at:%Y-%m-%d %H:%M}"
        )

    def get_absolute_url(self):
        return reverse("admin:claims_claim_change", args=[self.claim_id])
