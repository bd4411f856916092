"""Keep each claim's copies of its episode and speaker in step with them.

A claim's search text holds its episode's title and its speaker's name, and its
verbatim check reads its episode's transcript. The episodes app knows nothing of
claims, so the work is done here, after a save, and only when one of those
fields really changed (RemembersLoadedValues).
"""

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.dispatch import receiver

from claims import counters
from claims.history import PERMALINK_FIELDS
from claims.links import refresh_contradictions
from claims.models import Claim, ClaimLink, ClaimReference, ClaimRevision
from claims.public_record import readers_see_change_to
from episodes.models import Appearance, Episode, Speaker, Transcript
from ledger.models import unseen_by_readers


@receiver(post_save, sender=Speaker, dispatch_uid="claims-speaker-renamed")
def speaker_saved(sender, instance: Speaker, created: bool, raw: bool = False, **kwargs) -> None:
    # A new speaker has no claims yet; raw saves (fixtures) are taken as they are.
    if created or raw:
        return
    if instance.has_changed("name"):
        # A renamed speaker must be found under the new name.
        with unseen_by_readers(not readers_see_change_to(instance)):
            Claim.objects.filter(speaker=instance).refresh_search_context()


@receiver(post_save, sender=Claim, dispatch_uid="claims-claim-counted")
def claim_saved(sender, instance: Claim, raw: bool = False, **kwargs) -> None:
    # In the save's transaction: the counts move with the claim or not at all.
    if not raw and instance.last_change is not None:
        before, after = instance.last_change.before, instance.last_change.after
        links = ClaimLink.objects.touching([instance])
        redrawn = set()
        if before and any(before[name] != after[name] for name in ("speaker", "episode")):
            # Its links may now join two claims of one speaker, or no longer do; and which
            # of the two is the later may have changed with its episode's date. First, so
            # that its speakers' moves are counted from the links as they now stand.
            with unseen_by_readers(not readers_see_change_to(instance)):
                redrawn = links.refresh_kept()[1]
        counters.claim_saved(instance.pk, before, after, redrawn)
        if before and any(before[name] != after[name] for name in ("status", "episode")):
            # Public now, or no longer: the claims it contradicts, or that contradict it.
            links.refresh_contradictions()
        if before and any(before[name] != after[name] for name in PERMALINK_FIELDS):
            # A draft moved or renumbered: the references it names list it elsewhere.
            with unseen_by_readers(not readers_see_change_to(instance)):
                ClaimReference.objects.filter(claim=instance).place()


@receiver(post_save, sender=ClaimRevision, dispatch_uid="claims-revision-counted")
def revision_saved(sender, instance: ClaimRevision, raw: bool = False, **kwargs) -> None:
    # Claim.save keeps its revision after the claim itself; the importer creates them
    # in bulk and recounts itself (claims.ledger_io.write).
    if not raw:
        counters.revision_saved(instance.claim.episode_id, instance.kind)


