"""Fill the ledger with plainly fictional data at scale, for benchmarks and demos.

    python manage.py generate_synthetic --claims 1000000 --seed 1 --reset

Every show, person and word here is invented ("Example Show 12", "Nora
Samplewood"): no real person is ever given words. The shape is meant to be
realistic enough for the benchmark (bench/run.py) to mean something:

- podcasts: one per 4,000 claims (at least 3); their episode counts follow a
  Zipf law, so a few shows are big and most are small;
- episodes: 5 to 80 claims each (about 35 on average), aired 2016–2026 and
  added in the order they aired (ids follow air dates, as in a growing ledger);
  about 3% of episodes and 4% of claims are drafts;
- speakers: one or two hosts per podcast, who speak in most of its episodes,
  and a long tail of guests drawn by a Zipf law (one speaker per 40 claims);
  about 6% of claims are unresolved voices ("Caller 2", "Audience member", …);
- words: excerpts are drawn from a fixed vocabulary with a Zipf distribution,
  so the benchmark's query mix spans the whole range. With the default shape:

  | term | rank | share of claims that match |
  | --- | --- | --- |
  | `model` | 1st | about 62% (the "term in most claims") |
  | `market` | 2nd | about 51% |
  | `"open source"` | a phrase put in 3% of excerpts | about 3% |
  | `quokka`, `zeppelin`, `marzipan` (and the rest of RARE_WORDS) | last | about 0.06% each |

  The hosts of the biggest podcast are its most prolific speakers; the first is
  always "Nora Samplewood" (the benchmark's speaker-name query).

Loading is set-based: rows are streamed with COPY on PostgreSQL and executemany
on SQLite; the full-text index is dropped for the load and built once at the end
(PostgreSQL: the GIN index; the tsvector itself is still written by the trigger,
as every row goes in once. SQLite: the FTS5 insert trigger is dropped and
search_index.install() rebuilds the FTS table). search_context is composed as
Claim.compose_search_context() would, and the ledger's version moves.

Synthetic records are recognised by their web addresses (SYNTHETIC_URL);
`--reset` deletes them, and only them, before generating.
"""

import datetime
import random
import sys
import time
from bisect import bisect
from itertools import accumulate

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from claims import search_index
from claims.models import DEFAULT_UNRESOLVED_LABEL, Attribution, Claim, ClaimType
from episodes.models import Episode, Podcast, Speaker, Status
from ledger.models import ledger_changed

SYNTHETIC_URL = "https://example.com/synthetic/"

CLAIMS_PER_PODCAST = 4_000
CLAIMS_PER_SPEAKER = 40
MIN_CLAIMS, MAX_CLAIMS = 5, 80
FIRST_AIR_DATE = datetime.date(2016, 1, 1)
AIR_DAYS = 3_800
DRAFT_EPISODES = 0.03
DRAFT_CLAIMS = 0.04
UNRESOLVED = 0.06
HOST_SHARE = 0.45
SUMMARY_SHARE = 0.15
PHRASE = "open source"
PHRASE_SHARE = 0.03
UNRESOLVED_LABELS = ("", "", "Caller 1", "Caller 2", "Audience member", "Second guest")

SHOW_WORDS = ("Example", "Sample", "Placeholder", "Fictional", "Imaginary", "Pretend")
SHOW_NOUNS = ("Show", "Hour", "Talk", "Cast", "Radio", "Weekly", "Conversations", "Hour Plus")
# The first pairs make the most prolific speakers (the hosts of the biggest shows).
GIVEN_NAMES = (
    "Nora Ada Ben Cleo Dev Eli Fay Gus Hana Ivo Jun Kai Lea Milo Noor Omar Pia Quin Rosa Sami "
    "Tess Uma Vic Wren Xia Yuri Zoe Abe Bea Cal Dina Emil Flo Gil Hugo Iris Jay Kim Lina Max "
    "Nell Otto Pam Ravi Sol Tom Una Vera Walt Yara"
).split()
SURNAMES = [
    prefix + suffix
    for suffix in ("wood", "ton", "field", "worth", "berg", "ley", "more", "ridge")
    for prefix in ("Sample", "Example", "Mock", "Stub", "Dummy", "Fixture", "Proxy", "Demo")
]

