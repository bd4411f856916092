"""Linked claims in the ledger file: a claim's `linked_claims`, each naming the other claim
by its podcast, episode and number ("example-show/pilot/3"), as claims have no ids in a file.

In JSON a list of {"relation", "claim", "note"}; in a CSV cell one link a line,
"contradicts example-show/pilot/3 an optional note". Import adds the links a
file gives and updates their notes; a link the file leaves out stays (links are
removed in the admin). Export writes a published claim's public links to other
claims in the same document, so every export imports.
"""

import re
from collections import defaultdict

from django.core.exceptions import ValidationError

from claims.choices import Relation
from claims.ledger_io.formats import Problem, join
from claims.models import Claim, ClaimLink

FIELD = "linked_claims"
_REFERENCE = re.compile(r"^([-a-zA-Z0-9_]+)/([-a-zA-Z0-9_]+)/([0-9]{1,9})$")
NOTE_LENGTH = ClaimLink._meta.get_field("note").max_length


def clean_linked_claims(raw) -> list[dict]:
    """[{"relation", "claim": (podcast, episode, number), "note"}] from the file's value."""
    if isinstance(raw, str):
        lines = [line.strip() for line in raw.splitlines() if line.strip()]
        raw = [
            dict(zip(("relation", "claim", "note"), line.split(None, 2), strict=False))
            for line in lines
        ]
    if not isinstance(raw, list) or not all(isinstance(link, dict) for link in raw):
        raise ValidationError(
            'must be a list of links: {"relation": "contradicts", "claim": "podcast/episode/3"}.'
        )
    links, seen = [], set()
    for link in raw:
        relation, reference, note = (link.get(k, "") for k in ("relation", "claim", "note"))
        if unknown := sorted(set(link) - {"relation", "claim", "note"}):
            raise ValidationError(f"unknown key in a link: {join(unknown)}.")
        if relation not in Relation.values:
            raise ValidationError(f"“{relation}” is not one of {join(Relation.values)}.")
        target = _REFERENCE.match(reference) if isinstance(reference, str) else None
        if target is None:
            raise ValidationError(
                f"“{reference}” does not name a claim: write podcast/episode/number, "
                "e.g. example-show/pilot/3."
            )
        if not isinstance(note, str) or len(note) > NOTE_LENGTH or "\x00" in note:
            raise ValidationError(f"a link's note is text of at most {NOTE_LENGTH} characters.")
        key = (target[1], target[2], int(target[3]))
        if (relation, key) in seen:
            raise ValidationError(f"names “{reference}” twice as {relation}.")
        seen.add((relation, key))
        links.append({"relation": relation, "claim": key, "note": note.strip()})
    return links


def name(key) -> str:
    return f"{key[0]}/{key[1]}/{key[2]}"


def ledger_claim_ids(keys) -> dict:
    """{(podcast, episode, number): claim id} for those of `keys` the ledger holds; one query."""
    keys = set(keys)
    if not keys:
        return {}
    rows = Claim.objects.filter(
        episode__podcast__slug__in={key[0] for key in keys},
        episode__slug__in={key[1] for key in keys},
        number__in={key[2] for key in keys},
    ).values_list("episode__podcast__slug", "episode__slug", "number", "pk")
    return {row[:3]: row[3] for row in rows if row[:3] in keys}


def plan_links(plan) -> None:
    """Check each claim's links against the file and the ledger; plan what to write."""
    wanted = {
        key: values[FIELD] for key, values in plan.incoming["claim"].items() if FIELD in values
    }
    targets = {link["claim"] for links in wanted.values() for link in links}
    ids = ledger_claim_ids({*wanted, *targets})
    existing = {
        (link.from_claim_id, link.to_claim_id, link.relation): link
        for link in ClaimLink.objects.touching(ids.values())
    }
    plan.links_to_create, plan.links_to_update, given = [], [], {}
    for key, links in wanted.items():
        where = plan.where["claim"][key]
        for link in links:
            target, relation = link["claim"], link["relation"]
            problem = _link_problem(plan, key, target, relation, ids, existing, given)
            if problem:
                plan.problems.append(Problem(where, FIELD, problem))
                continue
            given[(key, target, relation)] = where
            current = existing.get((ids.get(key), ids.get(target), relation))
            if current is None:
                plan.links_to_create.append((key, target, relation, link["note"]))
                plan.report.created["link"] += 1
            elif current.note != link["note"]:
                current.note = link["note"]
                plan.links_to_update.append(current)
                plan.report.updated["link"] += 1
                plan.report.changes.append(f"link {name(key)} {relation} {name(target)}: note")
            else:
                plan.report.unchanged["link"] += 1


def _link_problem(plan, key, target, relation, ids, existing, given) -> str:
    if target == key:
        return f"a claim cannot be linked to itself ({relation} {name(target)})."
    if target not in plan.incoming["claim"] and target not in ids:
        return f"no claim “{name(target)}” in this file or in the ledger to link to."
    if (target, key, relation) in given:
        return (
            f"{name(target)} already {relation} this claim at {given[(target, key, relation)]}: "
            "a link is made once, from either claim."
        )
    if (ids.get(target), ids.get(key), relation) in existing and key in ids and target in ids:
        return f"in the ledger, {name(target)} already {relation} this claim: a link is made once."
    return ""


def write_links(plan) -> set[int]:
    """Create and update the planned links, once their claims are written: a few queries.
    Returns the ids of the claims at the ends of the links created, which the file may
    have left otherwise unchanged."""
    if not plan.links_to_create and not plan.links_to_update:
        return set()
    ids = ledger_claim_ids({key for link in plan.links_to_create for key in link[:2]})
    ClaimLink.objects.bulk_create(
        ClaimLink(from_claim_id=ids[key], to_claim_id=ids[target], relation=relation, note=note)
        for key, target, relation, note in plan.links_to_create
    )
    ClaimLink.objects.bulk_update(plan.links_to_update, ["note"])
    return {ids[key] for link in plan.links_to_create for key in link[:2]}


def exported_links(claims) -> dict[int, list[dict]]:
    """{claim id: its `linked_claims` entries} for the public links among `claims`
    (a queryset), each claim's in the order of the claims they name. One query."""
    rows = (
        ClaimLink.objects.public()
        .filter(from_claim__in=claims.values("pk"), to_claim__in=claims.values("pk"))
        .order_by()
        .values_list(
            "from_claim_id",
            "relation",
            "to_claim__episode__podcast__slug",
            "to_claim__episode__slug",
            "to_claim__number",
            "note",
        )
    )
    by_claim = defaultdict(list)
    for claim_id, relation, *target, note in sorted(
        rows, key=lambda row: (row[0], *row[2:5], Relation.values.index(row[1]))
    ):
        by_claim[claim_id].append({"relation": relation, "claim": name(target), "note": note})
    return by_claim


def csv_cell(links: list[dict]) -> str:
    return "\n".join(f"{link['relation']} {link['claim']} {link['note']}".strip() for link in links)
