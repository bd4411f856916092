"""Whether the suite runs under CI, where a missing service is a failure, not a skip."""

import os


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
