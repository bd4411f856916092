"""The browser tests' own watch: a page under a CSP, and the problems that must fail a test."""

import pytest

from tests.browser.watch import DESKTOP, PageProblems, watched_context


@pytest.fixture
def watched(browser, server):
    """A page whose problems are collected but left to the test to judge."""
    problems = PageProblems()
    context = watched_context(browser, problems, **DESKTOP)
    yield context.new_page(), problems
    context.close()


def reported(page, problems, text, seconds=2):
    """Whether a problem mentioning `text` arrives in time; reports come asynchronously."""
    for _ in range(seconds * 20):
        if any(text in problem for problem in problems.found):
            return True
        page.wait_for_timeout(50)
    return False


def test_pages_are_served_under_a_content_security_policy(page, server, demo):
    response = page.goto(server.url)

    policy = response.headers.get("content-security-policy")
    assert "default-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_an_inline_script_is_reported_as_a_csp_violation(watched, demo, server):
    page, problems = watched
    page.goto(server.url)

    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.ran = true";
          document.head.append(script);
        }"""
    )

    assert reported(page, problems, "CSP violation")
    assert page.evaluate("window.ran") is None
    assert any("script-src" in problem for problem in problems.found)


def test_console_errors_and_uncaught_exceptions_are_reported(watched, demo, server):
    page, problems = watched
    page.goto(server.url)

    page.evaluate("console.error('something broke')")
    page.evaluate("setTimeout(() => { throw new Error('unhandled') })")

    assert reported(page, problems, "something broke")
    assert reported(page, problems, "unhandled")
