"""Curation in the admin, as an editor: staff in the Editors group, not a superuser."""

import re
from html import unescape

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from claims.models import Attribution, Claim, ClaimType, Verification
from episodes.models import Episode, Status, Transcript
from tests.claims.admin_forms import claim_change_form
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

CLAIMS = "/admin/claims/claim/"
EPISODES = "/admin/episodes/episode/"


@pytest.fixture
def editor_client(client, editor):
    assert not editor.is_superuser
    client.force_login(editor)
    return client


def changelist_rows(response):
    """The visible text of each result row of a changelist."""
    body = response.content.decode().split('id="result_list"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr\b[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S)
    return [" ".join(unescape(re.sub(r"<[^>]*>", " ", row)).split()) for row in rows]


def test_admin_index_lists_the_curated_models_for_an_editor(editor_client):
    response = editor_client.get("/admin/")
    html = response.content.decode()

    assert response.status_code == 200
    for path in (CLAIMS, EPISODES, "/admin/episodes/podcast/", "/admin/episodes/speaker/"):
        assert f'href="{path}"' in html


def test_claim_changelist_shows_each_claim_with_its_voice(editor_client):
    episode = make_episode(title="Testing Carefully")
    make_claim(episode, speaker=make_speaker(name="Ada Example"), excerpt="Ada's exact words.")
    make_claim(episode, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")

    response = editor_client.get(CLAIMS)

    assert response.status_code == 200
    assert changelist_rows(response) == [
        "01 Evaluation Ada's exact words. Ada Example Testing Carefully Published no transcript",
        "02 Evaluation An exact excerpt, number 2, as it was said. Caller 2 Testing Carefully "
        "Published no transcript",
    ]


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ({"status__exact": Status.DRAFT}, ["A draft prediction."]),
        ({"type__exact": ClaimType.PREDICTION}, ["A draft prediction.", "A published prediction."]),
        ({"attribution__exact": Attribution.UNRESOLVED}, ["A belief by a caller."]),
    ],
    ids=["status", "type", "attribution"],
)
def test_claim_changelist_filters(editor_client, query, shown):
    episode = make_episode()
    make_claim(episode, type=ClaimType.PREDICTION, excerpt="A published prediction.")
    make_claim(
        episode, type=ClaimType.PREDICTION, excerpt="A draft prediction.", status=Status.DRAFT
    )
    make_claim(
        episode,
        type=ClaimType.BELIEF,
        excerpt="A belief by a caller.",
        attribution=Attribution.UNRESOLVED,
    )
    excerpts = ("A published prediction.", "A draft prediction.", "A belief by a caller.")

    response = editor_client.get(CLAIMS, query)
    rows = changelist_rows(response)

    assert response.status_code == 200
    assert len(rows) == len(shown)
    assert sorted(e for e in excerpts if any(e in row for row in rows)) == sorted(shown)


def test_claim_changelist_filters_by_podcast(editor_client):
    example_show = make_podcast(name="Example Show")
    make_claim(make_episode(example_show), excerpt="Said on Example Show.")
    make_claim(make_episode(make_podcast(name="Sample Hour")), excerpt="Said on Sample Hour.")

    response = editor_client.get(CLAIMS, {"episode__podcast__id__exact": example_show.pk})
    rows = changelist_rows(response)

    assert response.status_code == 200
    assert len(rows) == 1
    assert "Said on Example Show." in rows[0]


def test_claim_changelist_searches_excerpts_and_speakers(editor_client):
    episode = make_episode()
    make_claim(episode, speaker=make_speaker(name="Ada Example"), excerpt="About zeppelins.")
    make_claim(episode, speaker=make_speaker(name="Ben Sample"), excerpt="About trains.")

    by_word = changelist_rows(editor_client.get(CLAIMS, {"q": "zeppelins"}))
    by_speaker = changelist_rows(editor_client.get(CLAIMS, {"q": "Ben Sample"}))

    assert len(by_word) == 1 and "About zeppelins." in by_word[0]
    assert len(by_speaker) == 1 and "About trains." in by_speaker[0]


def test_claim_changelist_query_count_does_not_grow_with_claims(editor_client):
    make_ledger(episodes=2, claims_per_episode=3, speakers=2)
    with CaptureQueriesContext(connection) as small:
        few = changelist_rows(editor_client.get(CLAIMS))

    make_ledger(episodes=6, claims_per_episode=12, speakers=6)
    with CaptureQueriesContext(connection) as large:
        many = changelist_rows(editor_client.get(CLAIMS))

    assert len(many) > len(few)
    assert len(large) == len(small)


