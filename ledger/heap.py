"""The garbage collector, tuned for a worker that serves pages.

Rendering a page of claims or serialising an episode for the API allocates tens of
thousands of short-lived containers. With CPython's default thresholds that set off
six young collections per API request and, every few dozen requests, a full one
that walked every object the worker holds: Django, its apps, URL patterns, compiled
templates. Those full collections were the slow outliers of the benchmark (an API
episode: 24 ms median, 104 ms p95, at a million claims).

So once the application is loaded, everything it holds is frozen out of the
collector's sight (it lives as long as the worker), and young collections run less
often. Reference counting still frees nearly everything at once; the collector only
looks for cycles.
"""

import gc

# Allocations between young collections (CPython's default is 700), and how many
# collections of each generation before the next one up.
THRESHOLDS = (50_000, 20, 10)


def settle_after_startup() -> None:
    """Freeze what the loaded application holds and space out collections. Call once per
    process, after Django has loaded, before the first request."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
