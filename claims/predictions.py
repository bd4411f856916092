"""Predictions kept to account: a prediction's horizon, its resolution and the sources for it.

Only prediction claims carry these fields; the database refuses them on any
other type. A horizon is stored as the last day of the period the speaker named
("by 2027" is 31 December 2027), with that period's precision, so "overdue" and
"due soon" are one comparison an index answers. A resolution other than open is
dated, explained and sourced. The sources are kept twice: as rows
(PredictionSource), and as a copy on the claim that the write path
(claims.history) keeps in step, so that every claim card shows them without a
query and the database can refuse an outcome without one. The public predictions
are also counted by outcome and horizon: claims.prediction_counts.
"""

import calendar
import datetime
import re

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Length
from django.utils import timezone

from claims.choices import GATE, ClaimType, Due, HorizonPrecision, Resolution
from episodes.web import validate_web_url, web_url_or_blank

# A prediction's horizon and outcome, as a claim's history tracks them (claims.history).
PREDICTION_FIELDS = (
    "horizon",
    "horizon_precision",
    "resolution",
    "resolved_on",
    "resolution_note",
    "resolution_sources",
)
# Empty, as every claim but a resolved prediction has them.
UNRESOLVED_STATE = {"resolution": Resolution.OPEN, "resolved_on": None, "resolution_note": ""}
# Open predictions whose horizon falls within this many days are "due soon".
DUE_SOON_DAYS = 90
_HORIZON = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")


def _not_blank(field: str):
    return models.lookups.GreaterThan(Length(Func(F(field), Value(" \t\r\n"), function="TRIM")), 0)


class PredictionFields(models.Model):
    """What a prediction claim adds to a claim. Claim inherits it; see the module's docstring."""

    horizon = models.DateField(
        null=True,
        blank=True,
        help_text="By when the speaker said it would happen: the last day of the period "
        "they named. Leave empty when they stated no horizon.",
    )
    horizon_precision = models.CharField(
        max_length=5,
        choices=HorizonPrecision.choices,
        blank=True,
        help_text="Whether they named a day, a month or a year. Empty with no horizon.",
    )
    # Open is every claim's resting state, so that retyping a claim as a prediction
    # needs no second write; any other value belongs to predictions only.
    resolution = models.CharField(
        max_length=20, choices=Resolution.choices, default=Resolution.OPEN
    )
    resolved_on = models.DateField(
        "resolved on", null=True, blank=True, help_text="When the outcome was known."
    )
    resolution_note = models.TextField(
        "editor's note on the outcome",
        blank=True,
        help_text="Why this outcome, in a sentence or two. Readers see it with the claim.",
    )
    # [{"url": …, "title": …}]: the copy of the PredictionSource rows (see the module).
    resolution_sources = models.JSONField(default=list, blank=True, editable=False)
    # Public record of resolution changes on a published claim, oldest first:
    # [{"at": ISO time, "resolution": …, "note": …}]. The revisions hold the full history.
    resolution_history = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        abstract = True

    @property
    def is_prediction(self) -> bool:
        return self.type == ClaimType.PREDICTION

    @property
    def is_resolved(self) -> bool:
        return self.resolution != Resolution.OPEN

    def resolve(
        self, resolution: str, *, on=None, note="", sources=(), why="", changed_by=None, via=""
    ) -> None:
        """Set the outcome and save through the write path (Claim.save), which refuses an
        outcome without a date, a note and a source. `sources` are {"url", "title"}; `why`
        is needed to reopen a published prediction."""
        reopened = resolution == Resolution.OPEN
        self.resolution = resolution
        self.resolved_on = None if reopened else on
        self.resolution_note = "" if reopened else note.strip()
        self.resolution_sources = [] if reopened else clean_sources(sources)
        self.save(changed_by=changed_by, via=via, correction_note=why)

    @property
    def due(self) -> str | None:
        """Where an open prediction's horizon falls from today (a Due value); None once resolved."""
        return self.due_on(timezone.localdate())

    def due_on(self, today: datetime.date) -> str | None:
        if not self.is_prediction or self.is_resolved:
            return None
        return due_of(self.horizon, today)

    @property
    def horizon_words(self) -> str:
        """ "by 3 March 2027", "by March 2027", "by 2027", or "no horizon stated"."""
        return horizon_words(self.horizon, self.horizon_precision)

    @property
    def horizon_text(self) -> str:
        """The horizon as a ledger file writes it: "2027", "2027-03" or "2027-03-03"."""
        return horizon_text(self.horizon, self.horizon_precision)


