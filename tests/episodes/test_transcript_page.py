"""An episode's public transcript: the whole text, with its published excerpts marked."""

import re
import time
from html import unescape
from html.parser import HTMLParser

import pytest

from claims import context
from claims.models import ClaimStatus
from claims.transcript_pages import Span, marked_transcript
from episodes.models import Status
from tests.factories import make_claim, make_episode

TRANSCRIPT = (
    "Ada Example: Welcome back to Example Show.\n"
    "Ben Sample: A quote without a source is a rumour. Check the recording.\n"
    "\n"
    "Ada Example: So what should a listener do?\n"
    "Ben Sample: Check the recording before you repeat anything."
)


def transcript_url(episode):
    return f"{episode.get_absolute_url()}transcript/"


def public_episode(**fields):
    return make_episode(transcript=TRANSCRIPT, transcript_public=True, **fields)


def transcript_section(response):
    page = response.content.decode()
    return page[page.index('<section class="transcript"') : page.index("</section>")]


def paragraphs(response):
    """Each paragraph as a reader sees it, marked words in [brackets], claim links as {07}."""
    shown = []
    for inner in re.findall(r"<p>(.*?)</p>", transcript_section(response), re.S):
        inner = re.sub(r'<a class="transcript-claim"[^>]*>.*?(\d+)</a> ', r"{\1}", inner)
        inner = inner.replace("<mark>", "[").replace("</mark>", "]")
        shown.append(unescape(inner))
    return shown


def claim_links(response):
    """(id, href, number) of every claim link in the transcript."""
    return re.findall(
        r'<a class="transcript-claim" id="([^"]+)" href="([^"]+)" aria-label="Claim \d+">(\d+)</a>',
        transcript_section(response),
    )


class NestingChecker(HTMLParser):
    """Fails on a mark inside a mark, a link inside a link, or a tag closed out of order."""

    def __init__(self):
        super().__init__()
        self.open = []

    def handle_starttag(self, tag, attrs):
        assert not (tag in ("mark", "a") and tag in self.open), f"<{tag}> inside <{tag}>"
        assert not (tag == "p" and "p" in self.open), "<p> inside <p>"
        self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1:]}>"
        self.open.pop()


def assert_well_nested(html):
    checker = NestingChecker()
    checker.feed(html)
    checker.close()
    assert checker.open == ["section"]


def test_the_public_transcript_shows_every_line_as_a_paragraph(client, db):
    episode = public_episode()

    response = client.get(transcript_url(episode))

    assert response.status_code == 200
    assert paragraphs(response) == [
        "Ada Example: Welcome back to Example Show.",
        "Ben Sample: A quote without a source is a rumour. Check the recording.",
        "Ada Example: So what should a listener do?",
        "Ben Sample: Check the recording before you repeat anything.",
    ]


def test_published_excerpts_are_marked_and_linked_to_their_claims(client, db):
    episode = public_episode()
    first = make_claim(episode, excerpt="a quote without a source is a rumour.")
    second = make_claim(episode, excerpt="Check the recording before you repeat anything.")

    response = client.get(transcript_url(episode))

    assert paragraphs(response)[1] == (
        "Ben Sample: [{01}A quote without a source is a rumour.] Check the recording."
    )
    assert paragraphs(response)[3] == (
        "Ben Sample: [{02}Check the recording before you repeat anything.]"
    )
    assert claim_links(response) == [
        ("claim-01", first.get_absolute_url(), "01"),
        ("claim-02", second.get_absolute_url(), "02"),
    ]


@pytest.mark.parametrize("status", [ClaimStatus.DRAFT, ClaimStatus.RETRACTED])
def test_claims_not_published_are_never_marked(client, db, status):
    episode = public_episode()
    make_claim(episode, excerpt="Welcome back to Example Show.")
    excerpt = "Check the recording before you repeat anything."
    if status == ClaimStatus.RETRACTED:
        make_claim(episode, excerpt=excerpt).retract("Misattributed.")
    else:
        make_claim(episode, excerpt=excerpt, status=status)

    response = client.get(transcript_url(episode))

    assert [link[0] for link in claim_links(response)] == ["claim-01"]
    assert "claims/2/" not in response.content.decode()
    assert paragraphs(response)[3] == "Ben Sample: Check the recording before you repeat anything."
    assert "1 published claim marked" in response.content.decode()


def test_an_excerpt_not_found_is_not_marked(client, db):
    episode = public_episode()
    make_claim(episode, excerpt="Check the recordings before you repeat anything.")

    response = client.get(transcript_url(episode))

    assert "<mark>" not in transcript_section(response)


def test_overlapping_excerpts_share_one_mark_and_keep_both_links(client, db):
    episode = public_episode()
    make_claim(episode, excerpt="A quote without a source")
    make_claim(episode, excerpt="without a source is a rumour. Check the recording.")

    response = client.get(transcript_url(episode))

    assert paragraphs(response)[1] == (
        "Ben Sample: [{01}A quote {02}without a source is a rumour. Check the recording.]"
    )
    assert_well_nested(transcript_section(response))