def test_episode_changelist_query_count_does_not_grow_with_episodes(editor_client):
    make_ledger(episodes=2, claims_per_episode=3, speakers=2)
    with CaptureQueriesContext(connection) as small:
        few = changelist_rows(editor_client.get(EPISODES))

    make_ledger(episodes=10, claims_per_episode=4, speakers=4)
    with CaptureQueriesContext(connection) as large:
        many = changelist_rows(editor_client.get(EPISODES))

    assert len(many) > len(few)
    assert len(large) == len(small)


def test_claim_change_form_loads_for_an_editor(editor_client):
    claim = make_claim(excerpt="Words to curate.")

    response = editor_client.get(f"{CLAIMS}{claim.pk}/change/")

    assert response.status_code == 200
    assert "Words to curate.</textarea>" in response.content.decode()


def test_claim_add_form_loads_for_an_editor(editor_client):
    response = editor_client.get(f"{CLAIMS}add/")

    assert response.status_code == 200
    assert 'name="excerpt"' in response.content.decode()


def test_episode_changelist_loads_for_an_editor(editor_client):
    make_episode(title="Testing Carefully")

    response = editor_client.get(EPISODES)

    assert response.status_code == 200
    assert "Testing Carefully" in response.content.decode()


def test_episode_change_form_shows_its_published_claims_as_a_table_in_ledger_order(editor_client):
    episode = make_episode()
    make_claim(episode, number=2, excerpt="Second in the ledger.")
    make_claim(episode, number=1, excerpt="First in the ledger.")
    make_claim(episode, number=10, excerpt="Tenth in the ledger.").retract("Misattributed.")

    response = editor_client.get(f"{EPISODES}{episode.pk}/change/")
    html = response.content.decode()

    assert response.status_code == 200
    assert "Published and retracted claims (3)" in html
    positions = [
        html.find(f'<td class="excerpt">{escape(text)}</td>')
        for text in ("First in the ledger.", "Second in the ledger.", "Tenth in the ledger.")
    ]
    assert -1 not in positions
    assert positions == sorted(positions)
    # Not as forms: the inline offers the drafts (none here) and one blank claim.
    assert response.context["inline_admin_formsets"][1].formset.total_form_count() == 1


def test_episode_change_form_shows_its_drafts_inline_in_ledger_order(editor_client):
    episode = make_episode()
    make_claim(episode, number=2, excerpt="Second in the ledger.", status=Status.DRAFT)
    make_claim(episode, number=1, excerpt="First in the ledger.", status=Status.DRAFT)
    make_claim(episode, number=10, excerpt="Tenth in the ledger.", status=Status.DRAFT)

    html = editor_client.get(f"{EPISODES}{episode.pk}/change/").content.decode()

    positions = [
        html.find(f"{escape(text)}</textarea>")
        for text in ("First in the ledger.", "Second in the ledger.", "Tenth in the ledger.")
    ]
    assert -1 not in positions
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    ("path", "shown"),
    [("/admin/episodes/speaker/", "Ada Example"), ("/admin/episodes/podcast/", "Example Show")],
    ids=["speakers", "podcasts"],
)
def test_speaker_and_podcast_changelists_load_for_an_editor(editor_client, path, shown):
    make_claim(
        episode=make_episode(make_podcast(name="Example Show")),
        speaker=make_speaker(name="Ada Example"),
    )

    response = editor_client.get(path)

    assert response.status_code == 200
    assert shown in changelist_rows(response)[0]


def test_publish_action_publishes_the_selected_claims(editor_client):
    episode = make_episode()
    chosen = [make_claim(episode, status=Status.DRAFT) for _ in range(2)]
    left = make_claim(episode, status=Status.DRAFT)

    response = editor_client.post(
        CLAIMS, {"action": "publish", "_selected_action": [c.pk for c in chosen]}, follow=True
    )

    assert "Published 2 claim(s)." in response.content.decode()
    statuses = dict(Claim.objects.values_list("pk", "status"))
    assert [statuses[c.pk] for c in chosen] == [Status.PUBLISHED, Status.PUBLISHED]
    assert statuses[left.pk] == Status.DRAFT


