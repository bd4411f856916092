"""A worker compiles the project's templates before its first reader (ledger/warm.py)."""

import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings

PROBE = """
import json, os
os.environ.setdefault("SECRET_KEY", "x" * 60)
import ledger.wsgi
from django.template import engines
print(json.dumps(sorted(engines["django"].engine.template_loaders[0].get_template_cache)))
"""


def test_loading_the_wsgi_application_compiles_every_project_template_and_no_admin_one():
    # In a process of its own, as a gunicorn worker loads it.
    output = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    compiled = set(json.loads(output))

    folder = Path(settings.BASE_DIR) / "templates"
    ours = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    assert "claims/claim_list.html" in ours and "robots.txt" in ours
    assert compiled == ours
