"""A claim's permalink shows the passage of the transcript around its excerpt."""

import re
from html import unescape

from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims import context
from claims.context import REACH, passage
from episodes.models import Status, Transcript
from tests.factories import make_claim, make_episode

SPEECH = (
    "Ada Example: Welcome back. This is the first sentence. Here is the second one! "
    "Is this the third? The excerpt sits right here in the middle. After it comes one. "
    "Then comes two. And three is left out."
)


def around(text, excerpt, **options):
    start = text.index(excerpt)
    return passage(text, start, start + len(excerpt), **options)


def context_of(response):
    """The passage as a reader sees it, the marked words in [brackets]."""
    page = response.content.decode()
    found = re.search(
        r'<blockquote class="transcript-passage"><p>(.*?)</p></blockquote>', page, re.S
    )
    if found is None:
        return None
    marked = found.group(1).replace("<mark>", "[").replace("</mark>", "]")
    return unescape(marked)


# Cutting the passage: pure functions on the text.


def test_the_passage_holds_two_sentences_either_side():
    found = around(SPEECH, "The excerpt sits right here in the middle.")

    assert found.before == "Here is the second one! Is this the third? "
    assert found.after == " After it comes one. Then comes two."
    assert (found.cut_before, found.cut_after) == (False, False)


def test_an_excerpt_inside_a_sentence_brings_the_rest_of_its_sentence():
    found = around(SPEECH, "sits right here")

    assert found.before == "Here is the second one! Is this the third? The excerpt "
    assert found.after == " in the middle. After it comes one. Then comes two."


def test_at_the_start_of_the_transcript_the_passage_starts_there():
    found = around(SPEECH, "Welcome back.")

    assert found.before == "Ada Example: "
    assert found.after == " This is the first sentence. Here is the second one!"
    assert not found.cut_before


def test_at_the_end_of_the_transcript_the_passage_ends_there():
    found = around(SPEECH, "Then comes two.")

    assert found.after == " And three is left out."
    assert not found.cut_after


def test_line_breaks_end_sentences_too():
    text = "Ada Example: so\nBen Sample: no\nAda Example: yes\nBen Sample: the excerpt\nAda: a\nBen: b\nAda: c"

    found = around(text, "the excerpt")

    assert found.before == "Ben Sample: no\nAda Example: yes\nBen Sample: "
    assert found.after == "\nAda: a\nBen: b"


def test_a_transcript_without_punctuation_is_cut_at_a_word_within_reach():
    words = " ".join(f"word{n}" for n in range(2000))
    found = around(words, "word1000 word1001")

    assert found.cut_before and found.cut_after
    assert REACH - 10 <= len(found.before) <= REACH
    assert REACH - 10 <= len(found.after) <= REACH
    assert re.fullmatch(r"(word\d+ )+", found.before)
    assert re.fullmatch(r"( word\d+)+", found.after)


def test_runs_of_spaces_and_blank_lines_are_tidied():
    found = around("One.  Two\n\n\nthe   excerpt   here.", "the   excerpt")

    assert found.before == "One. Two\n"
    assert found.excerpt == "the excerpt"


def test_a_window_of_the_transcript_is_cut_short_at_its_edges():
    window = "middle of a sentence and the excerpt and more words"

    found = around(window, "the excerpt", from_start=False, to_end=False)

    assert (found.cut_before, found.cut_after) == (True, True)


# The permalink.


def permalink(client, claim):
    return client.get(claim.get_absolute_url())


def test_the_permalink_shows_the_passage_with_the_excerpt_marked(client, db):
    episode = make_episode(transcript=SPEECH)
    claim = make_claim(episode, excerpt="The excerpt sits right here in the middle.")

    response = permalink(client, claim)

    assert context_of(response) == (
        "Here is the second one! Is this the third? "
        "[The excerpt sits right here in the middle.] After it comes one. Then comes two."
    )


def test_the_context_is_shown_when_the_whole_transcript_is_not_public(client, db):
    episode = make_episode(transcript=SPEECH, transcript_public=False)
    claim = make_claim(episode, excerpt="Then comes two.")

    response = permalink(client, claim)

    assert "[Then comes two.]" in context_of(response)
    assert "Read it in the whole transcript" not in response.content.decode()


def test_a_public_transcript_is_linked_at_the_claim(client, db):
    episode = make_episode(transcript=SPEECH, transcript_public=True)
    claim = make_claim(episode, excerpt="Then comes two.")

    response = permalink(client, claim)

    assert f'href="{episode.get_absolute_url()}transcript/#claim-01"' in response.content.decode()


def test_an_excerpt_with_other_typography_is_marked_where_the_transcript_has_it(client, db):
    transcript = "Ben Sample: I’ll say it plainly — a quote without a source is a rumour. Next."
    episode = make_episode(transcript=transcript)
    claim = make_claim(episode, excerpt="i'll say it plainly - a quote without a source")

    response = permalink(client, claim)

    assert context_of(response) == (
        "Ben Sample: [I’ll say it plainly — a quote without a source] is a rumour. Next."
    )


