"""Only http(s) addresses reach a link, however a record was written."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from claims.moments import moment_url
from episodes.models import Episode, Podcast, Speaker
from episodes.templatetags.web import web_url
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

HOSTILE = ("javascript:alert(document.cookie)", "JavaScript:alert(1)", "data:text/html,<b>x</b>")


@pytest.mark.parametrize("address", HOSTILE)
@pytest.mark.parametrize(
    "model, field",
    [
        (Podcast, "website_url"),
        (Podcast, "feed_url"),
        (Episode, "original_url"),
        (Episode, "audio_url"),
    ],
)
def test_the_database_refuses_an_address_that_is_not_http(db, model, field, address):
    make_episode()
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.update(**{field: address})


def test_an_episode_needs_an_original_address(db):
    episode = make_episode()
    with pytest.raises(IntegrityError), transaction.atomic():
        Episode.objects.filter(pk=episode.pk).update(original_url="")


@pytest.mark.parametrize("address", ["ftp://example.com/episode.mp3", *HOSTILE])
def test_the_admin_form_check_names_the_field(db, address):
    episode = make_episode()
    episode.audio_url = address
    with pytest.raises(ValidationError) as refused:
        episode.full_clean()
    assert set(refused.value.message_dict) == {"audio_url"}


@pytest.mark.parametrize("address", HOSTILE)
def test_a_speaker_page_never_links_a_hostile_address(client, db, address):
    speaker = make_speaker()
    make_claim(speaker=speaker)
    Speaker.objects.filter(pk=speaker.pk).update(links=f"{address}\nhttps://example.com/ada")

    page = client.get(speaker.get_absolute_url()).content.decode()

    assert 'href="https://example.com/ada"' in page
    assert address.split(":")[0] + ":" not in page


@pytest.mark.parametrize("address", HOSTILE)
def test_a_moment_link_is_never_made_from_a_hostile_address(address):
    assert moment_url("https://example.com/episode/", address, 90) is None
    assert moment_url(address, "", 90) is None


def test_a_moment_link_opens_the_audio_at_its_second():
    assert moment_url("https://example.com/e/", "https://example.com/e.mp3", 90) == (
        "https://example.com/e.mp3#t=90"
    )


@pytest.mark.parametrize(
    "value, shown",
    [
        ("https://example.com/x", "https://example.com/x"),
        ("http://example.com/x", "http://example.com/x"),
        ("", ""),
        ("//example.com/x", ""),
        *[(address, "") for address in HOSTILE],
    ],
)
def test_the_template_filter_passes_only_web_addresses(value, shown):
    assert web_url(value) == shown


def test_a_podcast_page_links_its_website(client, db):
    podcast = make_podcast(website_url="https://example.com/show/")
    make_claim(make_episode(podcast=podcast))

    page = client.get(podcast.get_absolute_url()).content.decode()

    assert 'href="https://example.com/show/"' in page
