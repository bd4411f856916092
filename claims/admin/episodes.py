"""The episodes and speakers admin, extended with what claims add to them."""

from django.contrib import admin

from claims.admin.inlines import ClaimInline
from claims.counters import episodes_changed_status
from claims.models import Claim
from episodes.admin import EpisodeAdmin, SpeakerAdmin
from episodes.models import Episode, Speaker

# The episodes app's admin knows nothing of claims: here an episode's page gains
# its ledger of claims, and the lists of episodes and speakers their claim counts.
admin.site.unregister((Episode, Speaker))


# The lists show the counts each record keeps (claims.counters): counted live, every
# page of the list, its count and its date hierarchy would join every claim.
@admin.register(Speaker)
class SpeakerWithClaimsAdmin(SpeakerAdmin):
    list_display = (*SpeakerAdmin.list_display, "public_claim_count")


@admin.register(Episode)
class EpisodeWithClaimsAdmin(EpisodeAdmin):
    list_display = (*EpisodeAdmin.list_display, "published_claim_count")
    inlines = (ClaimInline,)

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
