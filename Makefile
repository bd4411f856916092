# Evidence Ledger: `make run` serves the demo on SQLite; `make test` runs the checks.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: run editor test check-migrations screenshots serve format clean bench bench-10m

# Each step says what it is doing: the first install takes a minute or two.
$(BIN)/python:
	@echo "==> Creating the virtual environment $(VENV)/ with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	@echo "==> Upgrading pip"
	$(BIN)/pip install --quiet --upgrade pip

# Reinstall whenever the dependencies change. PYTHONWARNINGS hides setuptools'
# banner about editable installs, which is advice for library authors.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "==> Installing Django and the other dependencies (a minute or two the first time)"
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install --progress-bar on -e ".[dev]"
	touch $@
	@echo "==> Installed in $(VENV)/"

run: $(VENV)/.installed  ## Serve the demo ledger on http://127.0.0.1:$(PORT)
	@echo "==> Creating or updating the SQLite database (db.sqlite3)"
	$(BIN)/python manage.py migrate --no-input
	@echo "==> Loading the demo ledger"
	$(BIN)/python manage.py load_demo
	@echo "==> Serving http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

editor: $(VENV)/.installed  ## An editor account for the local admin, with a new password (DEBUG only)
	$(BIN)/python manage.py migrate --no-input -v0
	$(BIN)/python manage.py create_local_editor

test: $(VENV)/.installed  ## Lint, check migrations, run the suite (DATABASE_URL picks the database)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory check-migrations
	$(BIN)/pytest -n auto

screenshots: $(VENV)/.installed  ## Retake the README's screenshots (docs/screenshots/) in Chromium
	UPDATE_SCREENSHOTS=1 $(BIN)/pytest -n auto tests/browser

# Models against migrations needs no database; an in-memory one keeps makemigrations
# from connecting to DATABASE_URL's, which the suite has not created yet.
check-migrations:
	DATABASE_URL=sqlite://:memory: $(BIN)/python manage.py makemigrations --check --dry-run

# Production settings on plain local HTTP: a throwaway key, no HTTPS redirect.
SERVE_ENV = DEBUG=false ALLOWED_HOSTS=127.0.0.1,localhost SECURE_SSL_REDIRECT=false \
	SECRET_KEY=$${SECRET_KEY:-$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))')}

serve: $(VENV)/.installed  ## The production stack locally: gunicorn, DEBUG off, hashed and compressed static files
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo
	$(SERVE_ENV) $(BIN)/python manage.py collectstatic --no-input -v0
	$(SERVE_ENV) GUNICORN_BIND=127.0.0.1:$(PORT) $(BIN)/gunicorn ledger.wsgi --config gunicorn.conf.py

# The benchmark (docs/performance.md): ten thousand beside a million claims, realistic
# transcripts and all; SIZES=2000,5000 for a quick look. bench-10m adds ten million on
# PostgreSQL beside the million (about an hour, and some 30 GB of disk).
SIZES ?= 10000,1000000
$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e ".[dev,bench]"
	touch $@

bench: $(VENV)/.installed-bench  ## Benchmark SQLite and PostgreSQL at SIZES; report in bench/results/
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python bench/run.py --sizes $(SIZES)

bench-10m: $(VENV)/.installed-bench  ## Ten million claims on PostgreSQL beside one million; report in bench/results/report-10m
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python bench/run.py --sizes 1000000,10000000 --databases postgresql --no-datasette \
		--output bench/results/report-10m

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) staticfiles
