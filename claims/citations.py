"""How a claim is cited: the words of its page's "Cite this claim"."""


def citation(claim, url: str) -> str:
    """`url` is the claim's absolute permalink."""
    episode = claim.episode
    return (
        f"{claim.voice}, “{episode.title}”, {episode.podcast.name}, "
        f"{episode.air_date.day} {episode.air_date:%B %Y}. "
        f"Evidence Ledger, claim {claim.label}: {url}"
    )
