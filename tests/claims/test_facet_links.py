"""The claims browser's facet links: the current filters with one changed, from page one."""

import pytest
from django.template import Context
from django.template.defaulttags import querystring
from django.test import RequestFactory

from claims.templatetags.claims_browser import facet_url

QUERIES = [
    {},
    {"page": "2"},
    {"due": "overdue"},
    {"due": "overdue", "type": ["prediction", "belief"], "page": "2"},
    {"page": "3", "podcast": "a b&c", "q": "“net zero” é"},
    {"speaker": "ada-example", "podcast": "example-show", "topic": "testing"},
]


@pytest.mark.parametrize("params", QUERIES)
@pytest.mark.parametrize("name", ["podcast", "due", "type", "speaker", "q"])
@pytest.mark.parametrize("value", [None, "example-show", "é &=?"])
def test_a_facet_link_is_the_query_string_with_that_facet_changed_and_no_page(params, name, value):
    context = Context()
    context.request = RequestFactory().get("/claims/", params)

    expected = querystring(context, **{name: value, "page": None})
    assert facet_url(context, name, value) == expected
    assert facet_url(context, name, value) == expected  # from what it kept of the first