# Content words, most frequent first (PostgreSQL's stop words never appear here).
COMMON_WORDS = """
model market data team product growth risk policy research customer company energy
future system price climate software question problem money world work value trust
people change cost design science network power health city school market funding
training language evidence study result tool platform service economy security rule
feedback capital startup labor inflation water housing privacy regulation strategy
budget contract election vaccine ocean forest battery chip reactor satellite rocket
robot sensor camera browser database server protocol algorithm benchmark compiler
startup investor founder teacher student doctor patient farmer writer reader listener
audience editor producer voter judge court law bill tax tariff trade export import
supply demand shortage surplus interest rate loan bond equity stock fund pension
insurance hospital clinic drug trial dose gene protein cell brain memory sleep diet
exercise habit routine culture music film game sport league stadium travel flight
airport railway road traffic bicycle car truck shipping port harbor coast river lake
mountain desert island village suburb neighborhood apartment rent mortgage wage salary
bonus hiring layoff remote office meeting email calendar deadline launch release
update patch bug outage incident alert metric dashboard report survey poll forecast
estimate guess bet odds chance probability evidence argument claim source citation
archive library museum gallery theatre concert festival podcast episode interview
guest host caller question answer debate panel keynote workshop seminar lecture course
degree exam grade curriculum textbook notebook pencil paper screen keyboard phone
tablet laptop cloud storage backup encryption password login account identity
license patent copyright open source community volunteer charity donation grant
""".split()
# Frequent-looking but invented words fill the middle of the curve.
_SYLLABLES = "ka lo mi ren tu sa vo ri del pan gor fi nu bel tar xe qui mos han lev".split()
# The rarest words, by name, for the benchmark's rare-term queries.
RARE_WORDS = """
quokka zeppelin marzipan obsidian kumquat narwhal origami tamarind yodel walrus
gazebo hibiscus igloo jackal kayak lichen mandolin nebula okapi pelican
""".split()
MIDDLE_WORDS = 3_600


