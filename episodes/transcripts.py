"""Timed transcripts: WebVTT, SubRip and plain text with [hh:mm:ss] stamps, read into text and cues.

A transcript is stored as its words (`Transcript.text`, what the verbatim check
reads) and its cues (`Transcript.cues`): [start_seconds, offset] pairs, where
`offset` is where the cue's text starts in `text`. Cue texts are joined with
line breaks, in order of their start (a cue that overlaps the one before keeps
its own text and time: two voices at once are both transcribed).

WebVTT is read by webvtt-py and SubRip by pysrt, both strictly: a file either
reads whole or is refused with the line at fault; nothing is half-read.
"""

import re
from dataclasses import dataclass, field

import pysrt
import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError
from webvtt.vtt import WebVTTCueBlock

# A 2-hour episode's subtitles are 150 to 300 KB; this leaves room and refuses a wrong file.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
FORMATS = {".vtt": "vtt", ".srt": "srt", ".txt": "stamped", ".text": "stamped"}
# "[01:02:03]" or "[02:03]" at the start of a line, optionally with fractions of a second.
_STAMP = re.compile(r"^\s*\[(?:(\d{1,3}):)?(\d{1,2}):(\d{2})(?:[.,]\d{1,3})?\]\s?")
# Anything that looks like an attempt at a stamp, to report one that does not read.
_STAMP_LIKE = re.compile(r"^\s*\[\s*\d[\d:.,\s]*\]")


class TranscriptFileError(ValueError):
    """A transcript that cannot be read; the message names the line at fault."""


@dataclass
class TimedText:
    """A transcript's text and its cues ([start_seconds, offset] pairs, by offset)."""

    text: str
    cues: list[list[int]] = field(default_factory=list)

    @classmethod
    def joined(cls, timed_lines) -> "TimedText":
        """From (start_seconds, text) cues: sorted by start (a stable sort), texts joined by line breaks."""
        parts, cues, offset = [], [], 0
        for start, text in sorted(timed_lines, key=lambda cue: cue[0]):
            text = text.strip()
            if not text:
                continue
            cues.append([int(start), offset])
            parts.append(text)
            offset += len(text) + 1
        return cls("\n".join(parts), cues)

    def stamped(self) -> str:
        """The text with a "[hh:mm:ss] " stamp before each cue: what read_stamped() reads back."""
        if not self.cues:
            return self.text
        pieces, previous = [], 0
        for start, offset in self.cues:
            pieces.append(self.text[previous:offset])
            pieces.append(f"[{clock(start)}] ")
            previous = offset
        pieces.append(self.text[previous:])
        return "".join(pieces)


def clock(seconds: int) -> str:
    hours, rest = divmod(int(seconds), 3600)
    return f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"


def format_of(name: str, text: str) -> str:
    """ "vtt", "srt" or "stamped", from the file's name, else from its first line."""
    for suffix, kind in FORMATS.items():
        if name.lower().endswith(suffix):
            return kind
    if text.lstrip().startswith("WEBVTT"):
        return "vtt"
    return "srt" if "-->" in text[:500] else "stamped"


def decode(content: bytes) -> str:
    """The file's text, or a TranscriptFileError naming the line that is not UTF-8."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = content[: error.start].count(b"\n") + 1
        raise TranscriptFileError(
            f"Line {line}: the file is not UTF-8 text (byte 0x{content[error.start]:02x}). "
            "Save it as UTF-8 and upload it again."
        ) from None


def read_file(name: str, content: bytes) -> TimedText:
    """A transcript file as text and cues; a TranscriptFileError if it is too big or malformed."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise TranscriptFileError(
            f"The file is {len(content) / 1024 / 1024:.1f} MB; a transcript file may be at most "
            f"{MAX_UPLOAD_BYTES // 1024 // 1024} MB."
        )
    text = decode(content).replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise TranscriptFileError("The file is empty.")
    reader = {"vtt": read_vtt, "srt": read_srt, "stamped": read_stamped}[format_of(name, text)]
    return reader(text)


def read_vtt(text: str) -> TimedText:
    lines = text.split("\n")
    try:
        captions = webvtt.from_string(text, strict=True).captions
    except MalformedFileError:
        raise TranscriptFileError("Line 1: a WebVTT file must start with “WEBVTT”.") from None
    except MalformedCaptionError:
        raise TranscriptFileError(vtt_problem(lines)) from None
    untimed = first_untimed_block(lines)
    if untimed is not None:
        raise TranscriptFileError(
            f"Line {untimed}: a cue timing must look like 00:01:02.000 --> 00:01:05.000."
        )
    if not captions:
        raise TranscriptFileError("The file has no cues: is it the right file?")
    return TimedText.joined(
        (caption.start_in_seconds, with_voice(caption.voice, caption.text)) for caption in captions
    )


