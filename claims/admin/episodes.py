"""The episodes and speakers admin, extended with what claims add to them."""

from django.contrib import admin
from django.db.models import Count

from claims.admin.inlines import ClaimInline
from claims.models import Claim
from episodes.admin import EpisodeAdmin, SpeakerAdmin
from episodes.models import Episode, Speaker

# The episodes app's admin knows nothing of claims: here an episode's page gains
# its ledger of claims, and the lists of episodes and speakers their claim counts.
admin.site.unregister((Episode, Speaker))


@admin.register(Speaker)
class SpeakerWithClaimsAdmin(SpeakerAdmin):
    list_display = (*SpeakerAdmin.list_display, "claim_total")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    @admin.display(description="claims (all statuses)", ordering="claim_total")
    def claim_total(self, speaker):
        return speaker.claim_total


@admin.register(Episode)
class EpisodeWithClaimsAdmin(EpisodeAdmin):
    list_display = (*EpisodeAdmin.list_display, "claim_total")
    # Who was on it, then what they said.
    inlines = (*EpisodeAdmin.inlines, ClaimInline)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    def save_formset(self, request, form, formset, change):
        if formset.model is not Claim:
            return super().save_formset(request, form, formset, change)
        # Each claim's history records who changed it.
        formset.save_claims(changed_by=request.user)
        return None

    @admin.display(description="claims", ordering="claim_total")
    def claim_total(self, episode):
        return episode.claim_total
