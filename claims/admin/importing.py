"""Importing a ledger file from the admin: upload, check, confirm."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse

from claims import ledger_io
from claims.pending import PendingImport

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


class ImportViews:
    """The claims list's "Import a ledger file" pages, for ClaimAdmin."""

    def has_import_permission(self, request):
        return request.user.has_perms(IMPORT_PERMISSIONS)

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
