"""Uploading or pasting a timed transcript on the episode's admin page."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from episodes.models import Episode, Status, Transcript
from tests.episodes.test_transcripts import SRT, TEXT, VTT
from tests.factories import make_episode, make_podcast

EPISODES = "/admin/episodes/episode/"


def episode_form(episode, **fields):
    """POST data for the episode's change form, without claims."""
    return {
        "podcast": episode.podcast_id,
        "title": episode.title,
        "slug": episode.slug,
        "air_date": episode.air_date.isoformat(),
        "status": Status.PUBLISHED,
        "original_url": episode.original_url,
        "audio_url": "",
        "summary": "",
        "transcript": "",
        "claims-TOTAL_FORMS": 0,
        "claims-INITIAL_FORMS": 0,
        "claims-MIN_NUM_FORMS": 0,
        "claims-MAX_NUM_FORMS": 1000,
        "appearances-TOTAL_FORMS": 0,
        "appearances-INITIAL_FORMS": 0,
        "_save": "Save",
        **fields,
    }


def upload(name, content):
    return SimpleUploadedFile(name, content.encode() if isinstance(content, str) else content)


def post(client, episode, **fields):
    return client.post(f"{EPISODES}{episode.pk}/change/", episode_form(episode, **fields))


@pytest.mark.parametrize(("name", "content"), [("episode.vtt", VTT), ("episode.srt", SRT)])
def test_an_uploaded_subtitle_file_becomes_the_timed_transcript(editor_client, name, content):
    episode = make_episode()

    response = post(editor_client, episode, transcript_file=upload(name, content))

    assert response.status_code == 302
    stored = Transcript.objects.get(episode=episode)
    assert (stored.text, stored.cues) == (TEXT, [[1, 0], [65, 46]])


def test_the_page_shows_a_timed_transcript_with_its_stamps(editor_client):
    episode = make_episode()
    episode.save_transcript(TEXT, [[1, 0], [65, 46]])

    html = editor_client.get(f"{EPISODES}{episode.pk}/change/").content.decode()

    assert "[00:00:01] Ada: We moved everything to GRPO last spring.\n[00:01:05] Ben:" in html


def test_saving_the_stamped_text_unchanged_keeps_the_times(editor_client):
    episode = make_episode()
    episode.save_transcript(TEXT, [[1, 0], [65, 46]])
    shown = editor_client.get(f"{EPISODES}{episode.pk}/change/").context["adminform"].form
    stamped = shown.initial["transcript"]

    assert post(editor_client, episode, transcript=stamped).status_code == 302

    stored = Transcript.objects.get(episode=episode)
    assert (stored.text, stored.cues) == (TEXT, [[1, 0], [65, 46]])


def test_pasting_plain_text_clears_the_cues(editor_client):
    episode = make_episode()
    episode.save_transcript(TEXT, [[1, 0], [65, 46]])

    assert post(editor_client, episode, transcript="Plain words, no times.").status_code == 302

    stored = Transcript.objects.get(episode=episode)
    assert (stored.text, stored.cues) == ("Plain words, no times.", [])


def test_a_malformed_file_refuses_the_whole_form_naming_the_line(editor_client):
    episode = make_episode(transcript="The old words.")
    broken = VTT.replace("00:01:05.500 --> 00:01:09.000", "00:01:05 --> 00:01:09")

    response = post(
        editor_client, episode, title="A New Title", transcript_file=upload("x.vtt", broken)
    )

    assert response.status_code == 200
    assert "Line 8: a cue timing must look like 00:01:02.000 --&gt; 00:01:05.000." in (
        response.content.decode()
    )
    episode.refresh_from_db()
    assert episode.title != "A New Title"
    assert Transcript.objects.get(episode=episode).text == "The old words."


def test_a_malformed_stamp_in_pasted_text_is_refused_on_the_text_box(editor_client):
    episode = make_episode()

    response = post(editor_client, episode, transcript="[00:01] Fine.\n[00:99] Not fine.")

    assert response.context["adminform"].form.errors["transcript"] == [
        "Line 2: “[00:99]” is not a time: minutes and seconds go up to 59."
    ]


def test_a_huge_file_is_refused_with_its_size(editor_client, settings):
    episode = make_episode()
    huge = b"[00:00:01] " + b"word " * (5 * 1024 * 1024 // 5)

    response = post(editor_client, episode, transcript_file=upload("huge.txt", huge))

    assert response.context["adminform"].form.errors["transcript_file"] == [
        "The file is 5.0 MB; a transcript file may be at most 5 MB."
    ]
    assert not Transcript.objects.filter(episode=episode).exists()


def test_an_episode_added_with_an_uploaded_file_stores_its_cues(editor_client):
    podcast = make_podcast()
    template = Episode(
        podcast=podcast,
        title="Uploaded",
        slug="uploaded",
        air_date=make_episode().air_date,
        original_url="https://example.com/uploaded/",
    )
    form = episode_form(template, transcript_file=upload("episode.srt", SRT))

    assert editor_client.post(f"{EPISODES}add/", form).status_code == 302

    assert Transcript.objects.get(episode__slug="uploaded").cues == [[1, 0], [65, 46]]
