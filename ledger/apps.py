from django.apps import AppConfig
from django.db.models.signals import m2m_changed, post_delete, post_save


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Evidence Ledger"

    def ready(self):
        from ledger import checks  # noqa: F401 (registers the database's checks)

        # A saved or deleted record moves the version when readers can see the change
        # (not a draft's). Bulk writes (QuerySet.update, bulk_create) call
        # ledger_changed() themselves, unless made unseen_by_readers().
        curated = (
            "episodes.Podcast",
            "episodes.Episode",
            "episodes.Transcript",
            "episodes.Speaker",
            "episodes.Appearance",
            "claims.Claim",
            "claims.ClaimLink",
            "claims.Topic",
            "claims.Reference",
            "claims.ClaimReference",
        )
        for label in curated:
            model = self.apps.get_model(label)
            post_save.connect(_changed, sender=model, dispatch_uid=f"ledger-changed-save-{label}")
            post_delete.connect(
                _changed, sender=model, dispatch_uid=f"ledger-changed-delete-{label}"
            )
        # A claim's topics change without a save of the claim or of a topic.
        topics = self.apps.get_model("claims.Claim").topics.through
        m2m_changed.connect(_topics_changed, sender=topics, dispatch_uid="ledger-changed-topics")


def _changed(sender, instance, using="default", **kwargs):
    from claims.public_record import readers_see_change_to
    from ledger.models import ledger_changed

    if readers_see_change_to(instance):
        ledger_changed(using)


def _topics_changed(sender, action, using="default", **kwargs):
    from ledger.models import ledger_changed

    if action.startswith("post_"):
        ledger_changed(using)