PREDICTION_CONSTRAINTS = [
    models.CheckConstraint(
        condition=Q(type=ClaimType.PREDICTION)
        | Q(
            horizon__isnull=True,
            horizon_precision="",
            resolution=Resolution.OPEN,
            resolved_on__isnull=True,
            resolution_note="",
            resolution_sources=[],
        ),
        name="claim_prediction_fields_only_on_predictions",
    ),
    models.CheckConstraint(
        condition=Q(horizon__isnull=True, horizon_precision="")
        | Q(horizon__isnull=False, horizon_precision__in=HorizonPrecision.values),
        name="claim_horizon_has_precision",
    ),
    models.CheckConstraint(
        condition=Q(resolution__in=Resolution.values), name="claim_resolution_valid"
    ),
    models.CheckConstraint(
        condition=Q(
            resolution=Resolution.OPEN,
            resolved_on__isnull=True,
            resolution_note="",
            resolution_sources=[],
        )
        | Q(
            ~Q(resolution=Resolution.OPEN),
            ~Q(resolution_sources=[]),
            _not_blank("resolution_note"),
            resolved_on__isnull=False,
        ),
        name="claim_resolution_dated_explained_and_sourced",
    ),
]

PREDICTION_INDEXES = [
    # Open public predictions by horizon: /predictions/'s sections, the admin's queue and
    # the claims browser's ?due= pass, which finds every column it counts here (the rest
    # are constants that SQLite wants held too). Led by the outcome, it drew SQLite's
    # browser page of overdue predictions to fetching and sorting every one by air date.
    models.Index(
        fields=(
            "horizon",
            "id",
            "attribution",
            "speaker",
            "episode",
            "type",
            "resolution",
            "status",
            *GATE,
        ),
        condition=Q(status="published", type=ClaimType.PREDICTION, resolution=Resolution.OPEN),
        name="claim_published_prediction",
    ),
    # A type's claims, newest first, read from the index alone: the claims browser's
    # passes for a type (?type=, ?due=, the Due facet) find every column they count
    # here (claims/facets.py), not in a claims row each (docs/performance.md). The
    # admin filters on status and type.
    models.Index(
        fields=(
            "status",
            "type",
            "id",
            "resolution",
            "horizon",
            "attribution",
            "speaker",
            "episode",
            *GATE,
        ),
        name="claim_status_type",
    ),
    # /predictions/'s latest resolved of each outcome: read 20 rows down, not ranked in full.
    models.Index(
        fields=("resolution", "-resolved_on", "-id", *GATE),
        condition=Q(status="published", type=ClaimType.PREDICTION),
        name="claim_published_resolved",
    ),
    # A speaker's track record counted by outcome, from the index alone and from their
    # predictions only: through their other indexes, every one of a prolific speaker's
    # claims was read for its type (24-53 ms for 32,000 claims at a million).
    models.Index(
        fields=("speaker", "resolution", "episode", *GATE),
        condition=Q(status="published", type=ClaimType.PREDICTION),
        name="claim_speaker_outcomes",
    ),
    # A podcast's predictions (/predictions/?podcast=), counted from the index alone and
    # each list's found without reading the show's other predictions from the table
    # (biggest show, SQLite at a million: 170 -> 58 ms of SQL in six queries).
    models.Index(
        fields=("episode", "resolution", "horizon", "id", *GATE, "type", "status"),
        condition=Q(status="published", type=ClaimType.PREDICTION),
        name="claim_episode_predictions",
    ),
    # A speaker's track record: their latest resolved predictions, 50 rows read down.
    models.Index(
        fields=("speaker", "-resolved_on", "-id", *GATE),
        condition=Q(status="published", type=ClaimType.PREDICTION) & ~Q(resolution="open"),
        name="claim_speaker_resolved",
    ),
]