def test_an_excerpt_over_a_line_break_is_marked_in_both_paragraphs(client, db):
    episode = public_episode()
    make_claim(episode, excerpt="Check the recording. Ada Example: So what")

    response = client.get(transcript_url(episode))

    assert paragraphs(response)[1:3] == [
        "Ben Sample: A quote without a source is a rumour. [{01}Check the recording.]",
        "[Ada Example: So what] should a listener do?",
    ]
    assert_well_nested(transcript_section(response))


def test_excerpts_side_by_side_keep_their_own_marks(client, db):
    episode = public_episode()
    make_claim(episode, excerpt="A quote without a source")
    make_claim(episode, excerpt="is a rumour.")

    response = client.get(transcript_url(episode))

    assert paragraphs(response)[1] == (
        "Ben Sample: [{01}A quote without a source] [{02}is a rumour.] Check the recording."
    )


def test_the_transcript_is_escaped(client, db):
    episode = make_episode(
        transcript="Ada: <script>alert(1)</script> & “Ça marche” 🎙️", transcript_public=True
    )
    make_claim(episode, excerpt="“Ça marche” 🎙️")

    section = transcript_section(client.get(transcript_url(episode)))

    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; <mark>" in section
    assert "Ça marche” 🎙️</mark>" in section
    assert "<script>" not in section


def test_times_are_shown_where_the_transcript_has_them(client, db, monkeypatch):
    monkeypatch.setattr(context, "seconds_at", lambda transcript, offset: offset)
    episode = public_episode()

    response = client.get(transcript_url(episode))

    assert '<p><span class="transcript-time">0:43</span> Ben Sample:' in response.content.decode()


@pytest.mark.parametrize(
    "episode_fields",
    [
        {"transcript": TRANSCRIPT, "transcript_public": False},
        {"transcript": TRANSCRIPT, "transcript_public": True, "status": Status.DRAFT},
        {},
        {"transcript": "  \n ", "transcript_public": True},
    ],
    ids=["not public", "draft episode", "no transcript", "blank transcript"],
)
def test_no_public_transcript_is_a_404(client, db, episode_fields):
    episode = make_episode(**episode_fields)

    assert client.get(transcript_url(episode)).status_code == 404


def test_the_episode_page_links_to_a_public_transcript(client, db):
    episode = public_episode()

    response = client.get(episode.get_absolute_url())

    assert f'href="{transcript_url(episode)}">Read the transcript</a>' in response.content.decode()


def test_the_episode_page_does_not_link_to_a_transcript_that_is_not_public(client, db):
    episode = make_episode(transcript=TRANSCRIPT)

    response = client.get(episode.get_absolute_url())

    assert "transcript/" not in response.content.decode()


@pytest.mark.parametrize("claims", [2, 20])
def test_the_transcript_page_query_count(client, db, django_assert_num_queries, claims):
    episode = make_episode(transcript=TRANSCRIPT * claims, transcript_public=True)
    for _ in range(claims):
        make_claim(episode, excerpt="Check the recording")
    # the ledger's version, for the page cache key and ETag; then
    # 1. the episode with its podcast and transcript
    # 2. its published claims that were found in it
    with django_assert_num_queries(3):
        response = client.get(transcript_url(episode))
    assert response.status_code == 200


def test_marking_a_long_transcript_takes_one_pass():
    # A two-hour transcript (about 120 KB in 2,000 lines) with 80 excerpts, some overlapping.
    text = "".join(
        f"Speaker {n % 3}: words of line {n}, and a few more of them here.\n" for n in range(2000)
    )
    spans = [Span(n * 1500, n * 1500 + 300, f"{n:02d}", f"/claims/{n}/") for n in range(80)]
    spans += [
        Span(n * 1500 + 200, n * 1500 + 450, f"{n:02d}", f"/claims/{n}/") for n in range(0, 80, 4)
    ]
    spans.sort(key=lambda span: span.start)

    started = time.perf_counter()
    marked = marked_transcript(text, spans)
    elapsed = time.perf_counter() - started

    assert marked.count("<p>") == 2000
    assert marked.count('class="transcript-claim"') == 100
    # About 10 ms here; a pass per claim over the whole text would take seconds.
    assert elapsed < 0.5


# The demo's Example Show episode has a public transcript, one excerpt not found in it.

DEMO_EPISODE = "/episodes/example-show/testing-in-production/"


def test_the_demo_transcript_marks_the_published_excerpts_it_holds(client, demo):
    response = client.get(f"{DEMO_EPISODE}transcript/")

    # 04 is a draft; 05 says "started" where the transcript says "began".
    assert [number for _, _, number in claim_links(response)] == ["01", "02", "03", "06"]
    assert "Honestly I don’t know yet" in transcript_section(response)


def test_the_demo_episode_links_to_its_transcript(client, demo):
    response = client.get(DEMO_EPISODE)

    assert f'href="{DEMO_EPISODE}transcript/">Read the transcript</a>' in response.content.decode()


def test_the_transcript_page_describes_itself(client, db):
    episode = public_episode(title="Testing Carefully")

    page = client.get(transcript_url(episode)).content.decode()

    name = episode.podcast.name
    assert f"<title>Transcript · Testing Carefully · {name} · Evidence Ledger</title>" in page
    assert (
        f'<meta name="description" content="The whole transcript of “Testing Carefully” ({name}), '
        'with the excerpts of its published claims marked.">'
    ) in page
    assert f'<link rel="canonical" href="http://testserver{transcript_url(episode)}">' in page
