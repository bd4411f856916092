"""The episodes and speakers admin, extended with what claims add to them."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path

from claims import capture
from claims.admin.duplicates import warn_of_duplicates
from claims.admin.inlines import ClaimInline
from claims.counters import episodes_changed_status
from claims.models import Claim
from claims.nearest import explain
from claims.pagination import CappedPaginator
from episodes.admin import EpisodeAdmin, SpeakerAdmin
from episodes.models import Episode, Speaker

# The episodes app's admin knows nothing of claims: here an episode's page gains
# its ledger of claims, and the lists of episodes and speakers their claim counts.
admin.site.unregister((Episode, Speaker))


# The lists show the counts each record keeps (claims.counters): counted live, every
# page of the list and its count would join every claim.
@admin.register(Speaker)
class SpeakerWithClaimsAdmin(SpeakerAdmin):
    list_display = (*SpeakerAdmin.list_display, "public_claim_count")


@admin.register(Episode)
class EpisodeWithClaimsAdmin(EpisodeAdmin):
    list_display = (*EpisodeAdmin.list_display, "published_claim_count")
    # Counted as the claims list counts, at most 10,000 rows.
    paginator = CappedPaginator
    # Who was on it, then what they said.
    inlines = (*EpisodeAdmin.inlines, ClaimInline)

    def get_object(self, request, object_id, from_field=None):
        # The change page reads the podcast and transcript (form, panel, verbatim checks),
        # not the list's claim count: one query for all three.
        try:
            return Episode.objects.select_related("podcast", "transcript").get(
                pk=Episode._meta.pk.to_python(object_id)
            )
        except (Episode.DoesNotExist, ValidationError):
            return None

    def save_formset(self, request, form, formset, change):
        if formset.model is not Claim:
            return super().save_formset(request, form, formset, change)
        # Each claim's history records who changed it.
        formset.save_claims(changed_by=request.user)
        saved = [*formset.new_objects, *(claim for claim, _ in formset.changed_objects)]
        warn_of_duplicates(self, request, saved)
        return None

    # The episodes app's actions, then the public counts they move.
    @admin.action(description=EpisodeAdmin.publish.short_description, permissions=("change",))
    def publish(self, request, queryset):
        self._change_status(super().publish, request, queryset)

    @admin.action(description=EpisodeAdmin.unpublish.short_description, permissions=("change",))
    def unpublish(self, request, queryset):
        self._change_status(super().unpublish, request, queryset)

    @staticmethod
    def _change_status(action, request, queryset):
        # One transaction: the claims' copies of the status are the public gate. The ids
        # are read first: a changelist filtered by status no longer holds them after.
        with transaction.atomic():
            episode_ids = list(queryset.values_list("pk", flat=True))
            action(request, queryset)
            episodes_changed_status(episode_ids)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/find/",
                self.admin_site.admin_view(self.find_view),
                name="episodes_episode_find",
            ),
            *super().get_urls(),
        ]

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        # The stored transcript, with its captured passages; not after a refused save,
        # whose form may hold other text than the passages' places refer to.
        if change and obj is not None and request.method == "GET" and obj.transcript_text:
            context["transcript_panel"] = capture.panel_html(
                obj.transcript_text, obj.transcript_cues, capture.captured_passages(obj)
            )
            context["timed_transcript"] = bool(obj.transcript_cues)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def find_view(self, request, object_id):
        """Start a new claim from a passage of the transcript: found, or said to be missing."""
        episode = get_object_or_404(Episode.objects.select_related("transcript"), pk=object_id)
        if not (
            self.has_view_permission(request, episode) and request.user.has_perm("claims.add_claim")
        ):
            raise PermissionDenied
        excerpt = request.GET.get("excerpt", "")[:10_000]
        found = capture.find_excerpt(
            episode, excerpt, request.GET.get("start"), request.GET.get("end")
        )
        if found is not None:
            return redirect(capture.new_claim_url(episode, found))
        return TemplateResponse(
            request,
            "admin/episodes/episode/find_in_transcript.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Find in the transcript of “{episode}”",
                "opts": self.model._meta,
                "original": episode,
                "excerpt": excerpt,
                "explanation": explain(excerpt, episode) if excerpt.strip() else None,
            },
        )
