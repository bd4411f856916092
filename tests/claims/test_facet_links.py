"""The claims browser's facet links: each keeps every other filter and starts from page one."""

import pytest
from django.template import RequestContext, Template
from django.template.defaulttags import querystring
from django.template.loader import get_template
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


def test_a_facet_lists_each_choice_and_names_the_chosen_one_with_a_way_back():
    request = RequestFactory().get("/claims/", {"q": "rates", "podcast": "b&b", "page": "2"})
    html = get_template("claims/_facet.html").render(
        {
            "heading": "Podcast",
            "name": "podcast",
            "rows": [("a", "Example <Show>", 3), ("b&b", "B & B", 2)],
            "chosen": "b&b",
        },
        request,
    )

    assert (
        '<li><a href="?q=rates&amp;podcast=a">Example &lt;Show&gt;</a> '
        '<span class="facet-count">3</span></li>'
    ) in html
    assert (
        '<li><strong aria-current="true">B &amp; B</strong> <span class="facet-count">2</span> '
        '<a href="?q=rates" aria-label="Remove the podcast filter">remove</a></li>'
    ) in html


def test_a_facet_without_choices_says_so_if_asked():
    request = RequestFactory().get("/claims/")
    template = get_template("claims/_facet.html")
    context = {"heading": "Speaker", "name": "speaker", "rows": [], "chosen": None}

    assert '<li class="muted">No one.</li>' in template.render(
        {**context, "none_match": "No one."}, request
    )
    assert "<li" not in template.render(context, request)