class PredictionSource(models.Model):
    """A source for a prediction's outcome. Written only by the claim's write path."""

    claim = models.ForeignKey(
        "claims.Claim", on_delete=models.CASCADE, related_name="source_records"
    )
    position = models.PositiveSmallIntegerField(default=0)
    url = models.URLField("address", max_length=1000, validators=[validate_web_url])
    title = models.CharField(max_length=300)

    class Meta:
        ordering = ("claim", "position")
        constraints = [
            models.UniqueConstraint(
                fields=("claim", "position"), name="prediction_source_position_unique"
            ),
            models.CheckConstraint(
                condition=web_url_or_blank("url") & ~Q(url=""),
                name="prediction_source_is_web_url",
            ),
            models.CheckConstraint(
                condition=_not_blank("title"), name="prediction_source_has_title"
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return self.url


def prediction_problems(after: dict) -> dict[str, str]:
    """{field: message} for what a claim's state (history.tracked_state) breaks of the rules:
    a horizon and an outcome belong to predictions; an outcome is dated, explained and
    sourced. The constraints above refuse the same."""
    problems = {}
    if after["type"] != ClaimType.PREDICTION:
        if after["horizon"] is not None or any(
            after[name] != value for name, value in UNRESOLVED_STATE.items()
        ):
            problems["type"] = (
                "Only a prediction has a horizon or an outcome: clear them, or keep the "
                "type “prediction”."
            )
        return problems
    if (after["horizon"] is None) != (not after["horizon_precision"]):
        problems["horizon_precision"] = (
            "Say whether the horizon is a day, a month or a year; leave both empty when "
            "no horizon was stated."
        )
    if after["resolution"] == Resolution.OPEN:
        if after["resolved_on"] or after["resolution_note"] or after["resolution_sources"]:
            problems["resolution"] = (
                "An open prediction has no resolution date, note or sources: clear them, "
                "or choose its outcome."
            )
        return problems
    if after["resolved_on"] is None:
        problems["resolved_on"] = "Say when the outcome was known."
    if not after["resolution_note"].strip():
        problems["resolution_note"] = "Say why this is the outcome: readers will see it."
    if not after["resolution_sources"]:
        problems["resolution_sources"] = (
            "An outcome needs at least one source (its address and title)."
        )
    return problems


def clean_sources(sources) -> list[dict]:
    """[{"url", "title"}] from what an editor or a file gives; ValidationError if any is wrong."""
    cleaned = []
    for source in sources:
        url, title = str(source.get("url") or "").strip(), str(source.get("title") or "").strip()
        if not url and not title:
            continue
        try:
            validate_web_url(url)
        except ValidationError:
            raise ValidationError(f"“{url}” is not an http or https address.") from None
        if not title:
            raise ValidationError(f"The source {url} needs a title.")
        cleaned.append({"url": url, "title": title})
    return cleaned


def sync_source_records(claims) -> None:
    """Make the PredictionSource rows of `claims` match their copies: two queries in all."""
    claims = list(claims)
    if not claims:
        return
    PredictionSource.objects.filter(claim__in=claims).delete()
    PredictionSource.objects.bulk_create(
        PredictionSource(claim=claim, position=position, url=source["url"], title=source["title"])
        for claim in claims
        for position, source in enumerate(claim.resolution_sources)
    )


def parse_horizon(text: str) -> tuple[datetime.date | None, str]:
    """(last day of the period, precision) from "2027", "2027-03" or "2027-03-03"; blank: none."""
    text = str(text or "").strip()
    if not text:
        return None, ""
    match = _HORIZON.match(text)
    if not match or (match[3] and not match[2]):
        raise ValidationError(f"“{text}” is not a horizon: write 2027, 2027-03 or 2027-03-15.")
    year, month, day = (int(part) if part else None for part in match.groups())
    try:
        if day:
            return datetime.date(year, month, day), HorizonPrecision.DAY
        if month:
            last = calendar.monthrange(year, month)[1]
            return datetime.date(year, month, last), HorizonPrecision.MONTH
        return datetime.date(year, 12, 31), HorizonPrecision.YEAR
    except (ValueError, calendar.IllegalMonthError):
        raise ValidationError(f"“{text}” is not a date.") from None


def end_of_period(day: datetime.date, precision: str) -> datetime.date:
    """The last day of the month or year `day` falls in, as `precision` says."""
    if precision == HorizonPrecision.YEAR:
        return datetime.date(day.year, 12, 31)
    if precision == HorizonPrecision.MONTH:
        return datetime.date(day.year, day.month, calendar.monthrange(day.year, day.month)[1])
    return day


def horizon_text(horizon: datetime.date | None, precision: str) -> str:
    if horizon is None:
        return ""
    formats = {HorizonPrecision.YEAR: "%Y", HorizonPrecision.MONTH: "%Y-%m"}
    return horizon.strftime(formats.get(precision, "%Y-%m-%d"))


def horizon_words(horizon: datetime.date | None, precision: str) -> str:
    if horizon is None:
        return "no horizon stated"
    if precision == HorizonPrecision.YEAR:
        return f"by {horizon.year}"
    if precision == HorizonPrecision.MONTH:
        return f"by {horizon:%B} {horizon.year}"
    return f"by {horizon.day} {horizon:%B} {horizon.year}"


def due_of(horizon: datetime.date | None, today: datetime.date) -> str:
    if horizon is None:
        return Due.NO_HORIZON
    if horizon < today:
        return Due.OVERDUE
    return Due.SOON if horizon <= today + datetime.timedelta(days=DUE_SOON_DAYS) else Due.LATER


def due_q(due: str, today: datetime.date) -> Q:
    """The open predictions whose horizon falls `due` (a Due value) from `today`."""
    return Q(type=ClaimType.PREDICTION) & open_due_q(due, today)


def open_due_q(due: str, today: datetime.date) -> Q:
    """due_q() for rows of predictions only: claims of that type, or PredictionCounts."""
    soon = today + datetime.timedelta(days=DUE_SOON_DAYS)
    conditions = {
        Due.OVERDUE: Q(horizon__lt=today),
        Due.SOON: Q(horizon__gte=today, horizon__lte=soon),
        Due.LATER: Q(horizon__gt=soon),
        Due.NO_HORIZON: Q(horizon__isnull=True),
    }
    return Q(resolution=Resolution.OPEN) & conditions[due]