def vocabulary():
    """(words, cumulative Zipf–Mandelbrot weights): the same for every seed."""
    words = list(dict.fromkeys(COMMON_WORDS))
    invent = random.Random(0)
    seen = set(words) | set(RARE_WORDS)
    while len(words) < len(COMMON_WORDS) + MIDDLE_WORDS:
        word = "".join(invent.choice(_SYLLABLES) for _ in range(invent.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    words += RARE_WORDS
    # The rare words share one weight, the smallest, so each is as rare as the others.
    tail = len(words) - len(RARE_WORDS)
    weights = [1 / (rank + 2.7) for rank in range(tail)] + [1 / (tail + 2.7)] * len(RARE_WORDS)
    return words, list(accumulate(weights))


STOP_WORDS_IN_TEXT = "the of and to a in that is we it for on with as was be this are".split()


class Progress:
    """A plain progress line on stderr: rewritten in place on a terminal, every 10% otherwise."""

    def __init__(self, total, label, stream=None):
        self.total, self.label, self.stream = total, label, stream or sys.stderr
        self.started = time.monotonic()
        self.tty = self.stream.isatty()
        self.shown = self.done = -1

    def update(self, done):
        if done == self.done:
            return
        self.done = done
        percent = done * 100 // max(self.total, 1)
        if not self.tty and percent // 10 == self.shown // 10 and done < self.total:
            return
        if self.tty and percent == self.shown and done < self.total:
            return
        self.shown = percent
        elapsed = time.monotonic() - self.started
        line = f"{self.label}: {done:,}/{self.total:,} ({percent}%) {elapsed:.1f}s"
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


class Command(BaseCommand):
    help = "Generate plainly fictional podcasts, episodes, speakers and claims at scale."

    def add_arguments(self, parser):
        parser.add_argument("--claims", type=int, required=True, help="How many claims to make.")
        parser.add_argument("--seed", type=int, default=1, help="Same seed, same data.")
        parser.add_argument(
            "--reset", action="store_true", help="Delete earlier synthetic data first."
        )
        parser.add_argument("--quiet", action="store_true", help="No progress output.")

    def handle(self, *args, claims, seed, reset, quiet, **options):
        if claims < MIN_CLAIMS:
            raise CommandError(f"--claims must be at least {MIN_CLAIMS}.")
        started = time.monotonic()
        if reset:
            self.reset()
        elif Podcast.objects.filter(website_url__startswith=SYNTHETIC_URL).exists():
            raise CommandError("Synthetic data is already here: add --reset to replace it.")
        self.quiet = quiet
        plan = Plan(claims, seed)
        with transaction.atomic():
            self.create_records(plan)
            self.load_claims(plan)
            ledger_changed()
        self.tidy_up()
        self.stdout.write(
            f"Generated {claims:,} claims in {len(plan.episodes):,} episodes of "
            f"{len(plan.podcasts):,} podcasts, by {len(plan.speakers):,} speakers "
            f"(seed {seed}) in {time.monotonic() - started:.1f}s."
        )

    def progress(self, total, label):
        return Progress(total, label, stream=open("/dev/null", "w") if self.quiet else None)

    def reset(self):
        """Delete synthetic records with plain SQL deletes (the models refuse to lose published ones)."""
        with transaction.atomic():
            podcasts = Podcast.objects.filter(website_url__startswith=SYNTHETIC_URL)
            claims = Claim.objects.filter(episode__podcast__in=podcasts)
            # Whatever hangs off a claim (its history, if an editor touched it) goes first.
            for relation in Claim._meta.related_objects:
                relation.related_model._base_manager.filter(
                    **{f"{relation.field.name}__in": claims}
                )._raw_delete(connection.alias)
            with search_index_paused():
                claims._raw_delete(connection.alias)
            Episode.objects.filter(podcast__in=podcasts)._raw_delete(connection.alias)
            podcasts._raw_delete(connection.alias)
            Speaker.objects.filter(
                links__startswith=SYNTHETIC_URL, claims__isnull=True
            )._raw_delete(connection.alias)
            ledger_changed()

    def create_records(self, plan):
        taken = set(Podcast.objects.values_list("slug", flat=True))
        for podcast in plan.podcasts:
            podcast.slug = unique_slug(podcast.slug, taken)
        Podcast.objects.bulk_create(plan.podcasts, batch_size=1000)
        taken = set(Speaker.objects.values_list("slug", flat=True))
        for speaker in plan.speakers:
            speaker.slug = unique_slug(speaker.slug, taken)
        Speaker.objects.bulk_create(plan.speakers, batch_size=1000)
        progress = self.progress(len(plan.episodes), "episodes")
        for start in range(0, len(plan.episodes), 2000):
            batch = plan.episodes[start : start + 2000]
            for episode in batch:
                episode.podcast_id = episode.podcast.pk
            Episode.objects.bulk_create(batch)
            progress.update(start + len(batch))

    def load_claims(self, plan):
        fields = [
            f
            for f in Claim._meta.concrete_fields
            if not f.primary_key and f.name != "search_vector"
        ]
        now = timezone.now()
        constant = {}
        for f in fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                constant[f.attname] = f.get_db_prep_save(now, connection)
            elif f.attname not in CLAIM_COLUMNS:
                constant[f.attname] = f.get_db_prep_save(f.get_default(), connection)
        order = [f.attname for f in fields]
        columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)

        def rows():
            for values in plan.claims():
                yield tuple(values[name] if name in values else constant[name] for name in order)

        progress = self.progress(plan.total, "claims")
        table = Claim._meta.db_table
        with search_index_paused():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit = off")
                    with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                        for done, row in enumerate(rows(), 1):
                            copy.write_row(row)
                            if done % 10_000 == 0:
                                progress.update(done)
            else:
                sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(order))})"
                batch, done = [], 0
                with connection.cursor() as cursor:
                    for row in rows():
                        batch.append(row)
                        if len(batch) == 10_000:
                            cursor.executemany(sql, batch)
                            done += len(batch)
                            batch = []
                            progress.update(done)
                    cursor.executemany(sql, batch)
            progress.update(plan.total)

    def tidy_up(self):
        """Fresh planner statistics, and on PostgreSQL a visibility map for index-only counts."""
        if connection.in_atomic_block:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                for model in (Claim, Episode, Speaker, Podcast):
                    cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
            else:
                cursor.execute("ANALYZE")


