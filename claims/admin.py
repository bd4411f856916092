from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.shortcuts import get_object_or_404, redirect
from django.template.defaultfilters import filesizeformat, truncatechars
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from claims import ledger_io, verbatim
from claims.history import ClaimChange, stored_state
from claims.models import Claim, ClaimRevision, ClaimStatus, Verification
from claims.pagination import CappedPaginator
from claims.pending import PendingImport
from episodes.admin import EpisodeAdmin, SpeakerAdmin
from episodes.models import Episode, Speaker

# The admin reads an upload whole, twice (check, then import); bigger files go
# through `manage.py import_ledger`, which has no such limit.
MAX_ADMIN_IMPORT_BYTES = 5 * 1024 * 1024
# Importing writes podcasts, speakers and episodes as well as claims.
IMPORT_PERMISSIONS = tuple(
    f"{app}.{action}_{model}"
    for app, model in (
        ("claims", "claim"),
        ("episodes", "episode"),
        ("episodes", "podcast"),
        ("episodes", "speaker"),
    )
    for action in ("add", "change")
)


class ClaimForm(forms.ModelForm):
    correction_note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Needed to change the excerpt, type or speaker of a published claim. "
        "Readers see it with the claim: say what was wrong.",
    )
    publish_unverified = forms.BooleanField(
        required=False,
        label="Publish unverified",
        help_text="Publish although the excerpt was not found in the episode's transcript.",
    )

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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Retraction asks for a reason, so it has its own action; a retracted
        # claim keeps its status (and the form shows it as it is).
        if "status" in self.fields and self.instance.status != ClaimStatus.RETRACTED:
            self.fields["status"].choices = [
                choice for choice in ClaimStatus.choices if choice[0] != ClaimStatus.RETRACTED
            ]

    def clean(self):
        cleaned = super().clean()
        episode = cleaned.get("episode") or getattr(self.instance, "_episode_for_checks", None)
        if episode is None and self.instance.episode_id:
            episode = self.instance.episode
        excerpt = cleaned.get("excerpt")
        if cleaned.get("status") == ClaimStatus.PUBLISHED and episode is not None and excerpt:
            stored = stored_state(self.instance)
            going_public = (
                stored is None
                or stored["status"] != ClaimStatus.PUBLISHED
                or stored["excerpt"] != excerpt
            )
            not_found = verbatim.check(excerpt, episode.transcript) == Verification.NOT_FOUND
            if going_public and not_found and not cleaned.get("publish_unverified"):
                self.add_error(
                    "publish_unverified",
                    "The excerpt was not found in the episode's transcript. Compare the two, "
                    "or tick “Publish unverified” to publish it as it is.",
                )
        return cleaned

    def _post_clean(self):
        # The model's clean() can't know the correction note; with the instance now
        # holding the form's values, the rules that need it are checked here.
        super()._post_clean()
        change = ClaimChange.of(self.instance, self.cleaned_data.get("correction_note", ""))
        for name, message in change.problems().items():
            if name not in self.errors:
                self.add_error(name if name in self.fields else None, message)

    def save_claim(self, *, changed_by) -> Claim:
        """Save through the claim's write path, with this form's correction note."""
        claim = self.instance
        claim.save(
            changed_by=changed_by,
            via="admin",
            correction_note=self.cleaned_data.get("correction_note", ""),
        )
        return claim


class ClaimInlineForm(ClaimForm):
    """A claim within its episode's page: the same checks, boxes sized to fit beside each other."""

    class Meta(ClaimForm.Meta):
        widgets = {
            "excerpt": forms.Textarea(attrs={"rows": 3, "cols": 90}),
            "summary": forms.TextInput(attrs={"size": 50}),
            "unresolved_label": forms.TextInput(attrs={"size": 14}),
        }

    correction_note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=ClaimForm.base_fields["correction_note"].help_text,
    )

    # Said once on the claim's own page; repeated under every claim of an episode
    # they would push each claim's fields onto separate lines.
    QUIET_FIELDS = ("number", "excerpt", "speaker", "unresolved_label", "timestamp", "summary")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.QUIET_FIELDS:
            if name in self.fields:
                self.fields[name].help_text = ""


class ClaimInlineFormSet(BaseInlineFormSet):
    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        # The episode as it is being saved, so claims are checked against the
        # transcript in this same form, not the one stored.
        form.instance._episode_for_checks = self.instance
        return form

    def save_claims(self, *, changed_by) -> None:
        """Save each changed claim through its write path, and delete the drafts marked."""
        changed = {id(claim) for claim in self.save(commit=False)}
        for form in self.forms:
            if id(form.instance) in changed:
                form.save_claim(changed_by=changed_by)
        for claim in self.deleted_objects:
            claim.delete()

    def clean(self):
        super().clean()
        for form in self.deleted_forms:
            claim = form.instance
            if claim.pk and claim.status != ClaimStatus.DRAFT:
                raise ValidationError(
                    f"Claim {claim.label} is {claim.get_status_display().lower()}: only drafts "
                    "are deleted. Untick its “Delete” box; retract it from the claims list."
                )


