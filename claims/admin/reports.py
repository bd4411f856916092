"""Readers' reports: the editors' list to read and close them, and a claim's open ones on its page."""

from django.contrib import admin
from django.template.defaultfilters import truncatechars
from django.urls import reverse
from django.utils.html import format_html

from claims.admin.inlines import ReadOnlyInline
from claims.models import Report


def claim_words(claim) -> str:
    return f"Claim {claim.label} of “{claim.episode.title}”"


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "claim_link", "short_message", "has_email", "status")
    list_display_links = ("created_at", "kind")
    list_filter = ("status", "kind", "created_at")
    list_select_related = ("claim__episode__podcast",)
    search_fields = ("message", "email", "editor_note")
    ordering = ("-created_at", "-pk")
    fields = (
        "claim_link",
        "permalink",
        "kind",
        "message",
        "email",
        "created_at",
        "status",
        "closed_at",
        "editor_note",
    )
    readonly_fields = (
        "claim_link",
        "permalink",
        "kind",
        "message",
        "email",
        "created_at",
        "closed_at",
    )
    actions = ("close",)
    list_per_page = 50

    def has_add_permission(self, request):
        # Reports come from readers, through the form on each claim's page.
        return False

    @admin.action(description="Close selected reports", permissions=("change",))
    def close(self, request, queryset):
        closed = queryset.close()
        self.message_user(request, f"Closed {closed} report(s).")

    @admin.display(description="claim", ordering="claim__episode__title")
    def claim_link(self, report):
        url = reverse("admin:claims_claim_change", args=[report.claim_id])
        return format_html('<a href="{}">{}</a>', url, claim_words(report.claim))

    @admin.display(description="public page")
    def permalink(self, report):
        url = report.claim.get_absolute_url()
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description="message")
    def short_message(self, report):
        return truncatechars(report.message, 90)

    @admin.display(description="email given", boolean=True)
    def has_email(self, report):
        return bool(report.email)


class OpenReportInline(ReadOnlyInline):
    """Open reports on the claim's page, read-only: they are closed from the reports list."""

    model = Report
    fields = ("created_at", "kind", "message", "email", "report_link")
    readonly_fields = fields
    verbose_name = "open report"
    verbose_name_plural = "Open reports from readers"

    def get_queryset(self, request):
        return super().get_queryset(request).open()

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("claims.view_report")

    @admin.display(description="")
    def report_link(self, report):
        url = reverse("admin:claims_report_change", args=[report.pk])
        return format_html('<a href="{}">Read and close</a>', url)
