"""A worker's garbage collector is settled once the application has loaded."""

import subprocess
import sys

from ledger.heap import THRESHOLDS

PROBE = """
import gc, os
os.environ.setdefault("SECRET_KEY", "x" * 60)
import ledger.wsgi
print(gc.get_freeze_count(), *gc.get_threshold())
"""


def test_loading_the_wsgi_application_freezes_its_objects_and_spaces_out_collections():
    # In a process of its own: the test process's collector stays as it is.
    output = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout.split()

    frozen, *thresholds = map(int, output)
    # The whole loaded application: Django, the apps, their URL patterns and admin.
    assert frozen > 50_000
    assert tuple(thresholds) == THRESHOLDS
