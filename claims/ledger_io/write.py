"""Writing a checked plan: in bulk, through the claims' write path (claims.history)."""

from django.utils import timezone

from claims import counters
from claims.history import (
    DERIVED_FIELDS,
    PERMALINK_FIELDS,
    RELATIONS,
    TRACKED_FIELDS,
    ClaimChange,
)
from claims.ledger_io.appearances import write_appearances
from claims.ledger_io.formats import TRANSCRIPT_FIELDS
from claims.ledger_io.links import write_links as write_linked_claims
from claims.ledger_io.plan import BATCH_SIZE, Plan
from claims.ledger_io.subjects import write_links as write_topics_and_references
from claims.models import Claim, ClaimLink, ClaimRevision, Reference, Topic
from claims.predictions import sync_source_records
from episodes.models import Episode, Podcast, Speaker, Transcript

# What an import may change on a claim that exists: not its permalink, by which it is found.
CLAIM_UPDATE_FIELDS = (
    *(name for name in TRACKED_FIELDS if name not in PERMALINK_FIELDS),
    *DERIVED_FIELDS,
    "updated_at",
)
# Fields of a record that are records of their own, written after it (write_appearances).
WRITTEN_APART = {"appearances"}
# The claim fields an import sets straight from a claim's state (history.tracked_state).
CLAIM_FIELDS_FROM_STATE = tuple(name for name in TRACKED_FIELDS if name not in RELATIONS)


def write_plan(plan: Plan) -> None:
    """Write what `plan` found to create and update: a few queries per batch of claims."""
    write_records(plan, "podcast", Podcast, {})
    write_records(plan, "speaker", Speaker, {})
    write_records(plan, "topic", Topic, {})
    write_records(plan, "reference", Reference, {})
    new_episodes = write_records(
        plan, "episode", Episode, {"podcast": lambda values: plan.podcasts[values["podcast"]]}
    )
    write_appearances(plan.episodes, plan.speakers, plan.appearances_to_write)
    now = timezone.now()
    created = [new_claim(plan, values, change, now) for values, change in plan.to_create["claim"]]
    updated = [change_claim(plan, *entry, now) for entry in plan.to_update["claim"]]
    total = len(created) + len(updated)
    for start in range(0, len(created), BATCH_SIZE):
        Claim.objects.bulk_create(created[start : start + BATCH_SIZE])
        plan.progress("Writing claims", min(start + BATCH_SIZE, len(created)), total)
    for start in range(0, len(updated), BATCH_SIZE):
        batch = updated[start : start + BATCH_SIZE]
        Claim.objects.bulk_update(batch, CLAIM_UPDATE_FIELDS)
        plan.progress("Writing claims", len(created) + start + len(batch), total)
    changes = [change for _, change in plan.to_create["claim"]]
    changes += [change for _, _, change in plan.to_update["claim"]]
    revisions = [
        change.revision(claim, changed_by=plan.changed_by, via=plan.via)
        for claim, change in zip(created + updated, changes, strict=True)
    ]
    ClaimRevision.objects.bulk_create(revisions, batch_size=BATCH_SIZE)
    linked = write_linked_claims(plan)
    sync_source_records(
        claim
        for claim, change in zip(created + updated, changes, strict=True)
        if "resolution_sources" in change.changes
    )
    relinked = write_topics_and_references(plan)
    recount_written(plan, created + updated, new_episodes, linked, *relinked)


def recount_written(plan: Plan, claims, new_episodes, linked, topics, references) -> None:
    """Count again what the import moved: the claims' episodes, speakers, topics,
    references and predictions, the topics and references it linked or unlinked, and
    what links keep of the claims (`linked`: those at the ends of the links it made)."""
    episode_ids = {claim.episode_id for claim in claims}
    counters.recount_episodes(episode_ids | new_episodes)
    # Links of claims that changed speaker, date or status, and links written in bulk
    # (between claims the file may have left as they were): what they keep.
    moved = set()
    for links in (
        *map(ClaimLink.objects.touching_episodes, counters.link_batches(episode_ids)),
        *map(ClaimLink.objects.touching, counters.link_batches(linked)),
    ):
        moved |= links.refresh_kept()[1]
        links.refresh_contradictions()
    # Appearances were replaced in bulk: those removed were recounted as they went
    # (claims.signals), those written are recounted here.
    counters.recount_speakers(
        moved
        | {claim.speaker_id for claim in claims}
        | {change.before["speaker"] for _, _, change in plan.to_update["claim"]}
        | {
            plan.speakers[entry["speaker"]].pk
            for entries in plan.appearances_to_write.values()
            for entry in entries
        }
    )
    # By episode, not by claim: a large import names fewer episodes than claims.
    counters.recount_topics(topics | counters.topics_of_episodes(episode_ids))
    counters.recount_references(references | counters.references_of_episodes(episode_ids))
    counters.recount_predictions(
        counters.prediction_keys_of(Claim.objects.filter(episode__in=episode_ids))
        | counters.prediction_keys(change.before for _, _, change in plan.to_update["claim"])
    )


