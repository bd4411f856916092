"""A full CSV download under gunicorn: how long it streams, and the worker's peak memory.

The worker's peak resident memory (VmHWM) is read from /proc after the download,
from a server started for it alone with one worker, so the figure is the
download's and nothing else's.
"""

import http.client
import time
from pathlib import Path

DOWNLOAD_PATH = "/claims.csv"
# Issue 13: a million-claim download must stream within this much worker memory.
PEAK_MEMORY_MB = 150


def workers_of(master_pid: int) -> list[int]:
    """The processes whose parent is `master_pid` (gunicorn's workers)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == master_pid:
            children.append(int(stat.parent.name))
    return children


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure_download(port: int, master_pid: int) -> dict:
    """Stream DOWNLOAD_PATH to the end; its time, size, rows and the worker's peak memory."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
    started = time.perf_counter()
    connection.request("GET", DOWNLOAD_PATH, headers={"Host": "127.0.0.1"})
    response = connection.getresponse()
    size, records, first_byte = 0, 0, None
    while chunk := response.read(1 << 16):
        first_byte = first_byte or time.perf_counter() - started
        size += len(chunk)
        records += chunk.count(b"\r\n")  # the csv module ends each row with CRLF
    seconds = time.perf_counter() - started
    connection.close()
    peak = max((peak_memory_mb(pid) for pid in workers_of(master_pid)), default=0.0)
    return {
        "path": DOWNLOAD_PATH,
        "status": response.status,
        "seconds": round(seconds, 2),
        "first_byte_ms": round((first_byte or seconds) * 1000, 1),
        "megabytes": round(size / 1e6, 1),
        "rows": records - 1,
        "peak_worker_mb": round(peak, 1),
    }