def with_voice(voice: str | None, text: str) -> str:
    """A cue's text with its WebVTT voice (<v Ada>) as a speaker prefix, "Ada: …"."""
    return f"{voice}: {text}" if voice and text.strip() else text


def vtt_problem(lines: list[str]) -> str:
    """What webvtt-py refused, and on which line: the shortest start of the file it refuses ends there."""

    def refused(count):
        try:
            webvtt.from_string("\n".join(lines[:count]), strict=True)
        except (MalformedCaptionError, MalformedFileError):
            return True
        return False

    low, high = 1, len(lines)
    while low < high:  # the library knows what is wrong; a binary search finds where
        middle = (low + high) // 2
        if refused(middle):
            high = middle
        else:
            low = middle + 1
    line = lines[low - 1]
    if "-->" in line and not WebVTTCueBlock.STRICT_CUE_TIMINGS_PATTERN.match(line):
        return f"Line {low}: a cue timing must look like 00:01:02.000 --> 00:01:05.000."
    before = []
    for previous in reversed(lines[: low - 1]):
        if not previous.strip():
            break
        before.append(previous)
    if len(before) > 1 or any("-->" in previous for previous in before):
        return f"Line {low}: a cue must be separated from the text before it by a blank line."
    return f"Line {low}: the cue settings after the timing are not valid WebVTT."


def first_untimed_block(lines: list[str]) -> int | None:
    """The line where a block after the header that is neither a cue nor a NOTE, STYLE or
    REGION block starts (webvtt-py passes over it, so its words would be lost)."""
    blocks, start = [], None
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip() and start is None:
            start = number
        elif not line.strip() and start is not None:
            blocks.append((start, lines[start - 1 : number - 1]))
            start = None
    for start, block in blocks[1:]:
        if block[0].startswith(("NOTE", "STYLE", "REGION")):
            continue
        if not any("-->" in line for line in block[:2]):
            # "2" then a broken timing: name the timing line, not the identifier.
            return start + 1 if len(block) > 1 else start
    return None


def read_srt(text: str) -> TimedText:
    lines = text.split("\n")
    try:
        items = pysrt.SubRipFile.from_string(text, error_handling=pysrt.SubRipFile.ERROR_RAISE)
    except pysrt.Error as error:
        # pysrt reports the (0-based) blank line after the block it could not read.
        end = error.args[0] if error.args and isinstance(error.args[0], int) else 0
        line = block_timing_line(lines, end)
        raise TranscriptFileError(
            f"Line {line}: a cue timing must look like 00:01:02,000 --> 00:01:05,000."
        ) from None
    if not items:
        raise TranscriptFileError("The file has no cues: is it the right file?")
    return TimedText.joined((item.start.ordinal // 1000, item.text_without_tags) for item in items)


def block_timing_line(lines: list[str], end: int) -> int:
    """The 1-based line of the timing in the block that ends before line `end` (0-based)."""
    start = min(end, len(lines))
    while start > 0 and lines[start - 1].strip():
        start -= 1
    block = list(range(start, min(end, len(lines))))
    for index in block[:2]:
        if "-->" in lines[index]:
            return index + 1
    return (block[1] if len(block) > 1 else start) + 1


def read_stamped(text: str) -> TimedText:
    """Plain text, where a line starting "[01:02:03]" or "[02:03]" starts a cue at that time.

    Without any stamp it is plain text with no cues. Text before the first stamp
    belongs to no cue (its time is unknown).
    """
    cues, lines = [], []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        stamp = _STAMP.match(line)
        if stamp:
            hours, minutes, seconds = (int(part or 0) for part in stamp.groups())
            if (minutes > 59 and stamp.group(1)) or seconds > 59:
                raise TranscriptFileError(
                    f"Line {number}: “{stamp.group(0).strip()}” is not a time: minutes and "
                    "seconds go up to 59."
                )
            line = line[stamp.end() :]
            cues.append([hours * 3600 + minutes * 60 + seconds, offset])
        elif _STAMP_LIKE.match(line):
            raise TranscriptFileError(
                f"Line {number}: a time stamp must look like [01:02:03] or [02:03]."
            )
        lines.append(line)
        offset += len(line) + 1
    return TimedText("\n".join(lines), cues)
