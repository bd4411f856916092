"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright's own browser download is not available here, so the tests launch the
system Chromium. Without it they skip with a message, except in CI, where they fail.

Every page a test opens is watched: a console error, an uncaught exception or a
violation of the site's Content-Security-Policy fails the test.
"""

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import sync_playwright

from tests.browser.watch import DESKTOP, PHONE, PageProblems, watched_context
from tests.ci import in_ci

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The flags the machine needs: no sandbox as root, and no calls out to Google's hosts.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="package")
def playwright():
    """Playwright, for this folder's tests only.

    Its sync API keeps an asyncio loop running in this thread, and Django refuses ORM
    calls from a thread with a running loop unless DJANGO_ALLOW_ASYNC_UNSAFE is set:
    safe here, since the tests and the loop take turns. Both end with this folder's
    tests, so no other test, nor a process one starts, runs with either.
    """
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        missing = f"No Chromium at {CHROMIUM}: apt-get install chromium, or set CHROMIUM."
        # A developer without Chromium can still run the rest; CI must run these too.
        if in_ci():
            pytest.fail(f"{missing} CI runs the browser tests, so this is a failure.")
        pytest.skip(f"{missing} Browser tests skipped.")
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as manager:
            yield manager
    finally:
        if previous is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="package")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def server(live_server):
    return live_server


@pytest.fixture
def demo(transactional_db):
    """The demo ledger, visible to the live server (which runs in another thread)."""
    call_command("load_demo", stdout=io.StringIO())


@pytest.fixture
def problems():
    return PageProblems()


def _watched_page(browser, problems, options):
    context = watched_context(browser, problems, **options)
    yield context.new_page()
    context.close()
    assert not problems.found, "Problems in the browser:\n" + "\n".join(problems.found)


@pytest.fixture
def page(browser, server, problems):
    """A desktop page whose console errors, exceptions and CSP violations fail the test."""
    yield from _watched_page(browser, problems, DESKTOP)


@pytest.fixture
def phone(browser, server, problems):
    """The same, on a 375 px wide phone."""
    yield from _watched_page(browser, problems, PHONE)
