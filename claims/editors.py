"""The Editors group: staff who curate the ledger without being superusers."""

EDITORS_GROUP = "Editors"
CURATED_MODELS = (
    ("episodes", "podcast"),
    ("episodes", "episode"),
    ("episodes", "speaker"),
    ("episodes", "appearance"),
    ("claims", "claim"),
    ("claims", "claimlink"),
    ("claims", "topic"),
    ("claims", "reference"),
    ("claims", "claimreference"),
    ("claims", "report"),
)


def ensure_editors_group(using="default", **kwargs):
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.using(using).get_or_create(name=EDITORS_GROUP)
    permissions = Permission.objects.using(using).filter(
        content_type__app_label__in={app for app, _ in CURATED_MODELS},
        content_type__model__in={model for _, model in CURATED_MODELS},
    )
    group.permissions.add(*permissions)
