"""The claims browser's facet links: each keeps every other filter and starts from page one."""

import pytest
from django.template import RequestContext, Template
from django.template.defaulttags import querystring
from django.test import RequestFactory

from claims.templatetags.claims_browser import facet_url


@pytest.mark.parametrize(
    "query_string",
    [
        "",
        "page=3",
        "speaker=ada-example",
        "q=rates&speaker=ada-example&page=2",
        "type=prediction&type=belief&q=%22open+source%22&podcast=example-show",
        "podcast=example-show&q=caf%C3%A9+%26+co&page=9&order=newest",
        "q=a+b&unknown=1&unknown=2&type=prediction",
    ],
)
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("speaker", "ben-sample"),
        ("speaker", None),
        ("podcast", "sample-hour"),
        ("type", "prediction"),
        ("topic", "rates & prices"),
        ("due", None),
    ],
)
def test_a_facet_link_is_the_query_string_with_that_choice_from_page_one(query_string, name, value):
    request = RequestFactory().get("/claims/?" + query_string)
    expected = querystring(RequestContext(request), **{name: value, "page": None})

    assert facet_url(RequestContext(request), name, value) == expected


def test_the_links_of_one_facet_are_worked_out_once_per_request():
    request = RequestFactory().get("/claims/", {"q": "rates", "podcast": "example-show"})
    html = Template(
        "{% load claims_browser %}{% for slug in slugs %}{% facet_url 'podcast' slug %} {% endfor %}"
    ).render(RequestContext(request, {"slugs": ["a", "b"]}))

    assert html == "?q=rates&amp;podcast=a ?q=rates&amp;podcast=b "
    assert list(request._facet_links) == ["podcast"]
