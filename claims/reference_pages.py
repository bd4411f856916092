"""/references/ and each reference's page: what people named, who named it and how.

People are identified speakers, counted once each however many claims they made:
"Recommended by 3 people". Unresolved voices are shown but never counted as people.

The pages read what each reference keeps (claims.counters): its counts, exact, and the
few people who named it most often (KEPT_NAMERS), so the most-named reference costs
what the least does. The API still lists every person (namings_of).
"""

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404, render
from django.utils.text import Truncator

from claims.listed_counts import ListedKind, listed_count
from claims.models import Claim, ClaimReference, Reference, ReferenceKind, Role
from claims.pagination import CLAIMS_PER_PAGE, CappedPaginator, Exactly
from claims.querysets import UNLISTED, UNSHOWN_ON_CARDS
from claims.references import KEPT_NAMERS, ROLE_PAST
from episodes.models import Speaker

REFERENCES_PER_PAGE = 30


@dataclass
class Naming:
    """How one role of a reference was named: how many distinct people, those of them
    listed (all, or on pages the busiest few), and whether any unresolved voice named
    it so too."""

    role: Role
    people: list = field(default_factory=list)
    people_count: int = 0
    by_unresolved_voice: bool = False

    @property
    def past(self) -> str:
        return ROLE_PAST[self.role]

    @property
    def others(self) -> int:
        return self.people_count - len(self.people)


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
            naming.people_count += 1
            people[reference_id].setdefault(slug, person)
    for reference in references:
        found = by_reference[reference.pk]
        reference.namings = [found[role] for role in Role.values if role in found]
        reference.people = sorted(people[reference.pk].values(), key=lambda p: p["name"])


def kept_namings_of(references: list[Reference]) -> None:
    """Give each reference its `namings` and `people` (the busiest few who named it, and
    `people_others`, how many more) from its kept counts: one query, for their names.

    One Speaker per person, however often listed, so each link is reversed once.
    """
    kept = [reference.public_namings.get(role) for reference in references for role in Role]
    ids = {pk for naming in kept if naming for pk in naming["speakers"]}
    ids |= {pk for reference in references for pk in reference.public_top_speakers}
    people = Speaker.objects.filter(pk__in=ids).only("slug", "name").in_bulk()
    for reference in references:
        reference.namings = [
            Naming(
                Role(role),
                people=[people[pk] for pk in naming["speakers"] if pk in people],
                people_count=naming["people"],
                by_unresolved_voice=naming["unresolved"],
            )
            for role, naming in ((role, reference.public_namings.get(role)) for role in Role)
            if naming
        ]
        reference.people = [people[pk] for pk in reference.public_top_speakers if pk in people]
        reference.people_others = reference.public_people_count - len(reference.people)


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
    references = references.named_publicly(role=chosen.get("role"))
    count = listed_count(ListedKind.REFERENCES) if not chosen else references.count()
    paginator = CappedPaginator(references, REFERENCES_PER_PAGE, count=Exactly(count))
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    kept_namings_of(page.object_list)
    context = {
        "page": page,
        "chosen": chosen,
        "problems": problems,
        "kinds": ReferenceKind.choices,
        "roles": Role.choices,
        "kept_namers": KEPT_NAMERS,
    }
    return render(request, "claims/reference_list.html", context)


def reference_detail(request, slug):
    # Only references named in a public claim have a page.
    reference = get_object_or_404(Reference.objects.named_publicly(), slug=slug)
    namings = (
        public_namings([reference])
        .select_related("claim__episode__podcast", "claim__speaker")
        .defer(*(f"claim__{name}" for name in (*UNLISTED, *UNSHOWN_ON_CARDS)))
        .in_page_order()
    )
    count = Exactly(reference.public_naming_count)
    paginator = CappedPaginator(namings, CLAIMS_PER_PAGE, count=count)
    page = paginator.get_page(request.GET.get("page"))
    kept_namings_of([reference])
    context = {"reference": reference, "page": page, "kept_namers": KEPT_NAMERS}
    return render(request, "claims/reference_detail.html", context)
