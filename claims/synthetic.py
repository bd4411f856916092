"""The plan of a plainly fictional ledger at scale (manage.py generate_synthetic).

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
- transcripts: every episode has one of 60 to 120 KB, like a real hour or two of
  talk: its claims' excerpts in order, each on its speaker's line, between filler
  talk made of the common words; so every excerpt is found, and where (a quarter
  of the transcripts are public);
- timed transcripts: a cue every sentence of talk (~5 s each, some 500 to
  1,200 an episode) and one at each claim's line, timed at the claim's timestamp, so
  the time the transcript gives an excerpt is its claim's (timestamp_from_transcript);
- what editors add (claims/synthetic_curation.py): 40 topics, one more per 6,250
  claims up to 200, on 40% of claims (1 or 2, by a Zipf law); one reference per 200
  claims, named by 5% of claims (Zipf); 2% of public claims link to an earlier
  public one, mostly the same speaker's from an earlier day (contradicts, refines or
  repeats); 1% of public claims carry a public correction and 0.2% are retracted;
  70% of predictions have a horizon, and half of those due before mid-2026 an outcome;
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
"""

import datetime
import random
from itertools import accumulate

from django.utils.text import slugify

from claims.models import DEFAULT_UNRESOLVED_LABEL, Attribution, ClaimType, Verification
from claims.synthetic_curation import Curation, TimedText, pick, zipf_cumulative
from episodes.models import Appearance, Episode, Podcast, Role, Speaker, Status, Transcript

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
TRANSCRIPT_LENGTH = (60_000, 120_000)  # characters
PUBLIC_TRANSCRIPTS = 0.25
FILLER_SENTENCES = 4_000
SECONDS_PER_SENTENCE = 6

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


def unique_slug(slug, taken):
    candidate, n = slug, 1
    while candidate in taken:
        n += 1
        candidate = f"{slug}-{n}"
    taken.add(candidate)
    return candidate


