"""A claim's timestamp, taken from its episode's timed transcript unless an editor gave one.

When the verbatim check finds an excerpt in a transcript with cue times, the
claim's timestamp is the start of the cue the excerpt starts in. An editor's
own timestamp wins: `Claim.timestamp_from_transcript` records which it is.

It is decided when a claim is created or its timestamp changes (the write path
leaves the flag undecided, None, for this): a timestamp left blank, or equal to
the transcript's time, is the transcript's, and follows the transcript when it
is replaced with other timings; any other timestamp is the editor's and stays.
Clearing an editor's timestamp hands it back to the transcript.
"""

from episodes.models import Episode, Transcript


def transcript_time(episode: Episode, start: int | None) -> int | None:
    """Seconds into `episode` where the transcript's text at `start` is said, if it is timed."""
    if start is None:
        return None
    try:
        transcript = episode.transcript
    except Transcript.DoesNotExist:
        return None
    return transcript.time_at(start)


def follow_transcript(claim, time: int | None) -> None:
    """Decide whose `claim`'s timestamp is (if undecided), and take `time` if it is the transcript's.

    A transcript that no longer places the excerpt (not found, or no times) leaves
    the last time it gave: it is still the best guess, and the check says why.
    """
    if claim.timestamp_from_transcript is None:
        claim.timestamp_from_transcript = claim.timestamp is None or claim.timestamp == time
    if claim.timestamp_from_transcript and time is not None:
        claim.timestamp = time
