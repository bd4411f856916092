"""`manage.py create_local_editor` (`make editor`): a way into the admin, on a local demo only."""

import io
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from claims.editors import EDITORS_GROUP

pytestmark = pytest.mark.django_db

LOGIN = f"/{settings.ADMIN_URL}login/"


@pytest.fixture
def local(settings):
    settings.DEBUG = True
    # The production hasher is slow on purpose; these tests need only a working one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def create_local_editor(*args):
    out = io.StringIO()
    call_command("create_local_editor", *args, stdout=out)
    output = out.getvalue()
    return re.search(r"username: (\S+)", output)[1], re.search(r"password: (\S+)", output)[1]


def sign_in(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def test_the_printed_password_signs_in_to_the_admin_as_an_editor(client, local):
    username, password = create_local_editor()

    assert sign_in(client, username, password).status_code == 302
    assert client.get(f"/{settings.ADMIN_URL}claims/claim/").status_code == 200
    user = get_user_model().objects.get(username=username)
    assert [group.name for group in user.groups.all()] == [EDITORS_GROUP]
    assert not user.is_superuser


def test_running_it_again_gives_a_new_password_and_retires_the_old(client, local):
    username, first = create_local_editor()
    again, second = create_local_editor()

    assert again == username and second != first
    assert get_user_model().objects.filter(username=username).count() == 1
    assert sign_in(client, username, first).status_code == 200  # the form again, with its error
    assert sign_in(client, username, second).status_code == 302


def test_it_takes_another_username(local):
    assert create_local_editor("--username", "ada")[0] == "ada"


def test_it_refuses_to_run_with_debug_off(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("create_local_editor", stdout=io.StringIO())

    assert not get_user_model().objects.exists()
