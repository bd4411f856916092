"""Save every public page of the demo ledger, to prove a refactoring changed no HTML.

    .venv/bin/python bench/snapshot_pages.py /tmp/before   # on the old code
    .venv/bin/python bench/snapshot_pages.py /tmp/after    # on the new code
    diff -r /tmp/before /tmp/after                         # no output: byte-identical

Loads the demo into a throwaway SQLite database, then crawls the public site from
the home page and a set of claims-browser searches and filters, following every
internal link, and writes each response (status, Location, body) to one file.
"""

import os
import re
import sys
import tempfile
from collections import deque
from pathlib import Path
from urllib.parse import quote, urldefrag, urlsplit

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [
    "/",
    "/claims/",
    "/claims/?q=reward",
    '/claims/?q="reward model"',
    "/claims/?q=open OR closed -model",
    "/claims/?q=predict&order=newest",
    "/claims/?q=the",
    "/claims/?type=prediction&type=belief",
    "/claims/?type=bogus&speaker=nobody&aired_from=not-a-date",
    "/claims/?attribution=unresolved",
    "/claims/?podcast=example-show&order=oldest",
    "/claims/?aired_from=2026-01-01&aired_to=2026-12-31",
    "/claims/?page=2",
    "/claims/?page=999",
    "/search/?q=reward",
    "/episodes/?podcast=example-show",
    "/episodes/?podcast=nobody",
    "/speakers/?page=x",
    "/no-such-page/",
]
LIMIT = 1000


def main(out):
    database = Path(tempfile.mkdtemp()) / "snapshot.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
    sys.path.insert(0, str(ROOT))

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115

    client = Client(HTTP_HOST="127.0.0.1")
    out.mkdir(parents=True, exist_ok=True)
    seen, queue = set(SEEDS), deque(SEEDS)
    while queue and len(seen) <= LIMIT:
        url = queue.popleft()
        response = client.get(url)
        body = b"" if response.streaming else response.content
        record = f"{response.status_code} {response.get('Location', '')}\n".encode() + body
        (out / (quote(url, safe="") or "root")).write_bytes(record)
        for link in re.findall(rb'href="(/[^"]*)"', body):
            target = urldefrag(link.decode().replace("&amp;", "&"))[0]
            if urlsplit(target).path.startswith(("/admin", "/static")) or target in seen:
                continue
            seen.add(target)
            queue.append(target)
    print(f"{len(seen)} pages saved in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
