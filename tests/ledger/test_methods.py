"""Public pages are read-only: GET and HEAD; the admin keeps its forms."""

import pytest
from django.conf import settings

from tests.factories import make_claim


@pytest.fixture
def public_urls(db):
    claim = make_claim()
    return [
        "/",
        "/search/?q=x",
        "/method/",
        "/how-the-evidence-works/",
        "/about/",
        "/corrections/",
        f"{claim.get_absolute_url()}report/sent/",
        "/claims/",
        claim.get_absolute_url(),
        "/episodes/",
        claim.episode.get_absolute_url(),
        "/speakers/",
        claim.speaker.get_absolute_url(),
        "/podcasts/",
        claim.episode.podcast.get_absolute_url(),
    ]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"])
def test_public_pages_refuse_every_method_but_get_and_head(client, public_urls, method):
    for url in public_urls:
        response = client.generic(method, url)
        assert response.status_code == 405, url
        assert response["Allow"] == "GET, HEAD", url
        assert b"<html" not in response.content, url


def test_public_pages_answer_head_without_a_body(client, public_urls):
    for url in public_urls[2:]:
        response = client.head(url)
        assert response.status_code == 200, url
        assert response.content == b""


def test_the_admin_sign_in_form_still_posts(client, django_user_model):
    django_user_model.objects.create_user("ada", password="the-right-password", is_staff=True)
    login = f"/{settings.ADMIN_URL}login/"
    assert client.options(login).status_code != 405
    response = client.post(login, {"username": "ada", "password": "the-right-password"})
    assert response.status_code == 302
