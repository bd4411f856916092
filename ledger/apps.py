from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Evidence Ledger"

    def ready(self):
        # A saved or deleted record moves the version when readers can see the change
        # (not a draft's). Bulk writes (QuerySet.update, bulk_create) call
        # ledger_changed() themselves, unless made unseen_by_readers().
        for label in (
            "episodes.Podcast",
            "episodes.Episode",
            "episodes.Speaker",
            "episodes.Appearance",
            "claims.Claim",
        ):
            model = self.apps.get_model(label)
            post_save.connect(_changed, sender=model, dispatch_uid=f"ledger-changed-save-{label}")
            post_delete.connect(
                _changed, sender=model, dispatch_uid=f"ledger-changed-delete-{label}"
            )


def _changed(sender, instance, using="default", **kwargs):
    from claims.public_record import readers_see_change_to
    from ledger.models import ledger_changed

    if readers_see_change_to(instance):
        ledger_changed(using)
