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