def test_the_claims_list_offers_no_way_to_send_published_claims_back_to_draft(editor_client):
    chosen = make_claim()

    offered = editor_client.get(CLAIMS).content.decode()
    response = editor_client.post(
        CLAIMS, {"action": "unpublish", "_selected_action": [chosen.pk]}, follow=True
    )

    assert '<option value="unpublish">' not in offered
    assert '<option value="retract">Retract selected claims…</option>' in offered
    assert "No action selected." in response.content.decode()
    chosen.refresh_from_db()
    assert chosen.status == Status.PUBLISHED


def test_a_published_claim_cannot_be_made_a_draft_on_its_change_form(editor_client):
    claim = make_claim()
    url = f"{CLAIMS}{claim.pk}/change/"

    form = editor_client.get(url).content.decode()
    response = editor_client.post(url, claim_change_form(claim, status=Status.DRAFT))

    assert '<option value="draft"' not in form
    assert response.status_code == 200
    assert "Select a valid choice. draft is not one of the available choices." in (
        response.content.decode()
    )
    claim.refresh_from_db()
    assert claim.status == Status.PUBLISHED


def test_publish_action_publishes_the_selected_episodes(editor_client):
    episode = make_episode(status=Status.DRAFT)

    editor_client.post(EPISODES, {"action": "publish", "_selected_action": [episode.pk]})

    episode.refresh_from_db()
    assert episode.status == Status.PUBLISHED


def episode_form(podcast, claims, **fields):
    """POST data for the episode add form with `claims` as its inline claim rows."""
    data = {
        "podcast": podcast.pk,
        "title": "Testing Carefully",
        "slug": "testing-carefully",
        "air_date": "2026-04-10",
        "status": Status.PUBLISHED,
        "original_url": "https://example.com/example-show/testing-carefully/",
        "audio_url": "",
        "summary": "",
        "transcript": "",
        "claims-TOTAL_FORMS": len(claims),
        "claims-INITIAL_FORMS": 0,
        "claims-MIN_NUM_FORMS": 0,
        "claims-MAX_NUM_FORMS": 1000,
        "appearances-TOTAL_FORMS": 0,
        "appearances-INITIAL_FORMS": 0,
        "appearances-MIN_NUM_FORMS": 0,
        "appearances-MAX_NUM_FORMS": 1000,
        "_save": "Save",
        **fields,
    }
    blank_row = {
        "number": "",
        "type": ClaimType.EVALUATION,
        "excerpt": "",
        "attribution": Attribution.IDENTIFIED,
        "speaker": "",
        "unresolved_label": "",
        "timestamp": "",
        "summary": "",
        "status": Status.PUBLISHED,
    }
    for i, row in enumerate(claims):
        data.update({f"claims-{i}-{name}": value for name, value in {**blank_row, **row}.items()})
    return data


def test_editor_adds_an_episode_with_its_claims_inline(editor_client):
    podcast, ada = make_podcast(name="Example Show"), make_speaker(name="Ada Example")

    response = editor_client.post(
        f"{EPISODES}add/",
        episode_form(
            podcast,
            [
                {"number": 1, "excerpt": "Ada's exact words.", "speaker": ada.pk},
                {
                    "number": 2,
                    "type": ClaimType.DISAGREEMENT,
                    "excerpt": "A caller's exact words.",
                    "attribution": Attribution.UNRESOLVED,
                    "unresolved_label": "Caller 2",
                },
            ],
        ),
    )

    assert response.status_code == 302
    episode = Episode.objects.get(podcast=podcast, slug="testing-carefully")
    assert [(c.number, c.type, c.voice, c.excerpt) for c in episode.claims.order_by("number")] == [
        (1, ClaimType.EVALUATION, "Ada Example", "Ada's exact words."),
        (2, ClaimType.DISAGREEMENT, "Caller 2", "A caller's exact words."),
    ]


def test_an_episode_added_with_a_transcript_checks_its_claims_against_it(editor_client):
    podcast, ada = make_podcast(), make_speaker()
    form = episode_form(
        podcast,
        [{"number": 1, "excerpt": "Ship small changes.", "speaker": ada.pk}],
        transcript="Ada: Ship small changes. Then watch them.",
        transcript_is_public="on",
    )

    assert editor_client.post(f"{EPISODES}add/", form).status_code == 302

    episode = Episode.objects.select_related("transcript").get(podcast=podcast)
    assert (episode.transcript.text, episode.transcript.is_public) == (
        "Ada: Ship small changes. Then watch them.",
        True,
    )
    assert episode.claims.get().verification == Verification.FOUND


