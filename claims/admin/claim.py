"""The claims list and a claim's page: publishing, retracting, history."""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.safestring import mark_safe

from claims.admin.columns import ClaimColumns
from claims.admin.forms import ClaimForm, RetractForm
from claims.admin.importing import ImportViews
from claims.admin.inlines import ClaimRevisionInline
from claims.counters import recount_claims
from claims.history import PERMALINK_FIELDS
from claims.models import Claim, ClaimStatus, Verification
from claims.pagination import CappedPaginator


@admin.register(Claim)
class ClaimAdmin(ClaimColumns, ImportViews, admin.ModelAdmin):
    form = ClaimForm
    list_display = (
        "label",
        "type",
        "short_excerpt",
        "voice_display",
        "episode",
        "status",
        "in_transcript",
    )
    list_display_links = ("label", "short_excerpt")
    list_filter = (
        "status",
        "type",
        "attribution",
        "verification",
        ("episode__podcast", admin.RelatedFieldListFilter),
    )
    list_select_related = ("episode", "speaker")
    search_fields = ("excerpt", "speaker__name")
    autocomplete_fields = ("episode", "speaker")
    ordering = ("-episode__air_date", "episode_id", "number")
    inlines = (ClaimRevisionInline,)
    # No "unpublish": a published claim leaves the record only by retraction.
    actions = ("publish", "retract")
    list_per_page = 50
    # A full COUNT(*) over hundreds of thousands of claims on every changelist load
    # is the slow part: no total, and the paginator counts at most 10,000 rows.
    show_full_result_count = False
    paginator = CappedPaginator

    def get_fieldsets(self, request, obj=None):
        first = ["episode", "number", "type", "status"]
        if request.method == "POST" or (obj and obj.verification == Verification.NOT_FOUND):
            first.append("publish_unverified")
        fieldsets = [
            (None, {"fields": first}),
            ("The words", {"fields": ("excerpt", "summary", "timestamp", "verbatim_check")}),
            ("Who said it", {"fields": ("attribution", "speaker", "unresolved_label")}),
        ]
        if obj is not None and obj.status == ClaimStatus.PUBLISHED:
            fieldsets.append(
                (
                    "Correction",
                    {
                        "fields": ("correction_note",),
                        "description": "This claim is public. A change to its excerpt, type "
                        "or speaker is a correction, shown to readers with your note.",
                    },
                )
            )
        if obj is not None and obj.is_retracted:
            fieldsets.append(("Retraction", {"fields": ("retraction_reason", "retracted_at")}))
        fieldsets.append(
            ("Dates", {"fields": ("created_at", "updated_at"), "classes": ("collapse",)})
        )
        return fieldsets

    def get_readonly_fields(self, request, obj=None):
        readonly = ["verbatim_check", "created_at", "updated_at"]
        if obj is not None and obj.status != ClaimStatus.DRAFT:
            readonly += PERMALINK_FIELDS
        if obj is not None and obj.is_retracted:
            # Kept as it was: every other field of the form too.
            readonly += [name for name in self.form.Meta.fields if name not in PERMALINK_FIELDS]
            readonly += ["retraction_reason", "retracted_at"]
        return readonly

    def get_actions(self, request):
        # Published records are retracted, never bulk-deleted.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.status != ClaimStatus.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        form.save_claim(changed_by=request.user)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_import": self.has_import_permission(request)}
        return super().changelist_view(request, extra_context)

    def get_urls(self):
        return [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="claims_claim_import",
            ),
            path(
                "<path:object_id>/retract/",
                self.admin_site.admin_view(self.retract_view),
                name="claims_claim_retract",
            ),
            *super().get_urls(),
        ]

    @admin.display(description="voice", ordering="speaker__name")
    def voice_display(self, claim):
        return claim.voice

    @admin.display(description="verbatim", boolean=True, ordering="verification")
    def in_transcript(self, claim):
        """Found (yes), not found (no), or no transcript to check (unknown)."""
        return {Verification.FOUND: True, Verification.NOT_FOUND: False}.get(claim.verification)

    @admin.display(description="verbatim check")
    def verbatim_check(self, claim):
        if claim.verification == Verification.FOUND:
            return "Found word for word in the episode's transcript."
        if claim.verification == Verification.NOT_FOUND:
            return mark_safe(
                "<strong>Not found</strong> in the episode's transcript. Compare the excerpt "
                "with the transcript: readers are told it could not be verified."
            )
        return "No transcript to check against: add the episode's transcript to verify it."

    @admin.action(description="Publish selected claims", permissions=("change",))
    def publish(self, request, queryset):
        drafts = queryset.filter(status=ClaimStatus.DRAFT)
        unverified = drafts.filter(verification=Verification.NOT_FOUND)
        choice = request.POST.get("unverified")
        if choice is None and unverified.exists():
            return self.confirm_page(
                request,
                queryset,
                "admin/claims/claim/publish_unverified.html",
                "Publish claims not found in their transcripts?",
                unverified=unverified.select_related("episode", "speaker"),
            )
        if choice == "skip":
            drafts = drafts.exclude(verification=Verification.NOT_FOUND)
        published = drafts.publish(changed_by=request.user, via="admin")
        recount_claims(Claim.objects.filter(pk__in=published).only("episode", "speaker"))
        self.message_user(request, f"Published {len(published)} claim(s).")

    @admin.action(description="Retract selected claims…", permissions=("change",))
    def retract(self, request, queryset):
        published = queryset.filter(status=ClaimStatus.PUBLISHED)
        if not published.exists():
            self.message_user(
                request, "Only published claims can be retracted.", level=messages.WARNING
            )
            return None
        form = RetractForm(request.POST if "reason" in request.POST else None)
        if not form.is_valid():
            return self.confirm_page(
                request,
                queryset,
                "admin/claims/claim/retract.html",
                "Retract claims",
                claims=published.select_related("episode", "speaker"),
                form=form,
            )
        claims = list(published.select_related("episode", "speaker"))
        for claim in claims:
            claim.retract(form.cleaned_data["reason"], changed_by=request.user, via="admin")
        self.message_user(request, f"Retracted {len(claims)} claim(s).")
        return None

    def confirm_page(self, request, queryset, template, title, **context):
        """An intermediate page whose form repeats the action on the same selection."""
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),
                "title": title,
                "opts": self.model._meta,
                "action": request.POST["action"],
                "selected": queryset.values_list("pk", flat=True),
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "form_url": reverse("admin:claims_claim_changelist"),
                **context,
            },
        )

    def retract_view(self, request, object_id):
        claim = get_object_or_404(Claim.objects.select_related("episode", "speaker"), pk=object_id)
        if not self.has_change_permission(request, claim):
            raise PermissionDenied
        change_url = reverse("admin:claims_claim_change", args=[claim.pk])
        if claim.status != ClaimStatus.PUBLISHED:
            self.message_user(
                request, "Only a published claim can be retracted.", level=messages.WARNING
            )
            return redirect(change_url)
        form = RetractForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            claim.retract(form.cleaned_data["reason"], changed_by=request.user, via="admin")
            self.message_user(request, f"Retracted claim {claim.label}.")
            return redirect(change_url)
        return TemplateResponse(
            request,
            "admin/claims/claim/retract.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Retract claim {claim.label}",
                "opts": self.model._meta,
                "original": claim,
                "claims": [claim],
                "form": form,
                "form_url": request.path,
            },
        )
