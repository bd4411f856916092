"""/references/ and each reference's page: what people named, who named it and how.

People are identified speakers, counted once each however many claims they made:
"Recommended by 3 people". Unresolved voices are shown but never counted as people.
"""

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404, render
from django.utils.text import Truncator

from claims.models import Claim, ClaimReference, Reference, ReferenceKind, Role
from claims.pagination import CappedPaginator, Exactly
from claims.references import ROLE_ORDER, ROLE_PAST
from claims.views import page_of

REFERENCES_PER_PAGE = 30
REFERENCE_CLAIMS_PER_PAGE = 50
# What a claim card never shows, as Claim.objects.for_listing() leaves out.
HEAVY_CLAIM_FIELDS = ("episode__transcript", "episode__summary", "search_context", "search_vector")


@dataclass
class Naming:
    """How one role of a reference was named: the distinct people, and whether any
    unresolved voice named it so too."""

    role: Role
    people: list = field(default_factory=list)
    by_unresolved_voice: bool = False

    @property
    def past(self) -> str:
        return ROLE_PAST[self.role]


def public_namings(references) -> QuerySet[ClaimReference]:
    return ClaimReference.objects.filter(Claim.public_q(prefix="claim__"), reference__in=references)


def namings_of(references: list[Reference]) -> None:
    """Give each reference its `namings` (a Naming per role, in role order) and `people`
    (the distinct identified speakers who named it): one query for the whole page."""
    rows = (
        public_namings(references)
        .values_list("reference_id", "role", "claim__speaker__slug", "claim__speaker__name")
        .distinct()
        .order_by("reference_id", "role", "claim__speaker__name")
    )
    by_reference = {reference.pk: {} for reference in references}
    people = {reference.pk: {} for reference in references}
    for reference_id, role, slug, name in rows:
        naming = by_reference[reference_id].setdefault(role, Naming(Role(role)))
        if slug is None:
            naming.by_unresolved_voice = True
        else:
            person = {"slug": slug, "name": name}
            naming.people.append(person)
            people[reference_id].setdefault(slug, person)
    for reference in references:
        found = by_reference[reference.pk]
        reference.namings = [found[role] for role in Role.values if role in found]
        reference.people = sorted(people[reference.pk].values(), key=lambda p: p["name"])


def chosen_filters(request) -> tuple[dict, list[str]]:
    """The kind and role the reader chose, and a message for each value that is neither."""
    chosen, problems = {}, []
    for name, choices, what in (
        ("kind", ReferenceKind, "a kind of reference"),
        ("role", Role, "a role (recommends, uses, criticises or mentions)"),
    ):
        value = request.GET.get(name, "")
        if value in choices.values:
            chosen[name] = choices(value)
        elif value:
            shown = Truncator(value.replace("\x00", " ")).chars(40)
            problems.append(f"“{shown}” is not {what}, so it was ignored.")
    return chosen, problems


def reference_list(request):
    chosen, problems = chosen_filters(request)
    references = Reference.objects.all()
    if "kind" in chosen:
        references = references.filter(kind=chosen["kind"])
    paginator = CappedPaginator(
        references.with_public_counts(role=chosen.get("role")).order_by(
            "-people_count", "title", "pk"
        ),
        REFERENCES_PER_PAGE,
        count=Exactly(references.count_named_publicly(role=chosen.get("role"))),
    )
    page = paginator.get_page(request.GET.get("page"))
    # The page's references themselves: as a queryset, namings_of() would repeat the
    # whole ranking as a subquery (half a second at a million claims).
    page.object_list = list(page.object_list)
    namings_of(page.object_list)
    context = {
        "page": page,
        "chosen": chosen,
        "problems": problems,
        "kinds": ReferenceKind.choices,
        "roles": Role.choices,
    }
    return render(request, "claims/reference_list.html", context)


def reference_detail(request, slug):
    # Only references named in a public claim have a page.
    reference = get_object_or_404(Reference.objects.with_public_counts(), slug=slug)
    namings = (
        public_namings([reference])
        .select_related("claim__episode__podcast", "claim__speaker")
        .defer(*(f"claim__{name}" for name in HEAVY_CLAIM_FIELDS))
        .order_by(ROLE_ORDER, "-claim__episode__air_date", "claim__episode_id", "claim__number")
    )
    page = page_of(request, namings, REFERENCE_CLAIMS_PER_PAGE)
    namings_of([reference])
    return render(request, "claims/reference_detail.html", {"reference": reference, "page": page})
