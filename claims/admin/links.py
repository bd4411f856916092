"""A claim's links to other claims, curated on the claim's own page."""

from django.contrib import admin

from claims.models import ClaimLink


class LinksFromClaimInline(admin.TabularInline):
    """Links made from this claim: "this claim contradicts …"."""

    model = ClaimLink
    fk_name = "from_claim"
    fields = ("relation", "to_claim", "note")
    autocomplete_fields = ("to_claim",)
    extra = 0
    verbose_name = "link to another claim"
    verbose_name_plural = (
        "Linked claims: this claim supports, contradicts, refines, repeats or responds to …"
    )

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("to_claim__episode")


class LinksToClaimInline(admin.TabularInline):
    """Links made from other claims to this one, editable here too: "… contradicts this claim"."""

    model = ClaimLink
    fk_name = "to_claim"
    fields = ("from_claim", "relation", "note")
    autocomplete_fields = ("from_claim",)
    extra = 0
    verbose_name = "link from another claim"
    verbose_name_plural = "Linked from other claims: … supports, contradicts, refines, repeats or responds to this claim"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("from_claim__episode")
