"""Keep each claim's copies of its episode and speaker in step with them.

A claim's search text holds its episode's title and its speaker's name, and its
verbatim check reads its episode's transcript. The episodes app knows nothing of
claims, so the work is done here, after a save, and only when one of those
fields really changed (RemembersLoadedValues).
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from claims import counters
from claims.models import Claim
from claims.public_record import readers_see_change_to
from episodes.models import Episode, Speaker, Transcript
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
        counters.claim_saved(instance.last_change.before, instance.last_change.after)


@receiver(post_save, sender=Episode, dispatch_uid="claims-episode-changed")
def episode_saved(sender, instance: Episode, created: bool, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    if created or instance.has_changed("status"):
        counters.episodes_changed_status([instance.pk])
    if created:
        return
    claims = Claim.objects.filter(episode=instance)
    with unseen_by_readers(not readers_see_change_to(instance)):
        if instance.has_changed("title"):
            # A retitled episode must be found under its new title.
            claims.refresh_search_context()


@receiver(post_save, sender=Transcript, dispatch_uid="claims-transcript-saved")
def transcript_saved(sender, instance: Transcript, raw: bool = False, **kwargs) -> None:
    # A new transcript too: the episode's claims may have been waiting for one.
    if raw or not instance.has_changed("text"):
        return
    with unseen_by_readers(not readers_see_change_to(instance)):
        Claim.objects.filter(episode_id=instance.episode_id).reverify(instance.text)


@receiver(post_delete, sender=Transcript, dispatch_uid="claims-transcript-deleted")
def transcript_deleted(sender, instance: Transcript, **kwargs) -> None:
    with unseen_by_readers(not readers_see_change_to(instance)):
        Claim.objects.filter(episode_id=instance.episode_id).reverify("")
