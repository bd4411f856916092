"""A claim's topics and named references in the ledger file: checked, planned, written.

In JSON a claim lists `"topics": ["testing"]` and `"references": [{"role":
"recommends", "slug": "the-careful-deploy"}]`; in a CSV cell, one slug, or one
"role slug", per line. A claim that gives either has exactly those links of that
kind after the import; one that leaves it out keeps the links it had.
"""

import json
from collections import defaultdict

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug

from claims.ledger_io.formats import Problem
from claims.models import Claim, ClaimReference, Reference, Role, Topic
from ledger.models import ledger_changed

TopicLink = Claim.topics.through
BATCH_SIZE = 500
ROLES = ", ".join(Role.values)


def _slug(value: object, what: str) -> str:
    if not isinstance(value, str):
        shown = json.dumps(value, ensure_ascii=False, default=str)[:40]
        raise ValidationError(f"each {what} must be a slug written as text, not {shown}.")
    slug = value.strip()
    try:
        validate_slug(slug)
    except ValidationError:
        raise ValidationError(
            f"“{slug[:40]}” is not a {what}'s slug (letters, numbers, - and _ only)."
        ) from None
    return slug


def clean_topics(raw: object) -> list[str]:
    """Topic slugs, from a JSON list or a CSV cell of one per line."""
    slugs = []
    for item in raw if isinstance(raw, list) else str(raw).split():
        slug = _slug(item, "topic")
        if slug in slugs:
            raise ValidationError(f"“{slug}” is listed twice.")
        slugs.append(slug)
    return slugs


def clean_references(raw: object) -> list[tuple[str, str]]:
    """(role, slug) pairs, from a JSON list of {"role", "slug"} or "role slug" lines."""
    if isinstance(raw, list):
        if not all(isinstance(item, dict) and set(item) == {"role", "slug"} for item in raw):
            raise ValidationError('each reference must be an object: {"role": …, "slug": …}.')
        pairs = [(item["role"], item["slug"]) for item in raw]
    else:
        pairs = []
        for line in (line.strip() for line in str(raw).splitlines()):
            if line and len(line.split()) != 2:
                raise ValidationError(
                    f"“{line[:60]}” is not a role and a slug, like “recommends the-careful-deploy”."
                )
            if line:
                pairs.append(tuple(line.split()))
    cleaned = []
    for role, slug in pairs:
        if role not in Role.values:
            shown = role if isinstance(role, str) else json.dumps(role, default=str)
            raise ValidationError(f"“{str(shown)[:40]}” is not a role: one of {ROLES}.")
        pair = (role, _slug(slug, "reference"))
        if pair in cleaned:
            raise ValidationError(f"“{role} {pair[1]}” is listed twice.")
        cleaned.append(pair)
    return cleaned


def load_subjects(plan) -> None:
    """The topics and references the file names that the ledger has, and the links its
    claims have now: four queries."""
    claims = plan.incoming["claim"].values()
    topic_slugs = {*plan.incoming["topic"], *(s for v in claims for s in v.get("topics", ()))}
    plan.topics = {topic.slug: topic for topic in Topic.objects.filter(slug__in=topic_slugs)}
    reference_slugs = {
        *plan.incoming["reference"],
        *(slug for v in claims for _, slug in v.get("references", ())),
    }
    plan.references = {r.slug: r for r in Reference.objects.filter(slug__in=reference_slugs)}
    episodes = {claim.episode_id for claim in plan.claims.values()}
    plan.linked_topics, plan.linked_references = defaultdict(set), defaultdict(set)
    topic_links = TopicLink.objects.filter(claim__episode_id__in=episodes)
    for claim_id, slug in topic_links.values_list("claim_id", "topic__slug"):
        plan.linked_topics[claim_id].add(slug)
    named = ClaimReference.objects.filter(claim__episode_id__in=episodes)
    for claim_id, role, slug in named.values_list("claim_id", "role", "reference__slug"):
        plan.linked_references[claim_id].add((role, slug))
    plan.to_link = []


def plan_subjects(plan) -> None:
    plan.plan_simple("topic", plan.topics)
    plan.plan_simple("reference", plan.references)


def unknown_subjects(plan, values: dict, where: str) -> bool:
    """Whether the claim names a topic or reference that neither the file nor the ledger has."""
    missing = [("topic", "topics", slug) for slug in values.get("topics", ())]
    missing += [("reference", "references", slug) for _, slug in values.get("references", ())]
    known = {"topic": plan.topics, "reference": plan.references}
    found = False
    for kind, field, slug in missing:
        if slug in known[kind] or slug in plan.incoming[kind]:
            continue
        found = True
        if (kind, slug) not in plan.rejected:
            message = f"no {kind} “{slug}” in this file or in the ledger."
            plan.problems.append(Problem(where, field, message))
    return found


def changed_links(plan, key, values: dict, current: Claim | None) -> list[str]:
    """ "topics" and "references" if the file changes them; kept in the plan to write."""
    pk = current.pk if current else None
    changed = []
    if "topics" in values and set(values["topics"]) != plan.linked_topics[pk]:
        changed.append("topics")
    if "references" in values and set(values["references"]) != plan.linked_references[pk]:
        changed.append("references")
    if changed:
        plan.to_link.append((key, values, pk))
    return changed


def write_links(plan) -> tuple[set[int], set[int]]:
    """Give each claim the file changed exactly its links: new links in bulk, and one
    delete per claim that loses some. Returns the ids of the topics, and of the
    references, linked or unlinked."""
    if not plan.to_link:
        return set(), set()
    episode_ids = {plan.episodes[key[:2]].pk for key, _, _ in plan.to_link}
    claims = Claim.objects.filter(episode_id__in=episode_ids)
    claim_ids = {
        (episode_id, number): pk
        for pk, episode_id, number in claims.values_list("pk", "episode_id", "number")
    }
    new_topics, new_references, unlinked, unnamed = [], [], set(), set()
    for key, values, _ in plan.to_link:
        episode = plan.episodes[key[:2]]
        pk = claim_ids[(episode.pk, key[2])]
        if "topics" in values:
            before, after = plan.linked_topics[pk], set(values["topics"])
            if gone := before - after:
                TopicLink.objects.filter(claim_id=pk, topic__slug__in=gone).delete()
                unlinked |= gone
            new_topics += [
                TopicLink(claim_id=pk, topic_id=plan.topics[slug].pk) for slug in after - before
            ]
        if "references" in values:
            before, after = plan.linked_references[pk], set(values["references"])
            for role, slug in before - after:
                ClaimReference.objects.filter(claim_id=pk, role=role, reference__slug=slug).delete()
                unnamed.add(slug)
            place = {"air_date": episode.air_date, "episode": episode, "number": key[2]}
            new_references += [
                ClaimReference(claim_id=pk, reference=plan.references[slug], role=role, **place)
                for role, slug in after - before
            ]
    TopicLink.objects.bulk_create(new_topics, batch_size=BATCH_SIZE)
    ClaimReference.objects.bulk_create(new_references, batch_size=BATCH_SIZE)
    # Links are rows of their own: no claim's save tells readers' caches of them.
    ledger_changed()
    topics = {link.topic_id for link in new_topics} | set(
        Topic.objects.filter(slug__in=unlinked).values_list("pk", flat=True)
    )
    references = {naming.reference_id for naming in new_references} | set(
        Reference.objects.filter(slug__in=unnamed).values_list("pk", flat=True)
    )
    return topics, references
