"""The episode's admin page with a two-hour timed transcript and 80 claims: render time and queries.

    .venv/bin/python bench/episode_admin.py                  # a throwaway SQLite database
    DATABASE_URL=postgres://…/bench_1m .venv/bin/python bench/episode_admin.py   # in a big ledger

Without DATABASE_URL it migrates a new SQLite file in a temporary folder. With it,
it adds its episode to that (migrated) database inside a transaction and rolls it
back at the end, so a benchmark ledger of a million claims is left as it was.
Also times what the page and the upload do with such a transcript: reading a
2,000-cue WebVTT file, and finding the nearest passage for an excerpt not found.
Prints one JSON object.
"""

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
THROWAWAY = "DATABASE_URL" not in os.environ
if THROWAWAY:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/episode_admin.sqlite3"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from claims import capture, nearest, verbatim  # noqa: E402
from claims.models import Claim  # noqa: E402
from episodes.transcripts import read_file  # noqa: E402
from tests.factories import make_episode, make_podcast, make_speaker  # noqa: E402

CUES, CLAIMS, REPEAT = 2000, 80, 10
# Fictional talk: common words and some rarer ones, like a real transcript's spread.
COMMON = "the a and to of we it that is in you was for on with this they but so".split()
RARE = [f"{stem}{n}" for stem in ("ledger", "sample", "cue", "model", "batch") for n in range(400)]


def fictional_vtt(rng) -> str:
    lines = ["WEBVTT", ""]
    for n in range(CUES):
        words = [rng.choice(RARE if rng.random() < 0.3 else COMMON) for _ in range(11)]
        start = n * 3.6
        lines += [
            f"{clock(start)} --> {clock(start + 3.5)}",
            f"<v {'Ada Example' if n % 2 else 'Ben Sample'}>{' '.join(words).capitalize()}.",
            "",
        ]
    return "\n".join(lines)


def clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d}.{int(seconds * 1000) % 1000:03d}"


def seconds(function, repeat=REPEAT):
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return round(statistics.median(samples) * 1000, 1)


def build(rng, vtt):
    timed = read_file("bench.vtt", vtt.encode())
    # Named apart from the factories' defaults, which a benchmark ledger already uses.
    podcast = make_podcast(name="Episode Admin Bench", slug="episode-admin-bench")
    episode = make_episode(podcast, audio_url="https://example.com/bench.mp3")
    episode.save_transcript(timed.text, timed.cues)
    speakers = [make_speaker(name=f"Bench Voice {n}", slug=f"bench-voice-{n}") for n in range(6)]
    lines = timed.text.split("\n")
    for number in range(1, CLAIMS + 1):
        excerpt = lines[rng.randrange(len(lines))].split(": ", 1)[1][:70]
        if number % 8 == 0:  # one in eight not found: a changed word
            excerpt = excerpt.replace(" the ", " teh ", 1).replace(" a ", " an ", 1) + " indeed"
        Claim(
            episode=episode,
            number=number,
            type="observation",
            excerpt=excerpt,
            speaker=speakers[number % len(speakers)],
            status="published",
        ).save()
    return episode, timed


def main():
    rng = random.Random(17)
    if THROWAWAY:
        call_command("migrate", verbosity=0)
    vtt = fictional_vtt(rng)
    report = {"database": connection.vendor, "vtt_bytes": len(vtt.encode())}
    report["read_vtt_ms"] = seconds(lambda: read_file("bench.vtt", vtt.encode()), repeat=3)
    with transaction.atomic():
        episode, timed = build(rng, vtt)
        report["transcript_bytes"] = len(timed.text.encode())
        report["claims_in_ledger"] = Claim.objects.count()
        missing = Claim.objects.filter(episode=episode, verification="not_found").first()
        verbatim.folded_transcript.cache_clear()
        nearest.transcript_index.cache_clear()
        started = time.perf_counter()
        nearest.nearest_passage(missing.excerpt, timed.text)
        report["nearest_first_ms"] = round((time.perf_counter() - started) * 1000, 1)
        report["nearest_again_ms"] = seconds(
            lambda: nearest.nearest_passage(missing.excerpt, timed.text)
        )
        passages = capture.captured_passages(episode)
        report["panel_ms"] = seconds(
            lambda: capture.panel_html(timed.text, timed.cues, passages), repeat=3
        )
        user = get_user_model().objects.create_superuser("bench-editor", password="x")
        client = Client()
        client.force_login(user)
        url = f"/admin/episodes/episode/{episode.pk}/change/"
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]):
            client.get(url)  # warm: the transcript's folding is kept per process
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200
            report["page_queries"] = len(queries)
            report["page_bytes"] = len(response.content)
            report["page_ms_median"] = seconds(lambda: client.get(url))
        transaction.set_rollback(True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
