"""POST data for the claim's change form in the admin, as a browser would send it."""


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
        # The management forms of the read-only inlines: open reports, history.
        "reports-TOTAL_FORMS": 0,
        "reports-INITIAL_FORMS": 0,
        "revisions-TOTAL_FORMS": 0,
        "revisions-INITIAL_FORMS": 0,
        **fields,
    }
