"""Named references: the books, papers, tools and sites people mention, and how.

A claim names a reference in a role (it recommends, uses, criticises or merely
mentions it) through a ClaimReference; a claim may name one reference in two
roles, never twice in the same one.
"""

from django.db import models
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.urls import reverse

from claims.querysets import public_q
from episodes.models import Episode
from episodes.web import WebURLField, web_url_or_blank
from ledger.models import RecordQuerySet


class ReferenceKind(models.TextChoices):
    BOOK = "book", "book"
    PAPER = "paper", "paper"
    TOOL = "tool", "tool or product"
    COMPANY = "company", "company"
    WEBSITE = "website", "website"
    OTHER = "other", "other"


class Role(models.TextChoices):
    RECOMMENDS = "recommends", "recommends"
    USES = "uses", "uses"
    CRITICISES = "criticises", "criticises"
    MENTIONS = "mentions", "mentions"


# How a role reads after "…by": "Recommended by 3 people".
ROLE_PAST = {
    Role.RECOMMENDS: "recommended",
    Role.USES: "used",
    Role.CRITICISES: "criticised",
    Role.MENTIONS: "mentioned",
}


# A reference keeps this many of the people who named it, per role and overall: pages
# name them and say how many others there are ("recommended by Ada, Ben and 398 others").
KEPT_NAMERS = 10


# Roles in the order pages list them, as an expression to order by.
ROLE_ORDER = Case(
    *(When(role=role, then=Value(place)) for place, role in enumerate(Role.values)),
    output_field=IntegerField(),
)


class ReferenceQuerySet(RecordQuerySet):
    def named_publicly(self, role: str | None = None) -> QuerySet["Reference"]:
        """References a public claim names (in `role`, if given), most people first, from
        their kept counts (claims.counters): no claim or naming is read."""
        if not role:
            return self.filter(public_claim_count__gt=0).order_by(
                "-public_people_count", "title", "pk"
            )
        # A few thousand references at most: their kept counts for one role are sorted
        # as they are read (an index per role would be four more to keep).
        people = Cast(KT(f"public_namings__{role}__people"), IntegerField())
        return (
            self.filter(public_namings__has_key=role)
            .alias(role_people=people)
            .order_by("-role_people", "title", "pk")
        )

    def with_public_counts(self, role: str | None = None) -> QuerySet["Reference"]:
        """References named by at least one public claim (in `role`, if given), annotated
        with `people_count` (distinct identified speakers) and `claim_count`, counted from
        the namings: the API's, which lists every person; pages read named_publicly()."""
        condition = public_q(prefix="named_in__claim__")
        if role:
            condition &= Q(named_in__role=role)
        return self.filter(condition).annotate(
            # Unresolved voices have no speaker, and COUNT skips the NULLs.
            people_count=Count("named_in__claim__speaker", distinct=True),
            claim_count=Count("named_in__claim", distinct=True),
        )


class ClaimReferenceQuerySet(RecordQuerySet):
    def in_role_order(self) -> QuerySet["ClaimReference"]:
        """With their references, by role (recommends first), then by title."""
        return self.select_related("reference").order_by(ROLE_ORDER, "reference__title")

    def in_page_order(self) -> QuerySet["ClaimReference"]:
        """By role (recommends first), then their claims newest episodes first, each
        episode's in ledger order: a reference's page, read from claim_reference_page."""
        return self.order_by("role_rank", "-air_date", "episode_id", "number")

    def place(self) -> int:
        """Copy onto these namings their claims' places (ClaimReference.place_of), in one
        UPDATE: after a claim's episode or number, or an episode's air date, changed."""
        # Claim, which imports this module.
        claim_model = self.model._meta.get_field("claim").related_model
        claims = claim_model.objects.filter(pk=OuterRef("claim_id"))
        return self.update(
            air_date=Subquery(claims.values("episode__air_date")),
            episode=Subquery(claims.values("episode")),
            number=Subquery(claims.values("number")),
        )