def test_the_passage_is_escaped_and_keeps_its_unicode(client, db):
    transcript = "Ada: <script>alert(1)</script> & so. Ben: “Ça marche” 🎙️ <b>bold</b>. Done."
    episode = make_episode(transcript=transcript)
    claim = make_claim(episode, excerpt="“Ça marche” 🎙️ <b>bold</b>.")

    page = permalink(client, claim).content.decode()

    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; so." in page
    assert "<mark>“Ça marche” 🎙️ &lt;b&gt;bold&lt;/b&gt;.</mark> Done." in page


def test_an_excerpt_not_found_shows_no_context_and_says_so(client, db):
    episode = make_episode(transcript=SPEECH)
    claim = make_claim(episode, excerpt="Words nobody said.")

    response = permalink(client, claim)

    assert context_of(response) is None
    assert (
        "The excerpt was not found word for word in the transcript, so no context is shown."
        in response.content.decode()
    )


def test_without_a_transcript_the_page_says_so_and_shows_no_context(client, db):
    claim = make_claim(make_episode())

    response = permalink(client, claim)

    assert context_of(response) is None
    assert "No transcript of this episode yet" in response.content.decode()
    assert "so no context is shown" not in response.content.decode()


def test_a_retracted_claim_shows_no_context(client, db):
    episode = make_episode(transcript=SPEECH)
    claim = make_claim(episode, excerpt="Then comes two.")
    claim.retract("Misattributed.")

    response = permalink(client, claim)

    assert context_of(response) is None


def test_the_time_is_shown_where_the_transcript_has_times(client, db, monkeypatch):
    monkeypatch.setattr(context, "seconds_at", lambda transcript, offset: 754)
    episode = make_episode(transcript=SPEECH)
    claim = make_claim(episode, excerpt="Then comes two.")

    response = permalink(client, claim)

    assert "At 12:34 in the episode" in response.content.decode()


def test_the_permalink_reads_the_transcript_in_the_claims_query(
    client, db, django_assert_num_queries
):
    episode = make_episode(transcript=SPEECH, transcript_public=True)
    claim = make_claim(episode, excerpt="Then comes two.")
    # the ledger's version, for the page cache key and ETag; then
    # 1. the claim with its episode, podcast, speaker, transcript row and the window of its text
    # 2. and 3. its public links and the claims at their ends; 4. its topics; 5. the
    # references it names
    with django_assert_num_queries(6):
        response = permalink(client, claim)
    assert "[Then comes two.]" in context_of(response)


def test_a_transcript_without_punctuation_shows_a_capped_passage(client, db):
    words = " ".join(f"word{n}" for n in range(3000))
    claim = make_claim(make_episode(transcript=words), excerpt="word1500 word1501")

    shown = context_of(permalink(client, claim))

    before, rest = shown.split("[")
    marked, after = rest.split("]")
    assert before.startswith("…word") and after.endswith("…")
    assert REACH - 10 <= len(before) - 1 <= REACH
    assert REACH - 10 <= len(after) - 1 <= REACH
    assert marked == "word1500 word1501"


def test_the_permalink_reads_a_window_of_the_transcript_not_all_of_it(client, db):
    filler = "Words of a long conversation go on and on. " * 3000  # about 130 KB
    episode = make_episode(transcript=filler + "So. The excerpt is here. Fine. " + filler)
    claim = make_claim(episode, excerpt="The excerpt is here.")

    with CaptureQueriesContext(connection) as queries:
        response = permalink(client, claim)

    assert context_of(response) == (
        "Words of a long conversation go on and on. So. [The excerpt is here.] Fine. "
        "Words of a long conversation go on and on."
    )
    (sql,) = [query["sql"] for query in queries if "episodes_transcript" in query["sql"]]
    # The text is read only through SUBSTR: the database cuts the window out.
    assert sql.count('"episodes_transcript"."text"') == 1
    assert re.search(r'SUBSTR(ING)?\("episodes_transcript"\."text"', sql, re.I)


def test_a_draft_episode_shows_nothing(client, db):
    episode = make_episode(transcript=SPEECH, status=Status.DRAFT)
    claim = make_claim(episode, excerpt="Then comes two.")

    assert permalink(client, claim).status_code == 404


# The demo's Example Show episode has a public transcript, one excerpt not found in it.

DEMO_EPISODE = "/episodes/example-show/testing-in-production/"


def test_a_demo_claim_shows_its_context(client, demo):
    response = client.get(f"{DEMO_EPISODE}claims/3/")

    assert context_of(response) == (
        "Loud is the important word.\n"
        "Caller 2: Can I come in here? [I have to push back on that, because a nightly copy of "
        "production data is a privacy problem before it is a testing solution.] Whose data "
        "is it, and who agreed to it?\nBen Sample: That’s fair."
    )


def test_the_demo_claim_not_found_says_so(client, demo):
    response = client.get(f"{DEMO_EPISODE}claims/5/")

    assert context_of(response) is None
    assert "so no context is shown" in response.content.decode()


def test_offsets_older_than_the_transcript_show_no_context_rather_than_fail(client, db):
    episode = make_episode(transcript=SPEECH)
    claim = make_claim(episode, excerpt="Then comes two.")
    # A bulk update skips the check that keeps the offsets in step.
    Transcript.objects.filter(episode=episode).update(text="Short now.")

    response = permalink(client, claim)

    assert response.status_code == 200
    assert context_of(response) is None
