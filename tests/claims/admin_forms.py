"""POST data for the admin's change forms of a claim and of an episode, as a browser would send it."""


def claim_change_form(claim, **fields):
    """The form as the claim fills it now, with `fields` changed; no correction note."""
    return {
        "episode": claim.episode_id,
        "number": claim.number,
        "type": claim.type,
        "status": claim.status,
        "excerpt": claim.excerpt,
        "summary": claim.summary,
        "timestamp": "",
        "attribution": claim.attribution,
        "speaker": claim.speaker_id or "",
        "unresolved_label": claim.unresolved_label,
        "correction_note": "",
        **empty_inlines(),
        **fields,
    }


def empty_inlines():
    """The management forms of a claim page's inlines, each with no row."""
    return {
        # The read-only inlines: open reports, history.
        "reports-TOTAL_FORMS": 0,
        "reports-INITIAL_FORMS": 0,
        "revisions-TOTAL_FORMS": 0,
        "revisions-INITIAL_FORMS": 0,
        # The linked claims inlines', both ways, with no link.
        **links_formset("links_from", []),
        **links_formset("links_to", []),
        # The named references inline's, for a claim that names none.
        "references_named-TOTAL_FORMS": 0,
        "references_named-INITIAL_FORMS": 0,
    }


def links_formset(prefix, links):
    """A linked claims inline's POST data: `prefix` "links_from" (this claim's links, each
    (relation, other claim, note)) or "links_to" (other claims' links, (other claim, relation, note))."""
    other = "to_claim" if prefix == "links_from" else "from_claim"
    data = {f"{prefix}-TOTAL_FORMS": len(links), f"{prefix}-INITIAL_FORMS": 0}
    for index, (relation, claim, note) in enumerate(links):
        data[f"{prefix}-{index}-relation"] = relation
        data[f"{prefix}-{index}-{other}"] = claim.pk
        data[f"{prefix}-{index}-note"] = note
    return data


def episode_change_form(episode, claims=(), appearances=(), initial_appearances=0):
    """The episode's change form as the episode fills it now, with `claims` (each a dict of
    an inline claim row's fields, all of them existing claims) and `appearances` (each a
    dict of an appearance row's fields; the first `initial_appearances` of them existing)."""
    data = {
        "podcast": episode.podcast_id,
        "title": episode.title,
        "slug": episode.slug,
        "air_date": episode.air_date,
        "status": episode.status,
        "original_url": episode.original_url,
        "audio_url": "",
        "summary": "",
        "transcript": "",
        "claims-TOTAL_FORMS": len(claims),
        "claims-INITIAL_FORMS": len(claims),
        "appearances-TOTAL_FORMS": len(appearances),
        "appearances-INITIAL_FORMS": initial_appearances,
    }
    for prefix, rows in (("claims", claims), ("appearances", appearances)):
        for index, row in enumerate(rows):
            data.update({f"{prefix}-{index}-{name}": value for name, value in row.items()})
    return data
