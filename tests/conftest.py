import io

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command

from tests.ledger.pooler import close_server_connections


def pytest_collection_modifyitems(config, items):
    """Tests of a real read replica, or of a real pooler, skip with a reason when none is
    configured."""
    missing = {}
    if not settings.DATABASE_REPLICA_URLS:
        missing["replica"] = "no read replica: set DATABASE_REPLICA_URLS"
    if not settings.DATABASE_POOLER:
        missing["pooler"] = "no pooler: set DATABASE_POOLER, reach PostgreSQL through PgBouncer"
    for item in items:
        for marker, reason in missing.items():
            if marker in item.keywords:
                item.add_marker(pytest.mark.skip(reason=f"{reason} (.ci/run does)"))


@pytest.fixture(scope="session", autouse=True)
def pooled_test_database_released(request, django_db_blocker):
    """Behind a pooler, the test database's server connections are closed before it is
    dropped: PgBouncer keeps them open after the tests close theirs, and PostgreSQL
    drops no database anyone is connected to."""
    if not settings.DATABASE_POOLER:
        yield
        return
    # Set up inside this fixture, so torn down after it.
    request.getfixturevalue("django_db_setup")
    yield
    with django_db_blocker.unblock():
        close_server_connections()


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
