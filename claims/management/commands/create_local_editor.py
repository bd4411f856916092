"""A way into the admin for someone trying the demo: an editor with a fresh password.

Only while DEBUG is on: a production ledger gets its accounts through
createsuperuser and the admin, never from a command that prints a password.
"""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from claims.editors import EDITORS_GROUP, ensure_editors_group


class Command(BaseCommand):
    help = (
        "Create a local editor account (staff, in the Editors group) and print a new "
        "password for it; run again for another password. Refuses when DEBUG is off."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="editor")

    def handle(self, *args, username, **options):
        if not settings.DEBUG:
            raise CommandError(
                "DEBUG is off, so this looks like production: create accounts there with "
                "`manage.py createsuperuser` and the admin, never with a printed password."
            )
        password = secrets.token_urlsafe(12)
        user, created = get_user_model().objects.get_or_create(username=username)
        user.is_staff = True
        user.is_active = True
        user.set_password(password)
        user.save()
        ensure_editors_group()
        user.groups.add(Group.objects.get(name=EDITORS_GROUP))

        self.stdout.write(
            f"{'Created' if created else 'Gave a new password to'} the local editor account.\n"
            f"Sign in at http://127.0.0.1:8000{reverse('admin:index')} "
            "(on the PORT you gave `make run`) with\n"
            f"  username: {username}\n"
            f"  password: {password}\n"
        )
