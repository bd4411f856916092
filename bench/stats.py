"""Latency summaries shared by the in-process and the HTTP measurements."""

import statistics


def percentile(samples, p):
    """Nearest-rank percentile of `samples` (seconds), in milliseconds."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


def summary(samples):
    """Count, median and p95 (ms) of `samples` (seconds)."""
    return {
        "n": len(samples),
        "median_ms": round(statistics.median(samples) * 1000, 2),
        "p95_ms": round(percentile(samples, 95), 2),
    }