class search_index_paused:
    """Drop the full-text index's per-row upkeep for a bulk write; rebuild it once after.

    PostgreSQL keeps the trigger (the tsvector is computed once per row either way)
    but drops the GIN index, which is far cheaper to build in one go than row by row.
    SQLite drops the FTS triggers; search_index.install() puts them back and, because
    they were missing, rebuilds the FTS table from the claims.
    """

    def __enter__(self):
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("DROP INDEX IF EXISTS claim_search_vector_gin")
            elif connection.vendor == "sqlite":
                for name in search_index.SQLITE_TRIGGERS:
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}")

    def __exit__(self, *exc):
        if exc[0] is None:
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    # The deferred foreign-key checks run now: PostgreSQL builds no
                    # index on a table with pending trigger events.
                    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                    cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
            search_index.install(connection)


# What load_claims takes from each generated row; other columns get their field default.
CLAIM_COLUMNS = {
    "episode_id",
    "number",
    "type",
    "excerpt",
    "summary",
    "attribution",
    "speaker_id",
    "unresolved_label",
    "timestamp",
    "status",
    "search_context",
}


def unique_slug(slug, taken):
    candidate, n = slug, 1
    while candidate in taken:
        n += 1
        candidate = f"{slug}-{n}"
    taken.add(candidate)
    return candidate


def zipf_cumulative(n, s=1.0, q=1.0):
    return list(accumulate(1 / (rank + q) ** s for rank in range(n)))


def pick(rng, cumulative):
    """An index drawn with the weights behind `cumulative`."""
    return bisect(cumulative, rng.random() * cumulative[-1])


