"""Real clients' readings of a response: what a crawler or reference manager would see."""

import extruct
from lxml import html
from pyld import jsonld

# schema.org's context, served locally: the tests never reach the network.
SCHEMA_CONTEXT = {"@context": {"@vocab": "https://schema.org/"}}


def local_loader(url, options=None):
    assert url.rstrip("/") in ("https://schema.org", "http://schema.org"), url
    return {"contextUrl": None, "documentUrl": url, "document": SCHEMA_CONTEXT}


def page_url(response):
    return response.wsgi_request.build_absolute_uri()


def json_ld(response):
    """Every JSON-LD object on the page, as extruct reads it."""
    found = extruct.extract(
        response.content.decode(), base_url=page_url(response), syntaxes=["json-ld"]
    )
    return found["json-ld"]


def expanded(data):
    """The JSON-LD expanded by pyld (which raises on malformed JSON-LD)."""
    return jsonld.expand(data, {"documentLoader": local_loader})


def of_type(response, schema_type):
    matches = [item for item in json_ld(response) if item.get("@type") == schema_type]
    assert len(matches) == 1, f"{len(matches)} {schema_type} on the page"
    return matches[0]


def open_graph(response):
    """{property: content} of the page's Open Graph tags, as extruct reads them."""
    found = extruct.extract(
        response.content.decode(), base_url=page_url(response), syntaxes=["opengraph"]
    )
    return dict(found["opengraph"][0]["properties"]) if found["opengraph"] else {}


def meta_names(response):
    """{name: [content, …]} of the page's <meta name=…> tags."""
    tree = html.fromstring(response.content)
    names = {}
    for element in tree.xpath("//head/meta[@name]"):
        names.setdefault(element.get("name"), []).append(element.get("content"))
    return names


def head_links(response, rel):
    """[(type, href, title)] of the page's <link rel=…> elements."""
    tree = html.fromstring(response.content)
    return [
        (link.get("type"), link.get("href"), link.get("title"))
        for link in tree.xpath(f"//head/link[@rel='{rel}']")
    ]