class Plan:
    """The podcasts, speakers and episodes (unsaved), and a stream of claim rows."""

    def __init__(self, total, seed):
        self.total = total
        self.rng = random.Random(seed)
        self.words, self.word_weights = vocabulary()
        self.filler = self.filler_sentences()
        self.make_podcasts()
        self.make_speakers()
        self.make_episodes()
        self.curation = Curation(
            total,
            seed,
            url=SYNTHETIC_URL,
            words=list(dict.fromkeys(COMMON_WORDS)),
            people=[speaker.name for speaker in self.speakers[-50:]],
            last_day=FIRST_AIR_DATE + datetime.timedelta(days=AIR_DAYS),
        )

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

    def ledger(self):
        """Each episode's claim rows ({attname: value}, in ledger order) and transcript;
        each episode's hosts and guests are noted in `casts` as its claims are drawn."""
        self.casts = []
        for episode, size in zip(self.episodes, self.sizes, strict=True):
            rows = list(self.claims_of(episode, size))
            yield rows, self.transcript(episode, rows)

    def claims_of(self, episode, size):
        rng = self.rng
        hosts = self.hosts[episode._podcast_index]
        guests = [self.guests[pick(rng, self.guest_weights)] for _ in range(rng.randint(1, 3))]
        # Noted without drawing anything, so a seed keeps giving the same claims.
        self.casts.append((episode, hosts, guests))
        clock = rng.randrange(30, 300)
        for number in range(1, size + 1):
            # Drawn in this order, so that a seed keeps giving the same ledger.
            speaker, voice = self.voice(hosts, guests)
            excerpt = self.excerpt()
            summary = self.summary()
            clock += rng.randrange(20, 240)
            row = self.row(episode, number, clock, speaker, voice, excerpt, summary)
            self.curation.amend(row, episode)
            yield row

    def transcript(self, episode, rows):
        """The episode's timed transcript: each claim's excerpt on its speaker's line between
        stretches of talk. A cue starts at every sentence of talk and at each
        speaker's line, timed at the claim's clock, so the time the transcript gives an
        excerpt is its claim's timestamp. Each row learns where its excerpt is."""
        rng = self.rng
        stretch = rng.randint(*TRANSCRIPT_LENGTH) // (len(rows) + 1) // 100  # sentences
        timed, previous = TimedText(), 0
        for row in rows:
            self.talk(timed, stretch, previous, row["timestamp"])
            timed.add("\n\n")
            timed.add(f"{row.pop('_voice')}: ", row["timestamp"])
            start = timed.length
            timed.add(row["excerpt"])
            row.update(
                verification=Verification.FOUND,
                transcript_start=start,
                transcript_end=timed.length,
                timestamp_from_transcript=True,
            )
            previous = row["timestamp"]
        self.talk(timed, stretch, previous, previous + stretch * SECONDS_PER_SENTENCE)
        # By id: an episode given as an object would keep its transcript cached on it,
        # so every transcript in memory until the end.
        return Transcript(
            episode_id=episode.pk,
            text="".join(timed.parts),
            cues=timed.cues,
            is_public=rng.random() < PUBLIC_TRANSCRIPTS,
        )

    def talk(self, timed, sentences, since, until):
        """Sentences of filler talk said between two times."""
        timed.say(self.rng.choices(self.filler, k=max(1, sentences)), since, until)

    def filler_sentences(self):
        """Sentences of common words (about 100 characters each) that talk fills with."""
        invent = random.Random(1)
        common = list(dict.fromkeys(COMMON_WORDS))
        return [
            " ".join(
                invent.choice(STOP_WORDS_IN_TEXT) if i % 2 else invent.choice(common)
                for i in range(invent.randint(12, 22))
            ).capitalize()
            + "."
            for _ in range(FILLER_SENTENCES)
        ]

    def appearances(self):
        """Who was on each episode whose claims have been drawn: its show's hosts and the
        guests drawn for it (who may say nothing on the record)."""
        for episode, hosts, guests in self.casts:
            for index in hosts:
                yield self.appearance(episode, index, Role.HOST)
            for index in dict.fromkeys(guests):
                yield self.appearance(episode, index, Role.GUEST)

    def appearance(self, episode, index, role):
        speaker = self.speakers[index]
        return Appearance(episode=episode, speaker=speaker, role=role, air_date=episode.air_date)

    def row(self, episode, number, clock, speaker, voice, excerpt, summary):
        rng = self.rng
        return {
            "episode_id": episode.pk,
            "air_date": episode.air_date,
            "episode_published": episode.status == Status.PUBLISHED,
            "podcast_id": episode.podcast_id,
            "number": number,
            "type": CLAIM_TYPES[pick(rng, TYPE_WEIGHTS)],
            "excerpt": excerpt,
            "summary": summary,
            "attribution": Attribution.UNRESOLVED if speaker is None else Attribution.IDENTIFIED,
            "speaker_id": None if speaker is None else speaker.pk,
            "unresolved_label": voice,
            "timestamp": clock,
            "status": Status.DRAFT if rng.random() < DRAFT_CLAIMS else Status.PUBLISHED,
            "_voice": speaker.name if speaker else (voice or DEFAULT_UNRESOLVED_LABEL),
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

    def voice(self, hosts, guests):
        """(speaker, "") for an identified claim, (None, label) for an unresolved voice."""
        rng = self.rng
        if rng.random() < UNRESOLVED:
            return None, rng.choice(UNRESOLVED_LABELS)
        chosen = rng.choice(hosts) if rng.random() < HOST_SHARE else rng.choice(guests)
        return self.speakers[chosen], ""

    def draw_words(self, fewest, most):
        return self.rng.choices(
            self.words, cum_weights=self.word_weights, k=self.rng.randint(fewest, most)
        )

    def summary(self):
        if self.rng.random() < SUMMARY_SHARE:
            return " ".join(self.draw_words(3, 6)).capitalize()
        return ""

    def excerpt(self):
        rng = self.rng
        text = []
        for word in self.draw_words(8, 24):
            if rng.random() < 0.5:
                text.append(rng.choice(STOP_WORDS_IN_TEXT))
            text.append(word)
        if rng.random() < PHRASE_SHARE:
            text.insert(rng.randrange(len(text) + 1), PHRASE)
        return " ".join(text).capitalize() + "."


# Claim types are not equally common: observations and beliefs more than commitments.
TYPE_WEIGHTS = list(accumulate((16, 16, 10, 10, 8, 18, 8, 6, 8)))
CLAIM_TYPES = ClaimType.values  # a property that builds its list on every read
