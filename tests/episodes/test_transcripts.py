"""Reading timed transcripts: WebVTT, SubRip and stamped text, into text and cues."""

import pytest

from episodes.models import Transcript
from episodes.transcripts import (
    MAX_UPLOAD_BYTES,
    TimedText,
    TranscriptFileError,
    read_file,
    read_stamped,
)

VTT = """WEBVTT

1
00:00:01.000 --> 00:00:04.000
<v Ada>We moved everything to GRPO last spring.

2
00:01:05.500 --> 00:01:09.000
Ben: It was cheaper
than we expected.
"""

SRT = """1
00:00:01,000 --> 00:00:04,000
Ada: We moved everything to GRPO last spring.

2
00:01:05,500 --> 00:01:09,000
Ben: <i>It was cheaper</i>
than we expected.
"""

TEXT = "Ada: We moved everything to GRPO last spring.\nBen: It was cheaper\nthan we expected."


def message(name, content):
    with pytest.raises(TranscriptFileError) as error:
        read_file(name, content.encode())
    return str(error.value)


def test_a_webvtt_file_gives_its_cue_texts_joined_by_line_breaks_with_their_times():
    timed = read_file("episode.vtt", VTT.encode())

    assert timed == TimedText(TEXT, [[1, 0], [65, 46]])


def test_a_subrip_file_gives_the_same_text_and_times():
    assert read_file("episode.srt", SRT.encode()) == TimedText(TEXT, [[1, 0], [65, 46]])


def test_stamped_text_gives_the_same_text_and_times():
    stamped = "[00:00:01] Ada: We moved everything to GRPO last spring.\n[01:05] Ben: It was "
    stamped += "cheaper\nthan we expected."

    assert read_file("episode.txt", stamped.encode()) == TimedText(TEXT, [[1, 0], [65, 46]])


def test_plain_text_without_stamps_has_no_cues():
    assert read_stamped(TEXT) == TimedText(TEXT, [])


def test_a_timed_transcript_shown_with_its_stamps_reads_back_the_same():
    timed = read_file("episode.vtt", VTT.encode())

    assert timed.stamped().splitlines()[0] == (
        "[00:00:01] Ada: We moved everything to GRPO last spring."
    )
    assert read_stamped(timed.stamped()) == timed


def test_a_byte_order_mark_and_windows_line_ends_are_read():
    content = ("\ufeff" + SRT.replace("\n", "\r\n")).encode()

    assert read_file("episode.srt", content) == TimedText(TEXT, [[1, 0], [65, 46]])


def test_cues_out_of_order_are_sorted_by_start_and_overlaps_are_kept():
    vtt = """WEBVTT

00:00:10.000 --> 00:00:14.000
Second.

00:00:01.000 --> 00:00:12.000
First, and it runs over the second.
"""
    timed = read_file("x.vtt", vtt.encode())

    assert timed == TimedText("First, and it runs over the second.\nSecond.", [[1, 0], [10, 36]])


def test_a_cue_timing_without_its_milliseconds_is_refused_naming_the_line():
    vtt = VTT.replace("00:01:05.500 --> 00:01:09.000", "00:01:05 --> 00:01:09")

    assert message("x.vtt", vtt) == (
        "Line 8: a cue timing must look like 00:01:02.000 --> 00:01:05.000."
    )


def test_a_webvtt_cue_whose_arrow_is_broken_is_refused_rather_than_dropped():
    vtt = VTT.replace("00:01:05.500 --> 00:01:09.000", "00:01:05.500 -> 00:01:09.000")

    assert message("x.vtt", vtt).startswith("Line 8: a cue timing must look like")


def test_a_webvtt_cue_run_into_the_one_before_is_refused_naming_the_line():
    vtt = VTT.replace("spring.\n\n2\n", "spring.\n")

    assert message("x.vtt", vtt) == (
        "Line 6: a cue must be separated from the text before it by a blank line."
    )


def test_a_file_without_the_webvtt_header_is_refused():
    assert message("x.vtt", VTT.replace("WEBVTT", "WEBSITE")) == (
        "Line 1: a WebVTT file must start with “WEBVTT”."
    )


def test_a_malformed_subrip_timing_is_refused_naming_the_line():
    srt = SRT.replace("00:01:05,500 --> 00:01:09,000", "00:01:05,500 to 00:01:09,000")

    assert message("x.srt", srt) == (
        "Line 6: a cue timing must look like 00:01:02,000 --> 00:01:05,000."
    )


def test_a_malformed_stamp_is_refused_naming_the_line():
    assert message("x.txt", "[00:00:01] Fine.\n[0:61] Not fine.") == (
        "Line 2: “[0:61]” is not a time: minutes and seconds go up to 59."
    )
    assert message("x.txt", "[00:00:01] Fine.\n[1.5] Not a stamp.") == (
        "Line 2: a time stamp must look like [01:02:03] or [02:03]."
    )


def test_a_file_that_is_not_utf8_is_refused_naming_the_line():
    with pytest.raises(TranscriptFileError, match=r"^Line 2: the file is not UTF-8 text"):
        read_file("x.txt", b"[00:01] fine\n[00:02] caf\xe9")


def test_a_file_over_the_size_cap_is_refused_with_its_size():
    huge = ("[00:00:01] " + "word " * 20 + "\n") * (MAX_UPLOAD_BYTES // 100)

    assert len(huge) > MAX_UPLOAD_BYTES
    assert message("huge.txt", huge) == (
        f"The file is {len(huge) / 1024 / 1024:.1f} MB; a transcript file may be at most 5 MB."
    )


def test_a_subtitle_file_with_no_cues_is_refused():
    assert message("x.vtt", "WEBVTT\n\nNOTE nothing here\n") == (
        "The file has no cues: is it the right file?"
    )


@pytest.mark.parametrize(
    ("offset", "seconds"),
    [(0, 1), (45, 1), (46, 65), (len(TEXT), 65)],
)
def test_time_at_is_the_start_of_the_cue_holding_the_offset(offset, seconds):
    transcript = Transcript(text=TEXT, cues=[[1, 0], [65, 46]])

    assert transcript.time_at(offset) == seconds


def test_time_at_is_none_before_the_first_cue_and_without_cues():
    assert Transcript(text="intro\nwords", cues=[[30, 6]]).time_at(2) is None
    assert Transcript(text=TEXT).time_at(10) is None


@pytest.mark.django_db
def test_a_timed_transcript_is_stored_and_read_back(django_db_blocker):
    from tests.factories import make_episode

    episode = make_episode()
    episode.save_transcript(TEXT, [[1, 0], [65, 46]])

    stored = Transcript.objects.get(episode=episode)
    assert (stored.text, stored.cues, stored.time_at(50)) == (TEXT, [[1, 0], [65, 46]], 65)