@receiver(post_save, sender=Episode, dispatch_uid="claims-episode-changed")
def episode_saved(sender, instance: Episode, created: bool, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    if created or instance.has_changed("status"):
        counters.episodes_changed_status([instance.pk])
    if created:
        return
    if instance.has_changed("podcast_id"):
        # Moved to another show: the show it left counts its claims no longer.
        counters.recount_podcasts({instance.loaded_value("podcast_id"), instance.podcast_id})
    claims = Claim.objects.filter(episode=instance)
    with unseen_by_readers(not readers_see_change_to(instance)):
        if instance.has_changed("title"):
            # A retitled episode must be found under its new title.
            claims.refresh_search_context()
        if instance.has_changed("air_date") or instance.has_changed("podcast_id"):
            # What its claims keep of it: their listings' dates, the podcasts' facet.
            claims.follow_episodes()
        if instance.has_changed("air_date"):
            # Speakers' and references' pages list its claims by air date, and speakers'
            # pages their appearances and the moves their claims' links tell.
            instance.appearances.date_from_episodes()
            links = ClaimLink.objects.touching_episodes([instance])
            counters.recount_speakers(links.refresh_kept()[1])
            ClaimReference.objects.filter(claim__episode=instance).place()


@receiver(post_save, sender=Transcript, dispatch_uid="claims-transcript-saved")
def transcript_saved(sender, instance: Transcript, raw: bool = False, **kwargs) -> None:
    # A new transcript too: the episode's claims may have been waiting for one.
    # New timings alone move the timestamps taken from them.
    if raw or not (instance.has_changed("text") or instance.has_changed("cues")):
        return
    with unseen_by_readers(not readers_see_change_to(instance)):
        Claim.objects.filter(episode_id=instance.episode_id).reverify(instance.text, instance.cues)


@receiver(post_delete, sender=Transcript, dispatch_uid="claims-transcript-deleted")
def transcript_deleted(sender, instance: Transcript, **kwargs) -> None:
    with unseen_by_readers(not readers_see_change_to(instance)):
        Claim.objects.filter(episode_id=instance.episode_id).reverify("")


@receiver(m2m_changed, sender=Claim.topics.through, dispatch_uid="claims-topics-counted")
def topics_linked(sender, instance, action, reverse: bool, pk_set, **kwargs) -> None:
    """claim.topics.add/remove/set/clear (the admin's form) or topic.claims.…: the topics'
    counts, if a published claim's links moved. The importer writes links in bulk and
    recounts itself (claims.ledger_io.write)."""
    if action == "pre_clear":
        # Cleared links are gone by post_clear, which names none: remember them now.
        instance._cleared = {*getattr(instance, "claims" if reverse else "topics").all()}
        return
    if action == "post_clear":
        pk_set = {linked.pk for linked in instance.__dict__.pop("_cleared", ())}
    elif action not in ("post_add", "post_remove"):
        return
    if not pk_set:
        return
    if reverse:
        counters.topics_changed(pk_set, [instance.pk])
    else:
        counters.topics_changed([instance.pk], pk_set)


@receiver(pre_save, sender=Appearance, dispatch_uid="claims-appearance-saving")
def appearance_saving(sender, instance: Appearance, raw: bool = False, **kwargs) -> None:
    # An editor may give an existing appearance another speaker: both are recounted.
    if not raw and instance.pk:
        before = Appearance.objects.filter(pk=instance.pk).values_list("speaker", flat=True)
        instance._speaker_before = before.first()


@receiver(post_save, sender=Appearance, dispatch_uid="claims-appearance-saved")
@receiver(post_delete, sender=Appearance, dispatch_uid="claims-appearance-deleted")
def appearance_changed(sender, instance: Appearance, raw: bool = False, **kwargs) -> None:
    # The admin's inline; the importer writes appearances in bulk and recounts itself.
    if not raw:
        before = instance.__dict__.pop("_speaker_before", None)
        counters.appearances_changed({instance.speaker_id, before} - {None})


@receiver(pre_save, sender=ClaimLink, dispatch_uid="claims-link-saving")
def link_saving(sender, instance: ClaimLink, raw: bool = False, **kwargs) -> None:
    # An editor may point an existing link at other claims, or change its relation.
    # Read after the save here and by the ledger's version (public_record), whichever first.
    instance._ends_before = ()
    if not raw and instance.pk:
        before = ClaimLink.objects.filter(pk=instance.pk).values_list("from_claim", "to_claim")
        instance._ends_before = before.first() or ()


@receiver(post_save, sender=ClaimLink, dispatch_uid="claims-link-saved")
@receiver(post_delete, sender=ClaimLink, dispatch_uid="claims-link-deleted")
def link_changed(sender, instance: ClaimLink, raw: bool = False, **kwargs) -> None:
    """Their speaker's count of moves, and whether the claims at its ends (now and
    before) are in a contradiction. The importer writes links in bulk and recounts itself."""
    if not raw:
        counters.recount_speakers({instance.shared_speaker_id})
        ends = {instance.from_claim_id, instance.to_claim_id}
        ends |= set(getattr(instance, "_ends_before", ()))
        refresh_contradictions(Claim.objects.filter(pk__in=ends))


@receiver(pre_save, sender=ClaimReference, dispatch_uid="claims-naming-saving")
def naming_saving(sender, instance: ClaimReference, raw: bool = False, **kwargs) -> None:
    # An editor may point an existing naming at another reference: both are recounted.
    if not raw and instance.pk:
        before = ClaimReference.objects.filter(pk=instance.pk).values_list("reference", flat=True)
        instance._reference_before = before.first()


@receiver(post_save, sender=ClaimReference, dispatch_uid="claims-naming-saved")
@receiver(post_delete, sender=ClaimReference, dispatch_uid="claims-naming-deleted")
def naming_changed(sender, instance: ClaimReference, raw: bool = False, **kwargs) -> None:
    """The claim's admin inline, or a claim deleted with its namings. The importer creates
    namings in bulk and recounts itself (claims.ledger_io.write)."""
    if not raw:
        before = instance.__dict__.pop("_reference_before", None)
        references = {instance.reference_id, before} - {None}
        counters.references_changed([instance.claim_id], references)
