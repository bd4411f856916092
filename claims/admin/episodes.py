"""The episodes and speakers admin, extended with what claims add to them."""

from django.contrib import admin
from django.db.models import Count

from claims.admin.inlines import ClaimInline
from claims.counters import episodes_changed_status
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
    inlines = (ClaimInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    def save_formset(self, request, form, formset, change):
        if formset.model is not Claim:
            return super().save_formset(request, form, formset, change)
        # Each claim's history records who changed it.
        formset.save_claims(changed_by=request.user)
        return None

    # The episodes app's actions, then the public counts they move.
    @admin.action(description=EpisodeAdmin.publish.short_description, permissions=("change",))
    def publish(self, request, queryset):
        super().publish(request, queryset)
        episodes_changed_status(queryset.values_list("pk", flat=True))

    @admin.action(description=EpisodeAdmin.unpublish.short_description, permissions=("change",))
    def unpublish(self, request, queryset):
        super().unpublish(request, queryset)
        episodes_changed_status(queryset.values_list("pk", flat=True))

    @admin.display(description="claims", ordering="claim_total")
    def claim_total(self, episode):
        return episode.claim_total
