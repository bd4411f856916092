"""Uploads the admin has checked, waiting in the database for their editor to confirm.

Kept out of the session, which is no place for a file of megabytes, and off the
web node's disk: the confirmation may reach another node behind the load
balancer, and every node shares the database. The browser holds only a random
token and the file's name; a row is found by those and the editor, so an editor
finds only their own upload, and a token or name this module did not make finds
nothing. Uploads left waiting expire after PENDING_IMPORT_HOURS.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import get_valid_filename

# An upload not confirmed or cancelled within this long is deleted.
PENDING_IMPORT_HOURS = 24


class PendingImportQuerySet(models.QuerySet):
    def waiting(self):
        """Uploads not yet expired."""
        return self.filter(created_at__gte=expiry())

    def expired(self):
        return self.filter(created_at__lt=expiry())


def expiry():
    return timezone.now() - timedelta(hours=PENDING_IMPORT_HOURS)


class PendingImport(models.Model):
    token = models.CharField(max_length=32, editable=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", editable=False
    )
    name = models.CharField(max_length=255, help_text="The uploaded file's name, made safe.")
    content = models.BinaryField()
    created_at = models.DateTimeField(default=timezone.now)

    objects = PendingImportQuerySet.as_manager()

    class Meta:
        ordering = ("created_at",)
        constraints = [
            models.UniqueConstraint(fields=["token"], name="pending_import_unique_token"),
            models.CheckConstraint(
                condition=models.Q(token__regex=r"^[0-9a-f]{32}$"),
                name="pending_import_token_is_hex",
            ),
        ]
        indexes = [
            # expired(): the sweep on each new upload.
            models.Index(fields=["created_at"], name="pending_import_created"),
        ]

    def __str__(self):
        return f"{self.name}, uploaded {self.created_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self):
        # Where it waits to be confirmed.
        return reverse("admin:claims_claim_import")

    @classmethod
    def keep(cls, user, name: str, content: bytes) -> "PendingImport":
        """Store `content` for `user`, replacing any upload of theirs still waiting.

        Also deletes everyone's expired uploads: one indexed delete.
        """
        cls.objects.expired().delete()
        discard_all(user)
        try:
            safe_name = get_valid_filename(name)[:255]
        except SuspiciousFileOperation:
            safe_name = "ledger"
        return cls.objects.create(
            token=secrets.token_hex(16), uploaded_by=user, name=safe_name, content=content
        )

    @classmethod
    def find(cls, user, token: str, name: str) -> "PendingImport | None":
        """The user's upload under `token` and `name`; None if there is none."""
        return cls.objects.waiting().filter(uploaded_by=user, token=token, name=name).first()

    def read(self) -> bytes:
        return bytes(self.content)

    def discard(self) -> None:
        self.delete()


def discard_all(user) -> None:
    """Delete every upload `user` left waiting."""
    PendingImport.objects.filter(uploaded_by=user).delete()
