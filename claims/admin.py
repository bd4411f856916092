from django import forms
from django.contrib import admin
from django.template.defaultfilters import truncatechars

from claims.models import Claim
from episodes.models import Status


class ClaimForm(forms.ModelForm):
    class Meta:
        model = Claim
        fields = (
            "episode",
            "number",
            "type",
            "status",
            "excerpt",
            "summary",
            "timestamp",
            "attribution",
            "speaker",
            "unresolved_label",
        )
        widgets = {
            "excerpt": forms.Textarea(attrs={"rows": 4, "cols": 60}),
            "summary": forms.TextInput(attrs={"size": 40}),
        }


class ClaimInline(admin.TabularInline):
    model = Claim
    form = ClaimForm
    fields = (
        "number",
        "type",
        "excerpt",
        "attribution",
        "speaker",
        "unresolved_label",
        "timestamp",
        "summary",
        "status",
    )
    ordering = ("number",)
    autocomplete_fields = ("speaker",)
    extra = 1
    show_change_link = True


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    form = ClaimForm
    list_display = ("label", "type", "short_excerpt", "voice_display", "episode", "status")
    list_display_links = ("label", "short_excerpt")
    list_filter = (
        "status",
        "type",
        "attribution",
        ("episode__podcast", admin.RelatedFieldListFilter),
    )
    list_select_related = ("episode", "speaker")
    search_fields = ("excerpt", "speaker__name")
    autocomplete_fields = ("episode", "speaker")
    readonly_fields = ("created_at", "updated_at")
    ordering = ("-episode__air_date", "episode_id", "number")
    fieldsets = (
        (None, {"fields": ("episode", "number", "type", "status")}),
        ("The words", {"fields": ("excerpt", "summary", "timestamp")}),
        ("Who said it", {"fields": ("attribution", "speaker", "unresolved_label")}),
        ("History", {"fields": ("created_at", "updated_at"), "classes": ("collapse",)}),
    )
    actions = ("publish", "unpublish")
    list_per_page = 50
    # A full COUNT(*) over hundreds of thousands of claims on every changelist load
    # is the slow part; the paginator still counts the filtered rows.
    show_full_result_count = False

    def get_actions(self, request):
        # Published records are unpublished, never bulk-deleted.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.status == Status.PUBLISHED:
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="no.", ordering="number")
    def label(self, claim):
        return claim.label

    @admin.display(description="excerpt")
    def short_excerpt(self, claim):
        return truncatechars(claim.excerpt, 90)

    @admin.display(description="voice", ordering="speaker__name")
    def voice_display(self, claim):
        return claim.voice

    @admin.action(description="Publish selected claims", permissions=("change",))
    def publish(self, request, queryset):
        updated = queryset.update(status=Status.PUBLISHED)
        self.message_user(request, f"Published {updated} claim(s).")

    @admin.action(description="Unpublish selected claims", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.update(status=Status.DRAFT)
        self.message_user(request, f"Unpublished {updated} claim(s).")