def test_a_transcript_is_made_public_only_with_its_text(editor_client):
    form = episode_form(make_podcast(), [], transcript=" \n", transcript_is_public="on")

    response = editor_client.post(f"{EPISODES}add/", form)

    assert response.status_code == 200
    assert "Paste the transcript before making it public." in response.content.decode()
    assert not Episode.objects.filter(slug="testing-carefully").exists()


def test_an_episode_added_without_a_transcript_stores_none(editor_client):
    podcast = make_podcast()

    assert editor_client.post(f"{EPISODES}add/", episode_form(podcast, [])).status_code == 302

    assert not Transcript.objects.filter(episode__podcast=podcast).exists()


def test_the_episode_page_edits_the_stored_transcript(editor_client):
    episode = make_episode(transcript="Old words.")
    claim = make_claim(episode, excerpt="New words.")
    response = editor_client.get(f"{EPISODES}{episode.pk}/change/")
    assert "Old words." in response.content.decode()

    form = episode_form(episode.podcast, [], transcript="New words.", slug=episode.slug)
    form.update({"claims-INITIAL_FORMS": 0, "claims-TOTAL_FORMS": 0})
    assert editor_client.post(f"{EPISODES}{episode.pk}/change/", form).status_code == 302

    assert Transcript.objects.get(episode=episode).text == "New words."
    claim.refresh_from_db()
    assert claim.verification == Verification.FOUND


def test_an_inline_identified_claim_without_a_speaker_is_refused_with_a_reason(editor_client):
    podcast = make_podcast()

    response = editor_client.post(
        f"{EPISODES}add/", episode_form(podcast, [{"number": 1, "excerpt": "Whose words?"}])
    )

    assert response.status_code == 200
    assert "An identified claim needs its speaker." in response.content.decode()
    assert not Episode.objects.filter(podcast=podcast).exists()


def test_a_published_claim_cannot_be_deleted_from_the_admin(editor_client):
    claim = make_claim(status=Status.PUBLISHED)

    page = editor_client.get(f"{CLAIMS}{claim.pk}/delete/")
    post = editor_client.post(f"{CLAIMS}{claim.pk}/delete/", {"post": "yes"})

    assert (page.status_code, post.status_code) == (403, 403)
    assert Claim.objects.filter(pk=claim.pk).exists()


def test_a_draft_claim_can_be_deleted_from_the_admin(editor_client):
    claim = make_claim(status=Status.DRAFT)

    response = editor_client.post(f"{CLAIMS}{claim.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not Claim.objects.filter(pk=claim.pk).exists()


def test_speaker_autocomplete_finds_speakers_for_an_editor(editor_client):
    ada = make_speaker(name="Ada Example")
    make_speaker(name="Ben Sample")

    response = editor_client.get(
        "/admin/autocomplete/",
        {"app_label": "claims", "model_name": "claim", "field_name": "speaker", "term": "Ada"},
    )

    assert response.status_code == 200
    assert response.json()["results"] == [{"id": str(ada.pk), "text": "Ada Example"}]


def test_episode_autocomplete_finds_episodes_for_an_editor(editor_client):
    episode = make_episode(title="Testing Carefully")
    make_episode(title="Roadmaps Without Dates")

    response = editor_client.get(
        "/admin/autocomplete/",
        {"app_label": "claims", "model_name": "claim", "field_name": "episode", "term": "Testing"},
    )

    assert response.status_code == 200
    assert response.json()["results"] == [{"id": str(episode.pk), "text": "Testing Carefully"}]


def test_saving_a_claim_in_the_admin_reads_it_once_and_writes_it_with_its_history(
    editor_client,
):
    claim = make_claim(make_episode(), make_speaker(name="Ada Example"), excerpt="Words.")
    url = f"{CLAIMS}{claim.pk}/change/"
    ContentType.objects.clear_cache()  # as in a fresh process, whatever ran before

    with CaptureQueriesContext(connection) as captured:
        response = editor_client.post(url, claim_change_form(claim, summary="A new summary."))

    # Savepoints aside: session, user, the claim with its episode and speaker, the
    # editor's permissions (2), the speaker the form chose, the claim as stored (once,
    # for the form, clean() and save()), the episode's transcript (for the verbatim
    # check), the speaker exists, four check constraints, the claim's update, the
    # ledger's version, the revision, the episode's claims (for the duplicate check),
    # the content type and the admin log; the claim's topics (left as they were) and
    # its named references (the inline).
    queries = [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]
    assert response.status_code == 302
    assert len(queries) == 21
    assert sum(q.startswith('SELECT "claims_claim"."number"') for q in queries) == 1
