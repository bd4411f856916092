"""Issue 18's targets as the benchmark's report words them (bench/targets.py)."""

from bench.targets import flat


def latency(median_ms, p95_ms):
    return {"median_ms": median_ms, "p95_ms": p95_ms}


def by_size(small, large):
    return {10_000: {"uncached": small}, 1_000_000: {"uncached": large}}


def test_a_page_over_twice_its_p95_fails_and_is_named_with_its_medians_ratio():
    runs = by_size(
        {"home": latency(5, 6), "topics": latency(4, 5), "claims": latency(10, 12)},
        {"home": latency(6, 7), "topics": latency(5, 16), "claims": latency(21, 30)},
    )

    verdict = flat("sqlite", runs, 10_000, 1_000_000)

    assert not verdict["pass"]
    # Largest p95 ratio first. The topics grew at the p95 alone (a few slow samples); the
    # claims grew at the median too (the page itself grew).
    assert verdict["measured"] == "topics 3.2× (median 1.2×), claims 2.5× (median 2.1×)"


def test_pages_within_twice_their_p95_pass_and_the_worst_is_named():
    runs = by_size(
        {"home": latency(5, 6), "claims": latency(10, 12)},
        {"home": latency(6, 7), "claims": latency(15, 20)},
    )

    verdict = flat("postgresql", runs, 10_000, 1_000_000)

    assert verdict["pass"]
    assert verdict["measured"] == "worst 1.7× (claims)"


def test_a_sitemap_section_is_compared_per_address():
    runs = by_size(
        {"home": latency(5, 6), "sitemap (claims)": latency(28, 30)},
        {"home": latency(6, 7), "sitemap (claims)": latency(140, 160)},
    )
    runs[10_000]["addresses"] = {"sitemap (claims)": 9_300}
    runs[1_000_000]["addresses"] = {"sitemap (claims)": 50_000}

    verdict = flat("sqlite", runs, 10_000, 1_000_000)

    # 160 ms for 50,000 addresses against 30 for 9,300: about the same per address.
    assert verdict["pass"]
    assert verdict["measured"] == (
        "worst 1.2× (home) (sitemap (claims) per address: 9,300 against 50,000)"
    )


def test_a_sitemap_section_slower_per_address_fails():
    runs = by_size(
        {"sitemap (claims)": latency(28, 30)},
        {"sitemap (claims)": latency(600, 700)},
    )
    runs[10_000]["addresses"] = {"sitemap (claims)": 9_300}
    runs[1_000_000]["addresses"] = {"sitemap (claims)": 50_000}

    verdict = flat("postgresql", runs, 10_000, 1_000_000)

    assert not verdict["pass"]
    assert verdict["measured"].startswith("sitemap (claims) 4.3× (median 4.0×)")


def test_a_page_whose_addresses_were_counted_at_one_size_only_is_compared_whole():
    runs = by_size({"sitemap (claims)": latency(28, 30)}, {"sitemap (claims)": latency(70, 80)})
    runs[1_000_000]["addresses"] = {"sitemap (claims)": 50_000}

    verdict = flat("sqlite", runs, 10_000, 1_000_000)

    assert not verdict["pass"]
    assert verdict["measured"] == "sitemap (claims) 2.7× (median 2.5×)"
