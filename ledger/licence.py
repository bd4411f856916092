"""The licence of the ledger's curated data, named once for every page and file that states it."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Licence:
    name: str
    short_name: str
    url: str


# The curation (selection, types, attributions, numbering, summaries, verification);
# the excerpts themselves are quotations of public speech and stay their speakers'.
DATA_LICENCE = Licence(
    name="Creative Commons Attribution 4.0",
    short_name="CC BY 4.0",
    url="https://creativecommons.org/licenses/by/4.0/",
)
