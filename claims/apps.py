from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ClaimsConfig(AppConfig):
    name = "claims"

    def ready(self):
        from claims import signals  # noqa: F401 (connects the receivers)
        from claims.editors import ensure_editors_group

        # Runs after every migrate, once this app's permissions exist, so the
        # group always carries the permissions of every curated model.
        post_migrate.connect(ensure_editors_group, sender=self)
        post_migrate.connect(install_search_index, sender=self)


def install_search_index(using="default", **kwargs):
    from django.db import connections

    from claims import search_index

    search_index.install(connections[using])