class Reference(models.Model):
    kind = models.CharField(max_length=10, choices=ReferenceKind.choices)
    title = models.CharField(max_length=300, help_text="“The Careful Deploy”, “pytest”.")
    creator = models.CharField(
        max_length=200, blank=True, help_text="Optional: its author, maker or publisher."
    )
    url = WebURLField(
        "web address", max_length=500, blank=True, help_text="Optional: where readers find it."
    )
    slug = models.SlugField(
        max_length=100, unique=True, help_text="Its address: /references/<slug>/. Never reused."
    )
    # Kept by claims.counters with every public change; `manage.py recount` repairs them.
    # The public claims that name it, and the distinct identified people who did.
    public_claim_count = models.PositiveIntegerField("public claims", default=0, editable=False)
    public_people_count = models.PositiveIntegerField("people", default=0, editable=False)
    # Per role named publicly: {role: {"namings": public claims naming it so, "people": n,
    # "unresolved": bool, "speakers": [id…]}}, the speakers being the KEPT_NAMERS who named it so most often (ties by id).
    public_namings = models.JSONField(default=dict, editable=False)
    # The KEPT_NAMERS who named it most often in any role: pages name a bounded few.
    public_top_speakers = models.JSONField(default=list, editable=False)

    objects = ReferenceQuerySet.as_manager()

    class Meta:
        ordering = ("title",)
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ReferenceKind.values), name="reference_kind_valid"
            ),
            models.CheckConstraint(condition=web_url_or_blank("url"), name="reference_url_web"),
        ]
        indexes = [
            # /references/: those named publicly, most people first.
            models.Index(
                F("public_people_count").desc(),
                "title",
                "id",
                condition=Q(public_claim_count__gt=0),
                name="reference_by_people",
            ),
        ]

    def __str__(self):
        return f"{self.title} ({self.creator})" if self.creator else self.title

    def get_absolute_url(self):
        return reverse("claims:reference_detail", kwargs={"slug": self.slug})

    @property
    def public_naming_count(self) -> int:
        """Its public namings (a claim naming it in two roles, twice): its page's length."""
        return sum(naming["namings"] for naming in self.public_namings.values())


class ClaimReference(models.Model):
    claim = models.ForeignKey(
        "claims.Claim", on_delete=models.CASCADE, related_name="references_named"
    )
    reference = models.ForeignKey(Reference, on_delete=models.PROTECT, related_name="named_in")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MENTIONS)
    role_rank = models.GeneratedField(
        expression=ROLE_ORDER, output_field=models.PositiveSmallIntegerField(), db_persist=True
    )
    # Its claim's place in a listing, kept from the claim and its episode (place_of, and
    # place() when those move), so that a reference's page walks its index in page order
    # and reads the namings it shows, not every one to sort them.
    air_date = models.DateField(editable=False)
    episode = models.ForeignKey(
        Episode, on_delete=models.CASCADE, related_name="+", db_index=False, editable=False
    )
    number = models.PositiveIntegerField(editable=False)

    objects = ClaimReferenceQuerySet.as_manager()

    class Meta:
        ordering = ("claim", "reference", "role")
        verbose_name = "named reference"
        constraints = [
            models.UniqueConstraint(
                fields=("claim", "reference", "role"), name="claim_reference_role_unique"
            ),
            models.CheckConstraint(
                condition=Q(role__in=Role.values), name="claim_reference_role_valid"
            ),
        ]
        indexes = [
            # Recounting references (claims.counters), and the API: each one's namings.
            models.Index(fields=("reference", "role"), name="claim_reference_by_reference"),
            # A reference's page: its namings in page order (in_page_order).
            models.Index(
                fields=("reference", "role_rank", "-air_date", "episode", "number"),
                name="claim_reference_page",
            ),
        ]

    def __str__(self):
        return f"{self.get_role_display()} {self.reference}"

    def save(self, *args, **kwargs):
        self.air_date, self.episode_id, self.number = self.place_of(self.claim)
        super().save(*args, **kwargs)

    @staticmethod
    def place_of(claim) -> tuple:
        """Where `claim` is listed: its episode's air date, its episode, its number."""
        return claim.episode.air_date, claim.episode_id, claim.number
