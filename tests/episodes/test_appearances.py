"""Who was on an episode: the records, the episode page, the speaker's page and the speakers index."""

import datetime
import re
from html import unescape

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from claims.appearances import EPISODES_PER_ROLE
from episodes.models import Appearance, Role, Status
from tests.episodes.test_episode_page import links, visible_text
from tests.factories import make_appearance, make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db


def cast_line(response):
    """The episode page's line of who was on it, as a reader reads it."""
    match = re.search(r'<p class="cast">(.*?)</p>', response.content.decode())
    return unescape(re.sub(r"<[^>]*>", "", match[1])) if match else None


def test_a_speaker_appears_on_an_episode_once():
    appearance = make_appearance(role=Role.HOST)

    with pytest.raises(IntegrityError), transaction.atomic():
        Appearance.objects.create(
            episode=appearance.episode, speaker=appearance.speaker, role=Role.GUEST
        )


def test_the_database_refuses_a_role_that_is_not_host_guest_or_other():
    appearance = make_appearance()

    with pytest.raises(IntegrityError), transaction.atomic():
        Appearance.objects.filter(pk=appearance.pk).update(role="co-host")


def test_a_speaker_who_appeared_cannot_be_deleted():
    appearance = make_appearance()

    with pytest.raises(ProtectedError):
        appearance.speaker.delete()


def cast_of_three():
    episode = make_episode()
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    cleo = make_speaker(name="Cleo Placeholder", slug="cleo-placeholder")
    # Entered out of role order: the page puts hosts first all the same.
    make_appearance(episode, ben, Role.GUEST)
    make_appearance(episode, ada, Role.HOST)
    make_appearance(episode, cleo, Role.GUEST)
    return episode


def test_the_episode_page_names_its_hosts_then_its_guests(client):
    episode = cast_of_three()

    line = cast_line(client.get(episode.get_absolute_url()))

    assert line == "Host: Ada Example; Guests: Ben Sample and Cleo Placeholder"


def test_the_episode_page_links_each_person_who_appeared(client):
    episode = cast_of_three()

    shown = links(client.get(episode.get_absolute_url()))

    assert ("/speakers/cleo-placeholder/", "Cleo Placeholder") in shown


def test_three_guests_and_another_role_are_joined_as_a_sentence(client):
    episode = make_episode()
    for name in ("Ada Example", "Ben Sample", "Cleo Placeholder"):
        make_appearance(episode, make_speaker(name=name), Role.GUEST)
    make_appearance(episode, make_speaker(name="Di Nobody"), Role.OTHER)

    line = cast_line(client.get(episode.get_absolute_url()))

    assert line == (
        "Guests: Ada Example, Ben Sample and Cleo Placeholder; Also on the episode: Di Nobody"
    )


def test_an_episode_without_appearances_shows_no_cast_line(client):
    episode = make_episode()

    assert cast_line(client.get(episode.get_absolute_url())) is None


def test_a_draft_episodes_cast_is_not_shown(client):
    appearance = make_appearance(episode=make_episode(status=Status.DRAFT))

    assert client.get(appearance.episode.get_absolute_url()).status_code == 404


def test_the_speaker_page_lists_episodes_by_role_newest_first(client):
    ada = make_speaker(name="Ada Example")
    first = make_episode(title="First Hosted", air_date=datetime.date(2026, 1, 1))
    second = make_episode(title="Second Hosted", air_date=datetime.date(2026, 2, 1))
    guested = make_episode(title="Guest Spot", air_date=datetime.date(2026, 3, 1))
    make_appearance(first, ada, Role.HOST)
    make_appearance(guested, ada, Role.GUEST)
    make_appearance(second, ada, Role.HOST)

    text = visible_text(client.get(ada.get_absolute_url()))

    assert "Host of 2 episodes Second Hosted" in text
    assert text.index("Second Hosted") < text.index("First Hosted") < text.index("Guest on 1")


def test_a_long_list_of_episodes_is_capped_and_counted(client):
    ada = make_speaker()
    for _ in range(EPISODES_PER_ROLE + 2):
        make_appearance(make_episode(), ada, Role.HOST)

    response = client.get(ada.get_absolute_url())

    assert f"Host of {EPISODES_PER_ROLE + 2} episodes" in visible_text(response)
    assert f"The {EPISODES_PER_ROLE} newest shown; 2 more." in visible_text(response)


def test_a_speaker_without_claims_who_appeared_has_a_page(client):
    cleo = make_speaker(name="Cleo Placeholder")
    make_appearance(make_episode(title="Pilot"), cleo, Role.GUEST)

    response = client.get(cleo.get_absolute_url())

    assert response.status_code == 200
    assert "Guest on 1 episode Pilot" in visible_text(response)
    assert "No published claims yet" in visible_text(response)


def test_draft_episodes_never_count_on_the_speakers_page(client):
    ada = make_speaker()
    make_claim(speaker=ada)
    make_appearance(make_episode(), ada, Role.HOST)
    make_appearance(make_episode(title="Unaired", status=Status.DRAFT), ada, Role.HOST)

    text = visible_text(client.get(ada.get_absolute_url()))

    assert "Host of 1 episode" in text
    assert "Unaired" not in text


def test_a_speaker_who_only_appeared_on_a_draft_has_no_page(client):
    cleo = make_speaker()
    make_appearance(make_episode(status=Status.DRAFT), cleo, Role.GUEST)

    assert client.get(cleo.get_absolute_url()).status_code == 404
