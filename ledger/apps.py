from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Evidence Ledger"

    def ready(self):
        # Any saved or deleted record may change what a public page shows.
        # Bulk writes (QuerySet.update, bulk_create) call ledger_changed() themselves.
        for label in ("episodes.Podcast", "episodes.Episode", "episodes.Speaker", "claims.Claim"):
            model = self.apps.get_model(label)
            post_save.connect(_changed, sender=model, dispatch_uid=f"ledger-changed-save-{label}")
            post_delete.connect(
                _changed, sender=model, dispatch_uid=f"ledger-changed-delete-{label}"
            )


def _changed(sender, using="default", **kwargs):
    from ledger.models import ledger_changed

    ledger_changed(using)
