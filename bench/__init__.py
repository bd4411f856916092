"""The benchmark harness: `make bench` runs bench/run.py (see docs/performance.md)."""
