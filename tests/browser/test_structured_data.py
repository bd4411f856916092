"""JSON-LD is data, not script: the strict CSP lets it be, and reports nothing."""

import json

PERMALINK = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/claims/1/"


def test_json_ld_sits_in_pages_under_the_csp_without_a_violation(page, server, demo):
    # `page` fails the test on any console error or CSP violation (tests/browser/watch.py).
    for path, expected in (
        ("/", ["WebSite", "Dataset"]),
        (PERMALINK, ["Quotation", "BreadcrumbList"]),
    ):
        page.goto(server.url + path)
        blocks = page.locator('script[type="application/ld+json"]').all_text_contents()
        assert [json.loads(block)["@type"] for block in blocks] == expected
