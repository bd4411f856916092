"""/about/: who keeps the ledger, the licence of its data, how to reach the editors."""

import pytest

from ledger.licence import DATA_LICENCE

pytestmark = pytest.mark.django_db


def test_the_about_page_states_the_data_licence_with_its_link(client):
    html = client.get("/about/").content.decode()

    assert (
        f'<a href="{DATA_LICENCE.url}" rel="external license">'
        "Creative Commons Attribution 4.0 (CC BY 4.0)</a>"
    ) in html


def test_the_developers_page_states_the_same_licence(client):
    html = client.get("/developers/").content.decode()

    assert f'<a href="{DATA_LICENCE.url}" rel="external license">' in html


def test_the_editors_address_comes_from_the_setting(client, settings):
    settings.LEDGER_EDITORS_EMAIL = "corrections@ledger.example.net"

    html = client.get("/about/").content.decode()

    assert (
        '<a href="mailto:corrections@ledger.example.net">corrections@ledger.example.net</a>' in html
    )


def test_the_editors_address_defaults_to_an_example_address(client):
    assert "mailto:editors@example.org" in client.get("/about/").content.decode()


def test_the_about_page_says_who_runs_the_ledger_and_links_the_corrections_log(client):
    html = client.get("/about/").content.decode()

    assert '<h2 id="who-heading">Who runs it</h2>' in html
    assert 'href="/corrections/">the corrections log</a>' in html


def test_every_page_footer_links_about_and_corrections(client):
    footer = client.get("/").content.decode().split('<footer class="site-footer">', 1)[1]

    assert '<a href="/about/">About</a>' in footer
    assert '<a href="/corrections/">Corrections</a>' in footer