class ClaimInline(admin.StackedInline):
    """The episode's ledger, claim by claim: four short lines each, no sideways scrolling."""

    model = Claim
    form = ClaimInlineForm
    formset = ClaimInlineFormSet
    readonly_fields = ("verbatim",)
    ordering = ("number",)
    autocomplete_fields = ("speaker",)
    extra = 1
    show_change_link = True

    def get_fieldsets(self, request, obj=None):
        rows = [
            ("number", "type", "status", "verbatim"),
            "excerpt",
            ("attribution", "speaker", "unresolved_label"),
            ("timestamp", "summary"),
        ]
        # The per-claim confirmations only where they can be needed: a correction
        # note once claims may be public, the verbatim override once there is a
        # transcript to miss. After a refused save, both, beside the claim at fault.
        confirmations = []
        if request.method == "POST" or obj is not None:
            confirmations.append("correction_note")
        if request.method == "POST" or (obj is not None and obj.transcript):
            confirmations.append("publish_unverified")
        if confirmations:
            rows.append(tuple(confirmations))
        return [(None, {"fields": rows})]

    @admin.display(description="verbatim")
    def verbatim(self, claim):
        return verbatim_label(claim) if claim.pk else "—"


class ClaimRevisionInline(admin.TabularInline):
    """The claim's history, newest first: read-only, for everyone who may see the claim."""

    model = ClaimRevision
    fields = ("created_at", "kind", "changed_by", "via", "what_changed", "note")
    readonly_fields = fields
    extra = 0
    can_delete = False
    view_on_site = False
    verbose_name = "change"
    verbose_name_plural = "History: every change to this claim"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("claim", "changed_by")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("claims.view_claim")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="what changed")
    def what_changed(self, revision):
        return format_html_join(
            mark_safe("<br>"),
            "<strong>{}</strong>: {} → {}",
            (
                (name, shown(before), shown(after))
                for name, (before, after) in revision.changes.items()
            ),
        )


def shown(value):
    return "—" if value in (None, "") else truncatechars(str(value), 300)


def verbatim_label(claim):
    if claim.verification == Verification.NOT_FOUND:
        return format_html("<strong>{}</strong>", "not found")
    return "found" if claim.verification == Verification.FOUND else "no transcript"


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Ledger file",
        help_text="JSON or CSV, as described in the README under “Importing and exporting "
        "the ledger”. Nothing is written until you confirm.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ADMIN_IMPORT_BYTES:
            raise ValidationError(
                f"This file is {filesizeformat(upload.size)}; the admin takes up to "
                f"{filesizeformat(MAX_ADMIN_IMPORT_BYTES)}. Import it with "
                "“manage.py import_ledger” instead."
            )
        return upload


class RetractForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        help_text="Shown on each claim's permalink in place of the excerpt. Say plainly why.",
    )


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
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
    actions = ("publish", "unpublish", "retract")
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
            # Its permalink is made of these.
            readonly += ["episode", "number"]
        if obj is not None and obj.is_retracted:
            readonly += [
                "type",
                "status",
                "excerpt",
                "summary",
                "timestamp",
                "attribution",
                "speaker",
                "unresolved_label",
                "retraction_reason",
                "retracted_at",
            ]
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

    def has_import_permission(self, request):
        return request.user.has_perms(IMPORT_PERMISSIONS)

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

    @admin.display(description="no.", ordering="number")
    def label(self, claim):
        return claim.label

    @admin.display(description="excerpt")
    def short_excerpt(self, claim):
        return truncatechars(claim.excerpt, 90)

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
        published = drafts.change_status(
            ClaimStatus.PUBLISHED, changed_by=request.user, via="admin"
        )
        self.message_user(request, f"Published {published} claim(s).")

    @admin.action(description="Unpublish selected claims", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.filter(status=ClaimStatus.PUBLISHED).change_status(
            ClaimStatus.DRAFT, changed_by=request.user, via="admin"
        )
        self.message_user(request, f"Unpublished {updated} claim(s).")

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

    def confirm_import(self, request, context):
        """Import the upload the editor checked, or drop it if they cancel."""
        pending = PendingImport.find(
            request.user, request.POST["token"], request.POST.get("name", "")
        )
        if pending is None:
            self.message_user(
                request,
                "That import is no longer waiting: upload the file again.",
                level=messages.WARNING,
            )
            return redirect("admin:claims_claim_import")
        content = pending.read()
        pending.discard()
        if "cancel" in request.POST:
            self.message_user(request, f"Nothing was imported from {pending.name}.")
            return redirect("admin:claims_claim_changelist")
        report = ledger_io.import_ledger(content, pending.name, changed_by=request.user)
        if report.ok:
            self.message_user(request, f"Imported {pending.name}. {report.summary()}")
            return redirect("admin:claims_claim_changelist")
        # The ledger changed between the check and the confirmation.
        context.update(form=ImportForm(), report=report, file_name=pending.name)
        return TemplateResponse(request, "admin/claims/claim/import.html", context)

    def import_view(self, request):
        """Upload a file, read the report, confirm: the same import as `manage.py import_ledger`."""
        if not self.has_import_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Import a ledger file",
            "opts": self.model._meta,
        }
        if request.method == "POST" and "token" in request.POST:
            return self.confirm_import(request, context)
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            content = upload.read()
            report = ledger_io.import_ledger(content, upload.name, dry_run=True)
            context.update(report=report, file_name=upload.name)
            if report.ok:
                context["pending"] = PendingImport.keep(request.user, upload.name, content)
                form = ImportForm()
        context["form"] = form
        return TemplateResponse(request, "admin/claims/claim/import.html", context)


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

    @admin.display(description="claims", ordering="claim_total")
    def claim_total(self, episode):
        return episode.claim_total
