"""Claims take their timestamp from their episode's timed transcript, unless an editor gave one."""

import json

import pytest
from django.db import transaction

from claims.models import Claim
from episodes.models import Transcript
from tests.claims.ledger_files import failed_import, run_export, run_import
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db

TEXT = "Ada: We moved everything to GRPO last spring.\nBen: It was cheaper\nthan we expected."
CUES = [[1, 0], [65, 46]]
LATER = [[301, 0], [365, 46]]
CHEAPER = "It was cheaper than we expected."


def timed_episode(**fields):
    episode = make_episode(audio_url="https://example.com/audio.mp3", **fields)
    episode.save_transcript(TEXT, CUES)
    return episode


def stored(claim):
    claim = Claim.objects.get(pk=claim.pk)
    return claim.timestamp, claim.timestamp_from_transcript


def test_a_found_excerpt_takes_the_time_of_the_cue_it_starts_in():
    claim = make_claim(timed_episode(), excerpt=CHEAPER)

    assert stored(claim) == (65, True)


def test_an_excerpt_across_two_cues_takes_the_time_of_the_first():
    claim = make_claim(timed_episode(), excerpt="last spring. Ben: It was cheaper")

    assert stored(claim) == (1, True)


def test_the_permalink_opens_the_audio_at_the_transcripts_time():
    claim = make_claim(timed_episode(), excerpt=CHEAPER)

    response = pytest.importorskip("django.test").Client().get(claim.get_absolute_url())

    assert 'href="https://example.com/audio.mp3#t=65"' in response.content.decode()
    assert ">1:05<" in response.content.decode()


def test_an_editors_timestamp_wins_over_the_transcript():
    claim = make_claim(timed_episode(), excerpt=CHEAPER, timestamp=70)

    assert stored(claim) == (70, False)


def test_an_excerpt_not_found_keeps_no_time():
    claim = make_claim(timed_episode(), excerpt="Words nobody said.")

    assert stored(claim) == (None, True)


def test_new_timings_move_the_transcripts_timestamps_but_not_an_editors():
    episode = timed_episode()
    from_transcript = make_claim(episode, excerpt=CHEAPER)
    typed = make_claim(episode, excerpt="We moved everything to GRPO", timestamp=5)

    episode.save_transcript(TEXT, LATER)

    assert stored(from_transcript) == (365, True)
    assert stored(typed) == (5, False)


def test_a_timestamp_typed_equal_to_the_transcripts_follows_the_transcript():
    # What "New claim from selection" fills in: the cue's own time.
    episode = timed_episode()
    claim = make_claim(episode, excerpt=CHEAPER, timestamp=65)

    episode.save_transcript(TEXT, LATER)

    assert stored(claim) == (365, True)


def test_changing_a_transcript_timestamp_makes_it_the_editors():
    claim = make_claim(timed_episode(), excerpt=CHEAPER)

    claim.timestamp = 66
    claim.save()

    assert stored(claim) == (66, False)


def test_clearing_an_editors_timestamp_hands_it_back_to_the_transcript():
    claim = make_claim(timed_episode(), excerpt=CHEAPER, timestamp=70)

    claim.timestamp = None
    claim.save()

    assert stored(claim) == (65, True)


def test_saving_a_claim_with_a_transcript_time_records_no_change_of_timestamp():
    claim = make_claim(timed_episode(), excerpt=CHEAPER)

    claim.summary = "Cheaper than expected."
    claim.save()

    assert list(claim.revisions.values_list("changes", flat=True))[0] == {
        "summary": ["", "Cheaper than expected."]
    }
    assert stored(claim) == (65, True)


def test_a_transcript_pasted_without_times_leaves_the_last_time():
    episode = timed_episode()
    claim = make_claim(episode, excerpt=CHEAPER)

    episode.save_transcript(TEXT)

    assert stored(claim) == (65, True)


def test_new_timings_are_applied_in_one_read_and_one_batched_write(django_assert_num_queries):
    episode = timed_episode()
    for _ in range(30):
        make_claim(episode, excerpt=CHEAPER)
    transcript = Transcript.objects.get(episode=episode)
    transcript.cues = LATER

    # The transcript's update; its episode (are its claims public?); the claims read
    # and their one batched update; the ledger's version, moved by each of the two writes;
    # and the savepoint that holds the save and its receivers together (the test runs
    # in a transaction).
    with django_assert_num_queries(8):
        transcript.save()

    assert set(episode.claims.values_list("timestamp", flat=True)) == {365}


def build_timed_ledger():
    episode = timed_episode(slug="timed")
    make_claim(episode, number=1, excerpt=CHEAPER)
    make_claim(episode, number=2, excerpt="We moved everything to GRPO", timestamp=5)
    make_claim(episode, number=3, excerpt="Not in the transcript.")


def contents():
    return list(
        Claim.objects.order_by("number").values_list(
            "number", "timestamp", "timestamp_from_transcript", "episode__transcript__cues"
        )
    )


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_cues_and_timestamps_round_trip_through_export_and_import(tmp_path, file_format):
    with transaction.atomic():
        build_timed_ledger()
        exported, before = run_export("--format", file_format), contents()
        transaction.set_rollback(True)

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert (
        contents()
        == before
        == [
            (1, 65, True, CUES),
            (2, 5, False, CUES),
            (3, None, True, CUES),
        ]
    )
    assert run_export("--format", file_format) == exported


def test_the_export_says_which_timestamps_are_the_transcripts():
    build_timed_ledger()

    episode = json.loads(run_export())["episodes"][0]

    assert episode["transcript_cues"] == CUES
    assert [claim.get("timestamp_from_transcript") for claim in episode["claims"]] == [
        True,
        None,
        None,
    ]


def test_an_import_with_new_cues_moves_the_transcripts_timestamps(tmp_path):
    build_timed_ledger()
    document = json.loads(run_export())
    document["episodes"][0]["transcript_cues"] = LATER

    run_import(tmp_path, json.dumps(document).encode(), "ledger.json")

    assert [row[1] for row in contents()] == [365, 5, None]


def test_cues_out_of_order_in_a_file_are_refused(tmp_path):
    build_timed_ledger()
    document = json.loads(run_export())
    document["episodes"][0]["transcript_cues"] = [[65, 46], [1, 0]]

    _, problems = failed_import(tmp_path, json.dumps(document).encode(), "ledger.json")

    assert "episodes[0], transcript_cues: cue offsets must be in order" in problems


def test_the_demo_opens_its_timed_episode_at_each_claims_moment(demo, client):
    claims = Claim.objects.filter(episode__slug="roadmap-without-dates").order_by("number")

    assert list(claims.values_list("timestamp", "timestamp_from_transcript")) == [
        (15, True),
        (71, True),
        (138, True),
        (27, True),
        # Retracted, and kept as it was.
        (84, True),
    ]
    html = client.get(claims[1].get_absolute_url()).content.decode()
    assert 'href="https://example.com/example-show/roadmap-without-dates.mp3#t=71"' in html
