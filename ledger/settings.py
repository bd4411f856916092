"""Evidence Ledger settings, read from the environment.

Defaults make a fresh clone run locally on SQLite with DEBUG on; production turns
the rest on by environment (see the README's deployment section).
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def envfloat(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None


def envlist(name, default):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)

# Local development gets a throwaway key; production must bring its own.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not DEBUG and (len(SECRET_KEY) < 50 or SECRET_KEY.startswith("django-insecure")):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of 50 or more characters when DEBUG is off"
    )
SECRET_KEY = SECRET_KEY or "django-insecure-local-development-only"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")

INSTALLED_APPS = [
    "ledger",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django.contrib.postgres",
    "django_filters",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "axes",
    "episodes",
    "claims",
]

MIDDLEWARE = [
    # First, so a load balancer's probe needs no host header and touches nothing else.
    "ledger.health.HealthCheckMiddleware",
    # Before the page cache: public reads from a replica, the rest from the primary.
    "ledger.routers.ReplicaReadsMiddleware",
    # Before anything that answers: cached pages and 304s get their CORS headers too.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before CSRF: a cached public page is answered (in its process_view, once Django
    # has resolved the URL) before CSRF checks it or the view runs.
    "ledger.caching.PublicPageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "ledger.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ledger.navigation.navigation",
            ],
        },
    },
]

WSGI_APPLICATION = "ledger.wsgi.application"

# A database that stops answering must fail requests, not hang them until gunicorn
# kills the worker: connecting gives up after DATABASE_CONNECT_TIMEOUT seconds, and
# a statement after DATABASE_STATEMENT_TIMEOUT (0: no limit), before GUNICORN_TIMEOUT.
DATABASE_CONNECT_TIMEOUT = envint("DATABASE_CONNECT_TIMEOUT", 5)
DATABASE_STATEMENT_TIMEOUT = envint("DATABASE_STATEMENT_TIMEOUT", 25)
DATABASE_RANDOM_PAGE_COST = envfloat("DATABASE_RANDOM_PAGE_COST", 1.1)
# SQLite's page cache per connection, in MB (2 by default): a rare word's 700 matches at
# a million claims come from it, not from the system a page at a time (28 -> 24 ms).
SQLITE_CACHE_MB = envint("SQLITE_CACHE_MB", 16)
if SQLITE_CACHE_MB < 1:
    raise ImproperlyConfigured(f"SQLITE_CACHE_MB must be 1 or more, not {SQLITE_CACHE_MB}")
# "transaction" behind PgBouncer in transaction mode (docs/scaling.md): no server-side
# cursors, which outlive their server connection, and no startup options, which
# PgBouncer refuses (the role carries POSTGRESQL_SESSION instead).
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "")
if DATABASE_POOLER not in ("", "transaction"):
    raise ImproperlyConfigured(
        f"DATABASE_POOLER must be empty or 'transaction', not {DATABASE_POOLER!r}"
    )
# Read replicas of the primary (PostgreSQL streaming replication): public pages read
# from them, everything else from the primary (ledger/routers.py).
DATABASE_REPLICA_URLS = envlist("DATABASE_REPLICA_URLS", [])
# What the ledger's PostgreSQL sessions run with (the timeout in ms), set on connecting or,
# behind a pooler, on the role (ledger.checks). No JIT: compiling took 6 s of a count that
# runs in milliseconds. Random reads cost as on SSD or in memory (4 on spinning disks): 4
# made a rare word's search hash all 26,000 published episodes (13 ms) rather than look up
# its 659 matches' (3 ms). Parallel workers only for statements that read much: a rare
# word's matches waited 5 ms for one with little to do (docs/performance.md).
POSTGRESQL_SESSION = {
    "statement_timeout": DATABASE_STATEMENT_TIMEOUT * 1000,
    "jit": "off",
    "random_page_cost": DATABASE_RANDOM_PAGE_COST,
    "parallel_setup_cost": 10000,
}
POSTGRESQL_OPTIONS = " ".join(f"-c {name}={value}" for name, value in POSTGRESQL_SESSION.items())


def database(url):
    config = dj_database_url.parse(
        url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60), conn_health_checks=True
    )
    options = config.setdefault("OPTIONS", {})
    if config["ENGINE"].endswith("sqlite3"):
        # SQLite has no server to wait for, only another process's write lock.
        options.setdefault("timeout", DATABASE_CONNECT_TIMEOUT)
        options.setdefault("init_command", f"PRAGMA cache_size = -{SQLITE_CACHE_MB * 1024}")
        return config
    options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    if DATABASE_POOLER:
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
    else:
        options.setdefault("options", POSTGRESQL_OPTIONS)
    return config


DATABASES = {
    "default": database(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory, so the production-stack test can serve it from gunicorn;
    # one per process, so test runs side by side don't share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"ledger-test-{os.getpid()}.sqlite3")
    }
for _number, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    # Under test, a replica reads the primary's test database, never made or flushed.
    DATABASES[f"replica_{_number}"] = {**database(_url), "TEST": {"MIRROR": "default"}}
DATABASE_ROUTERS = ["ledger.routers.ReplicaRouter"] if DATABASE_REPLICA_URLS else []

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A shared cache (Redis) in production; each process's memory otherwise. Page cache
# entries are keyed by the ledger's version, so they are never served stale either way.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Seconds to connect to Redis and to wait for each answer: a down or hung Redis costs a
# page a moment, not redis-py's five seconds a call; the cache fails open (caching.py).
REDIS_TIMEOUT = envfloat("REDIS_TIMEOUT", 0.5)


def redis_cache(url):
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
    }


CACHES = {
    "default": redis_cache(REDIS_URL)
    if REDIS_URL
    # Bounded: past MAX_ENTRIES pages a third of them are dropped to make room.
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "ledger",
        "OPTIONS": {"MAX_ENTRIES": 300},
    }
}
PAGE_CACHE_SECONDS = envint("PAGE_CACHE_SECONDS", 600)
# Serve /bench/minimal/, the benchmark's yardstick (bench/run.py); off in production.
BENCHMARK_VIEWS = envbool("BENCHMARK_VIEWS", False)

ADMIN_URL = os.environ.get("ADMIN_URL", "admin/").strip("/") + "/"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    # Unused at run time: web nodes keep nothing on their disks (docs/scaling.md).
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Source maps are for developers' tools, which don't ask for them compressed; the
# interactive API reference's are megabytes, and compressing them slowed collectstatic.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

# Behind a TLS-terminating proxy: trust its X-Forwarded-Proto only when told to.
if envbool("SECURE_PROXY_SSL", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 63072000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "ledger.views.csrf_failure"

# Only the admin and the "Report a problem" form set cookies: secure, script-proof
# and same-site in production.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
if not DEBUG:
    # The __Host- prefix pins cookies to this exact host, over HTTPS, for the whole site.
    SESSION_COOKIE_NAME = "__Host-sessionid"
    CSRF_COOKIE_NAME = "__Host-csrftoken"

# No inline script or style anywhere, the admin included.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Admin sign-in: lock a username from an address after repeated failures, and an
# address after failures across any usernames (ledger/signin.py).
AXES_HANDLER = "ledger.signin.AddressLimitedHandler"
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 30))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"
# The client's address: REMOTE_ADDR, unless PROXY_COUNT reverse proxies stand in
# front and append to X-Forwarded-For (then the address the nearest one saw).
PROXY_COUNT = envint("PROXY_COUNT", 0)
if PROXY_COUNT:
    AXES_IPWARE_PROXY_COUNT = PROXY_COUNT
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)

# The public API and downloads: anyone's page may read them, without credentials.
CORS_URLS_REGEX = r"^/(api/.*|(.*/)?claims\.(csv|json))$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_EXPOSE_HEADERS = ("ETag", "Last-Modified", "Retry-After", "Content-Disposition")

# Where readers reach the editors (the about page says so).
LEDGER_EDITORS_EMAIL = os.environ.get("LEDGER_EDITORS_EMAIL", "editors@example.org")
# "Report a problem" on a claim: reports each client address may send per hour,
# counted in the shared cache (which fails open: without it, no limit).
REPORTS_PER_HOUR = envint("REPORTS_PER_HOUR", 5)

API_RATE = os.environ.get("API_RATE", "120/minute")
DOWNLOAD_RATE = os.environ.get("DOWNLOAD_RATE", "20/minute")
REST_FRAMEWORK = {
    # Anonymous and read-only: no sessions, no cookies, no CSRF.
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    # JSON whatever the client asks for, so a cached response suits every request.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "claims.api.negotiation.AlwaysJSON",
    "URL_FORMAT_OVERRIDE": None,
    "EXCEPTION_HANDLER": "claims.api.errors.json_errors",
    "DEFAULT_THROTTLE_CLASSES": ["claims.api.throttles.APIThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api": API_RATE, "downloads": DOWNLOAD_RATE},
    # Reverse proxies in front: throttles count the client's address, not the proxy's.
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Evidence Ledger API",
    "DESCRIPTION": "Read-only access to the published claims of the Evidence Ledger. "
    "Human documentation: /developers/.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the roles, whether an appearance's or a speaker's list of them.
    "ENUM_NAME_OVERRIDES": {
        "AppearanceRoleEnum": "episodes.models.Role",
        "ReferenceRoleEnum": "claims.references.Role",
    },
}

# Everything goes through the root's one handler: JSON lines in production, for log
# pipelines (gunicorn's too: ledger.logs.GunicornLogger); readable lines in development.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "ledger.logs.JSONFormatter"},
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
            "datefmt": "%H:%M:%S",
        },
    },
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "formatter": "text" if DEBUG else "json"}
    },
    "root": {"handlers": ["stdout"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own handlers (a console one while DEBUG is on, and runserver's
        # request lines) would print each line a second time, in another format.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
        # Server errors are logged once, by django.request, with the request's context.
        "django.request": {"level": "ERROR"},
        "django.security.DisallowedHost": {"level": "ERROR"},
        "axes": {"level": "WARNING"},
    },
}
