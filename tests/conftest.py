import io

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command


def pytest_collection_modifyitems(config, items):
    """Tests of a real read replica skip, with a reason, when none is configured."""
    if settings.DATABASE_REPLICA_URLS:
        return
    skip = pytest.mark.skip(reason="no read replica: set DATABASE_REPLICA_URLS (.ci/run does)")
    for item in items:
        if "replica" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def empty_page_cache():
    """No test sees a page cached by another: an empty ledger's pages share one key."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def demo(db):
    """The demo ledger, loaded the way `make run` loads it."""
    call_command("load_demo", stdout=io.StringIO())


@pytest.fixture
def editor(db, django_user_model, settings):
    """A staff member of the Editors group who is not a superuser."""
    from django.contrib.auth.models import Group

    # The production hasher is slow on purpose; tests need only a working one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    from claims.editors import EDITORS_GROUP

    user = django_user_model.objects.create_user(
        "eddie", password="a-long-test-password", is_staff=True
    )
    user.groups.add(Group.objects.get(name=EDITORS_GROUP))
    return user


@pytest.fixture
def editor_client(client, editor):
    """The test client, logged in as `editor`."""
    client.force_login(editor)
    return client
