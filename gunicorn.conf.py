"""Gunicorn settings for Evidence Ledger; every value can be overridden by environment.

Run with `gunicorn ledger.wsgi` from the project folder (it reads this file), or
`make serve` to try the production stack locally.
"""

import multiprocessing
import os


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Synchronous workers: pages are short, database-bound requests.
workers = env_int("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1)
threads = env_int("GUNICORN_THREADS", 1)
timeout = env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = env_int("GUNICORN_KEEPALIVE", 5)
# Recycle workers now and then so a slow leak can't grow; jitter stops them all
# restarting at once.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = env_int("GUNICORN_MAX_REQUESTS_JITTER", 100)

# The reverse proxy's address: only it may set X-Forwarded-Proto / -For.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# One JSON object per line, as the application logs, whatever a request's path holds:
# the method, path, status, bytes and duration, never the query string.
logger_class = "ledger.logs.GunicornLogger"
