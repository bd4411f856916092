"""The production stack for tests: gunicorn with DEBUG off, and servers that misbehave."""

import contextlib
import http.client
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)


def production_env(**overrides):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DATABASE_REPLICA_URLS")
    }
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="ledger.example.org,127.0.0.1",
        SECURE_PROXY_SSL="true",
    )
    env.update(overrides)
    return env


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def gunicorn(env, log_path):
    """gunicorn serving with `env` on a free loopback port; yields the port.

    Its output goes to `log_path`, not to a pipe no one reads, which would fill and
    stall it.
    """
    port = free_port()
    with open(log_path, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "ledger.wsgi", "--config", "gunicorn.conf.py"],
            cwd=BASE_DIR,
            env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(port, process, log_path)
            yield port
        finally:
            process.terminate()
            process.wait(timeout=30)


def wait_for(port, process, log_path):
    """Until a worker answers: the master listens before its workers have loaded the app."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("gunicorn exited:\n" + Path(log_path).read_text()) from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("gunicorn did not start within 20 seconds")


@contextlib.contextmanager
def silent_server():
    """A port on 127.0.0.1 that accepts connections and never says a word; yields the port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    accepted = []
    stop = threading.Event()

    def hold():
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        listener.close()
