"""Uploads the admin has checked, waiting in file storage for their editor to confirm.

Kept out of the session, which is no place for a file of megabytes. The browser
holds only a random token and the file's name; the path is built from those and
the editor's id, so an editor finds only their own upload, and a token or name
that isn't one this module made finds nothing.
"""

import re
import secrets
from dataclasses import dataclass

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.text import get_valid_filename

PENDING_DIR = "pending-imports"
_TOKEN = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class PendingImport:
    user_id: int
    token: str
    name: str

    @property
    def path(self) -> str:
        return f"{PENDING_DIR}/{self.user_id}-{self.token}-{self.name}"

    @classmethod
    def keep(cls, user, name: str, content: bytes) -> "PendingImport":
        """Store `content` for `user`, replacing any upload of theirs still waiting."""
        discard_all(user)
        try:
            safe_name = get_valid_filename(name)
        except SuspiciousFileOperation:
            safe_name = "ledger"
        pending = cls(user.pk, secrets.token_hex(16), safe_name)
        default_storage.save(pending.path, ContentFile(content))
        return pending

    @classmethod
    def find(cls, user, token: str, name: str) -> "PendingImport | None":
        """The user's upload under `token` and `name`; None if there is none."""
        if not _TOKEN.match(token or ""):
            return None
        try:
            if get_valid_filename(name) != name:
                return None
        except SuspiciousFileOperation:
            return None
        pending = cls(user.pk, token, name)
        return pending if default_storage.exists(pending.path) else None

    def read(self) -> bytes:
        with default_storage.open(self.path, "rb") as file:
            return file.read()

    def discard(self) -> None:
        default_storage.delete(self.path)


def discard_all(user) -> None:
    """Delete every upload `user` left waiting."""
    if not default_storage.exists(PENDING_DIR):
        return
    for name in default_storage.listdir(PENDING_DIR)[1]:
        if name.startswith(f"{user.pk}-"):
            default_storage.delete(f"{PENDING_DIR}/{name}")
