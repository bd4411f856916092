"""Readers' reports of a problem with a published claim, which editors read and close."""

from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Length
from django.urls import reverse
from django.utils import timezone

# Long enough to quote the right words back; short enough to read in the admin's list.
MESSAGE_MAX_LENGTH = 2000


class ReportKind(models.TextChoices):
    WRONG_WORDS = "wrong_words", "The words are not what was said"
    WRONG_SPEAKER = "wrong_speaker", "Someone else said it"
    WRONG_TYPE = "wrong_type", "The claim type is wrong"
    WRONG_TIMESTAMP = "wrong_timestamp", "The time in the episode is wrong"
    OTHER = "other", "Something else"


class ReportStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class ReportQuerySet(models.QuerySet):
    def open(self) -> "ReportQuerySet":
        """Reports no editor has closed yet."""
        return self.filter(status=ReportStatus.OPEN)

    def close(self, note: str = "") -> int:
        """Close the open reports among these, with an editor's note if given; returns how many."""
        fields = {"status": ReportStatus.CLOSED, "closed_at": timezone.now()}
        if note:
            fields["editor_note"] = note
        return self.open().update(**fields)


class Report(models.Model):
    """A reader's report that something about a published claim is wrong."""

    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField("problem", max_length=20, choices=ReportKind.choices)
    message = models.TextField(help_text="The reader's words. Never shown publicly.")
    email = models.EmailField(
        blank=True, help_text="Given by the reader to hear back; never shown publicly."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    status = models.CharField(max_length=6, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    editor_note = models.TextField(
        blank=True,
        help_text="For editors only: what was done about it (a correction, or why nothing).",
    )

    objects = ReportQuerySet.as_manager()

    class Meta:
        app_label = "claims"
        ordering = ("-created_at", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ReportKind.values), name="report_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ReportStatus.values), name="report_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status=ReportStatus.OPEN, closed_at__isnull=True)
                | Q(status=ReportStatus.CLOSED, closed_at__isnull=False),
                name="report_closed_has_closed_at",
            ),
            models.CheckConstraint(
                condition=models.lookups.GreaterThan(
                    Length(Func(F("message"), Value(" \t\r\n"), function="TRIM")), 0
                )
                & models.lookups.LessThanOrEqual(Length("message"), MESSAGE_MAX_LENGTH),
                name="report_message_length",
            ),
        ]
        indexes = [
            # The editors' queue: open reports, newest first (the admin's list, Report.objects.open()).
            models.Index(fields=("status", "-created_at"), name="report_status_created"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} — claim {self.claim.label}"

    def save(self, *args, **kwargs):
        # Closing stamps the time; reopening clears it, so the two never disagree.
        if self.status == ReportStatus.CLOSED and self.closed_at is None:
            self.closed_at = timezone.now()
        elif self.status == ReportStatus.OPEN:
            self.closed_at = None
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("admin:claims_report_change", args=[self.pk])