class Plan:
    """The podcasts, speakers and episodes (unsaved), and a stream of claim rows."""

    def __init__(self, total, seed):
        self.total = total
        self.rng = random.Random(seed)
        self.words, self.word_weights = vocabulary()
        self.make_podcasts()
        self.make_speakers()
        self.make_episodes()

    def make_podcasts(self):
        count = max(3, round(self.total / CLAIMS_PER_PODCAST))
        self.podcasts = []
        for i in range(count):
            name = (
                f"{SHOW_WORDS[i % len(SHOW_WORDS)]} "
                f"{SHOW_NOUNS[(i // len(SHOW_WORDS)) % len(SHOW_NOUNS)]} {i + 1}"
            )
            slug = slugify(name)
            self.podcasts.append(
                Podcast(
                    name=name,
                    slug=slug,
                    description="A plainly fictional show, generated for benchmarks.",
                    website_url=f"{SYNTHETIC_URL}{slug}/",
                    feed_url=f"{SYNTHETIC_URL}{slug}/feed.xml",
                )
            )

    def make_speakers(self):
        hosts = 2 * len(self.podcasts)
        count = max(hosts + 10, self.total // CLAIMS_PER_SPEAKER)
        self.speakers = []
        for i in range(count):
            given = GIVEN_NAMES[i % len(GIVEN_NAMES)]
            surname = SURNAMES[(i // len(GIVEN_NAMES)) % len(SURNAMES)]
            cycle = i // (len(GIVEN_NAMES) * len(SURNAMES))
            name = f"{given} {surname}" + (f" {cycle + 1}" if cycle else "")
            slug = slugify(name)
            self.speakers.append(
                Speaker(
                    name=name,
                    slug=slug,
                    description=f"Fictional {'host' if i < hosts else 'guest'}, generated for benchmarks.",
                    links=f"{SYNTHETIC_URL}people/{slug}",
                )
            )
        # Podcast p is hosted by speakers 2p (always) and 2p+1 (on half the shows).
        self.hosts = [
            [2 * p] + ([2 * p + 1] if p % 2 == 0 else []) for p in range(len(self.podcasts))
        ]
        self.guests = list(range(hosts, count))
        self.guest_weights = zipf_cumulative(len(self.guests), s=1.05, q=2.0)

    def make_episodes(self):
        rng = self.rng
        sizes, left = [], self.total
        while left:
            size = min(
                MAX_CLAIMS, max(MIN_CLAIMS, round(rng.triangular(MIN_CLAIMS, MAX_CLAIMS, 25)))
            )
            if left - size < MIN_CLAIMS:
                size = left if left <= MAX_CLAIMS else left - MIN_CLAIMS
            sizes.append(size)
            left -= size
        podcast_weights = zipf_cumulative(len(self.podcasts), s=1.0, q=1.0)
        planned = []
        for size in sizes:
            # Every podcast gets one episode first; then the big shows get most.
            p = len(planned) if len(planned) < len(self.podcasts) else pick(rng, podcast_weights)
            planned.append((rng.randrange(AIR_DAYS), p, size))
        # Added in the order they aired, as a ledger grows: ids follow air dates.
        planned.sort(key=lambda episode: episode[0])
        numbers = [0] * len(self.podcasts)
        self.episodes, self.sizes = [], [size for _, _, size in planned]
        for day, p, _ in planned:
            numbers[p] += 1
            podcast = self.podcasts[p]
            title_words = " ".join(
                self.words[pick(rng, self.word_weights)] for _ in range(rng.randint(2, 4))
            )
            self.episodes.append(
                Episode(
                    podcast=podcast,
                    title=f"{podcast.name} #{numbers[p]}: {title_words.capitalize()}",
                    slug=f"episode-{numbers[p]}",
                    air_date=FIRST_AIR_DATE + datetime.timedelta(days=day),
                    original_url=f"{podcast.website_url}episodes/{numbers[p]}/",
                    status=Status.DRAFT if rng.random() < DRAFT_EPISODES else Status.PUBLISHED,
                )
            )
            self.episodes[-1]._podcast_index = p

    def claims(self):
        """Claim rows as {attname: value}, episode by episode, in ledger order."""
        rng, words, weights = self.rng, self.words, self.word_weights
        types = ClaimType.values
        for episode, size in zip(self.episodes, self.sizes, strict=True):
            hosts = self.hosts[episode._podcast_index]
            guests = [self.guests[pick(rng, self.guest_weights)] for _ in range(rng.randint(1, 3))]
            clock = rng.randrange(30, 300)
            for number in range(1, size + 1):
                if rng.random() < UNRESOLVED:
                    speaker = None
                    voice = rng.choice(UNRESOLVED_LABELS)
                else:
                    speaker = self.speakers[
                        rng.choice(hosts) if rng.random() < HOST_SHARE else rng.choice(guests)
                    ]
                    voice = ""
                content = rng.choices(words, cum_weights=weights, k=rng.randint(8, 24))
                text = []
                for word in content:
                    if rng.random() < 0.5:
                        text.append(rng.choice(STOP_WORDS_IN_TEXT))
                    text.append(word)
                if rng.random() < PHRASE_SHARE:
                    text.insert(rng.randrange(len(text) + 1), PHRASE)
                excerpt = " ".join(text).capitalize() + "."
                summary = ""
                if rng.random() < SUMMARY_SHARE:
                    summary = " ".join(
                        rng.choices(words, cum_weights=weights, k=rng.randint(3, 6))
                    ).capitalize()
                clock += rng.randrange(20, 240)
                yield {
                    "episode_id": episode.pk,
                    "number": number,
                    "type": types[pick(rng, TYPE_WEIGHTS)],
                    "excerpt": excerpt,
                    "summary": summary,
                    "attribution": Attribution.UNRESOLVED
                    if speaker is None
                    else Attribution.IDENTIFIED,
                    "speaker_id": None if speaker is None else speaker.pk,
                    "unresolved_label": voice,
                    "timestamp": clock,
                    "status": Status.DRAFT if rng.random() < DRAFT_CLAIMS else Status.PUBLISHED,
                    # As Claim.compose_search_context() writes it.
                    "search_context": "\n".join(
                        part
                        for part in (
                            summary,
                            speaker.name if speaker else (voice or DEFAULT_UNRESOLVED_LABEL),
                            episode.title,
                        )
                        if part
                    ),
                }


# Claim types are not equally common: observations and beliefs more than commitments.
TYPE_WEIGHTS = list(accumulate((16, 16, 10, 10, 8, 18, 8, 6, 8)))