def write_records(plan: Plan, kind: str, model, relations: dict) -> set[int]:
    """Create new podcasts, speakers or episodes in bulk; save changed ones one by one
    (a renamed speaker or retitled episode updates its claims' search text).
    Returns the ids of the records created."""
    objects = []
    for values in plan.to_create[kind]:
        fields = {
            name: value
            for name, value in values.items()
            if name not in relations and name not in WRITTEN_APART
        }
        fields.update({name: get(values) for name, get in relations.items()})
        transcript = {
            field: fields.pop(name) for name, field in TRANSCRIPT_FIELDS.items() if name in fields
        }
        obj = model(**fields)
        if kind == "episode":
            # Kept on the episode even when empty, so its claims read it without a query.
            obj.transcript = Transcript(episode=obj, **transcript)
        objects.append(obj)
    model.objects.bulk_create(objects, batch_size=BATCH_SIZE)
    if kind == "episode":
        transcripts = [
            obj.transcript for obj in objects if obj.transcript.text or obj.transcript.is_public
        ]
        Transcript.objects.bulk_create(transcripts, batch_size=BATCH_SIZE)
    known = {
        "podcast": plan.podcasts,
        "speaker": plan.speakers,
        "topic": plan.topics,
        "reference": plan.references,
        "episode": plan.episodes,
    }[kind]
    for obj in objects:
        known[(obj.podcast.slug, obj.slug) if kind == "episode" else obj.slug] = obj
    for obj, values, changed in plan.to_update[kind]:
        if TRANSCRIPT_FIELDS.keys() & set(changed):
            save_transcript_from(obj, values, set(changed))
        for name in changed:
            if name not in TRANSCRIPT_FIELDS and name not in WRITTEN_APART:
                setattr(obj, name, values[name])
        obj.save()
    return {obj.pk for obj in objects}


def save_transcript_from(episode, values: dict, changed: set) -> None:
    """The transcript's fields a file changed. Cues say where in the text each starts:
    new text without them has none."""
    text = cues = None
    if {"transcript", "transcript_cues"} & changed:
        text = values.get("transcript", episode.transcript_text)
        kept = [] if "transcript" in changed else episode.transcript_cues
        cues = values.get("transcript_cues", kept)
    public = values["transcript_public"] if "transcript_public" in changed else None
    episode.save_transcript(text, cues, is_public=public)


def new_claim(plan: Plan, values: dict, change: ClaimChange, now) -> Claim:
    claim = Claim(
        episode=plan.episodes[(values["podcast"], values["episode"])],
        speaker=plan.speakers[values["speaker"]] if values["speaker"] else None,
        **{name: change.after[name] for name in CLAIM_FIELDS_FROM_STATE},
    )
    change.apply(claim, now)
    take_timestamp_source(claim, values)
    claim.refresh_derived_fields()
    return claim


def take_timestamp_source(claim: Claim, values: dict) -> None:
    """The file's word on whose timestamp it is, when it says (claims/timing.py)."""
    if values.get("timestamp_from_transcript") is not None:
        claim.timestamp_from_transcript = values["timestamp_from_transcript"]


def change_claim(plan: Plan, claim: Claim, values: dict, change: ClaimChange, now) -> Claim:
    claim.speaker = plan.speakers[values["speaker"]] if values["speaker"] else None
    for name in CLAIM_FIELDS_FROM_STATE:
        setattr(claim, name, change.after[name])
    change.apply(claim, now)
    take_timestamp_source(claim, values)
    claim.updated_at = now
    claim.refresh_derived_fields()
    return claim
