"""Editors record who was on an episode from the episode's page in the admin."""

import re

import pytest
from django.urls import reverse

from episodes.models import Appearance, Role
from tests.claims.admin_forms import episode_change_form
from tests.factories import make_appearance, make_episode, make_speaker

pytestmark = pytest.mark.django_db


def test_the_episode_page_offers_appearances_with_speaker_autocomplete(editor_client):
    episode = make_episode()

    html = editor_client.get(reverse("admin:episodes_episode_change", args=[episode.pk])).content
    html = html.decode()

    assert 'id="appearances-group"' in html
    [speaker_select] = re.findall(r'<select name="appearances-__prefix__-speaker"[^>]*>', html)
    assert "admin-autocomplete" in speaker_select
    # Who was on it comes before the ledger of what they said.
    assert html.index('id="appearances-group"') < html.index('id="claims-group"')


def test_an_editor_adds_a_host_and_a_guest(editor_client):
    episode = make_episode()
    ada, ben = make_speaker(name="Ada Example"), make_speaker(name="Ben Sample")
    url = reverse("admin:episodes_episode_change", args=[episode.pk])

    response = editor_client.post(
        url,
        episode_change_form(
            episode,
            appearances=[
                {"speaker": ada.pk, "role": Role.HOST},
                {"speaker": ben.pk, "role": Role.GUEST},
            ],
        ),
    )

    assert response.status_code == 302
    assert sorted(episode.appearances.values_list("speaker__name", "role")) == [
        ("Ada Example", "host"),
        ("Ben Sample", "guest"),
    ]


def test_the_same_speaker_twice_is_refused_with_a_reason(editor_client):
    episode = make_episode()
    ada = make_speaker()
    url = reverse("admin:episodes_episode_change", args=[episode.pk])

    response = editor_client.post(
        url,
        episode_change_form(
            episode,
            appearances=[
                {"speaker": ada.pk, "role": Role.HOST},
                {"speaker": ada.pk, "role": Role.GUEST},
            ],
        ),
    )

    assert response.status_code == 200
    assert "Please correct the duplicate data for speaker" in response.content.decode()
    assert not Appearance.objects.exists()


def test_the_speaker_autocomplete_serves_the_appearance_inline(editor_client):
    ada = make_speaker(name="Ada Example")
    make_speaker(name="Ben Sample")

    response = editor_client.get(
        "/admin/autocomplete/",
        {
            "app_label": "episodes",
            "model_name": "appearance",
            "field_name": "speaker",
            "term": "Ada",
        },
    )

    assert response.json()["results"] == [{"id": str(ada.pk), "text": "Ada Example"}]


def test_an_editor_removes_an_appearance(editor_client):
    appearance = make_appearance(role=Role.GUEST)
    episode = appearance.episode
    url = reverse("admin:episodes_episode_change", args=[episode.pk])
    row = {"id": appearance.pk, "episode": episode.pk, "speaker": appearance.speaker_id}

    response = editor_client.post(
        url,
        episode_change_form(
            episode,
            appearances=[{**row, "role": Role.GUEST, "DELETE": "on"}],
            initial_appearances=1,
        ),
    )

    assert response.status_code == 302
    assert not Appearance.objects.exists()
