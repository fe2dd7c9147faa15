# Two commands for a fresh clone: `make run` (demo site) and `make test` (the whole suite);
# `make serve` for a real event.
PYTHON ?= python3
PORT ?= 8000
TASK_WORKERS ?= 1
VENV := .venv
PY := $(VENV)/bin/python
# The app alone serves the demo; the development tools (and the C++ reference calculator the
# tests compile) come only with the targets that need them.
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed

.PHONY: run serve test check test-database api-check lint format demo clean axe

$(APP_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $(APP_STAMP)

$(STAMP): $(APP_STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

demo: $(APP_STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py setup_demo

# The demo server and, beside it, the task worker that sends its e-mails and builds its
# imports and workbooks (stopped with it).
run: demo
	@$(PY) manage.py worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# Written once collectstatic has finished (a server that finds it starts on whole files); the
# folders are listed too, so that a file removed counts as a change.
STATIC_STAMP := staticfiles/.gathered
$(STATIC_STAMP): $(APP_STAMP) tournament/settings.py $(shell find tournament/static)
	MCR_DEBUG=0 $(PY) manage.py collectstatic --noinput --verbosity 0
	touch $@

# A real event (README, "Running a real event"; docs/deploy.md): DEBUG off, so the settings
# refuse to start without MCR_SECRET_KEY; the database brought up to date, the static files
# gathered (hashed and compressed), then gunicorn on PORT with gunicorn.conf.py's workers,
# and TASK_WORKERS task workers beside it (stopped with it; 0 when they run as services of
# their own, deploy/mcr-worker.service).
# The static files are gathered again only when the app's own, its settings or its packages
# (pyproject.toml) changed: a restart, or the tests' servers, skip it. Two servers started at
# once from one checkout (the tests', the benchmark's) gather them one after the other, the
# second finding them gathered: two collectstatic runs writing the same files fail.
serve: export MCR_DEBUG = 0
serve: $(APP_STAMP)
	$(PY) manage.py migrate --noinput
	flock .collectstatic.lock $(MAKE) --no-print-directory -s $(STATIC_STAMP)
	@workers=""; for n in $$(seq 1 $(TASK_WORKERS)); do $(PY) manage.py worker & workers="$$workers $$!"; done; \
	trap 'kill $$workers 2>/dev/null' EXIT INT TERM; \
	PORT=$(PORT) $(VENV)/bin/gunicorn --config gunicorn.conf.py tournament.wsgi

# pytest's workers: one per core (pytest-xdist), each with its own test database, its own
# live server and its own browser.
WORKERS ?= auto
PYTEST := $(VENV)/bin/pytest --numprocesses=$(WORKERS) --durations=30

# The browser tests need Debian's chromium and chromedriver, the workbook tests in
# LibreOffice its soffice; without them (and without MCR_REQUIRE_BROWSER or
# MCR_REQUIRE_LIBREOFFICE, which CI sets) the rest runs and one line says how to add them.
test: check
	@left_out=""; \
	if [ -z "$$MCR_REQUIRE_BROWSER" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null; then \
		echo "Browser tests left out: 'apt-get install chromium chromium-driver' to run them."; \
		left_out="not browser"; \
	fi; \
	if [ -z "$$MCR_REQUIRE_LIBREOFFICE" ] && ! command -v soffice >/dev/null; then \
		echo "LibreOffice tests left out: 'apt-get install libreoffice-calc-nogui' to run them."; \
		left_out="$${left_out:+$$left_out and }not libreoffice"; \
	fi; \
	$(PYTEST) $${left_out:+-m "$$left_out"}

# axe-core, the accessibility checker the browser tests run in each kind of page
# (tests/browser/test_every_page.py): fetched once from the npm registry into a folder git
# ignores, the release pinned and its script checked against the digest it had when chosen.
# The test fetches it through this target when it is missing.
AXE_VERSION := 4.10.3
AXE_SHA256 := 880970c081707360e64f34cea25ff91892f5bc95675b0776925b9709dd8a68bb
AXE := .cache/axe-core/$(AXE_VERSION)/axe.min.js
axe: $(AXE)
$(AXE):
	@mkdir -p $(@D)
	@cd $(@D) && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null \
		&& tar -xzf axe-core-$(AXE_VERSION).tgz --strip-components=1 package/axe.min.js \
		&& rm axe-core-$(AXE_VERSION).tgz \
		&& echo "$(AXE_SHA256)  axe.min.js" | sha256sum --check --quiet \
		|| { rm -f axe.min.js; echo "axe-core $(AXE_VERSION) could not be fetched (npm pack)." >&2; exit 1; }

# What gives the same answer on any database, once: the migrations are complete, lint and
# format, and the architecture's import contracts (docs/architecture.md).
check: $(STAMP)
	$(PY) manage.py makemigrations --check --dry-run --settings=tournament.settings_test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

# The suite again on the database DATABASE_URL names, without what gives the same answer on
# any database (`check`, and the tests that touch no database: the pure cores, the file
# readers, the catalogue), without the browser tests (a referee's taps and the pages'
# scripts: the same views the web tests run on this database, for minutes of a browser's
# time) and without LibreOffice's (how it reads and prints the files: their cells are read
# back on this database by tests/test_exports.py, for a minute of soffice's time), and
# without the web tests of permissions and of what a page says (``pages_only``: what they
# store and read goes through the services and selectors tested here); CI runs it on
# PostgreSQL after `make test`.
test-database: $(STAMP)
	@test -n "$$DATABASE_URL" || { echo "test-database runs on the database DATABASE_URL names: set it." >&2; exit 2; }
	$(PYTEST) -m "database and not browser and not libreoffice and not pages_only"

# The results API as a client meets it: the demo's tournaments served on a port (a database
# of its own in a folder removed afterwards), and schemathesis run against the OpenAPI
# document the server serves: no server error, every answer as the document describes it.
API_PORT ?= 8765
api-check: $(STAMP)
	@set -e; folder=$$(mktemp -d); \
	export DATABASE_URL="sqlite:///$$folder/api.sqlite3" MCR_API_RATE=100000/m; \
	$(PY) manage.py migrate --noinput --verbosity 0; \
	$(PY) manage.py setup_demo >/dev/null; \
	$(PY) manage.py runserver 127.0.0.1:$(API_PORT) --noreload >"$$folder/server.log" 2>&1 & \
	server=$$!; trap 'kill $$server; rm -rf "$$folder"' EXIT; \
	for attempt in $$(seq 100); do \
		$(PY) -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$(API_PORT)/healthz', timeout=1)" 2>/dev/null && break; \
		sleep 0.2; \
	done; \
	$(VENV)/bin/schemathesis run --max-examples 25 http://127.0.0.1:$(API_PORT)/api/v1/openapi.json

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm

# Fan calculator checks outside `make test`: the differential test against the pymahjonggb
# oracle at full size under the seed reading and under the 5-point 明暗杠 reading (it prints
# how many hands agree under each), and the benchmark of our calculator against the oracle.
.PHONY: differential bench
differential: $(STAMP)
	MCR_DIFF_HANDS=10000 $(VENV)/bin/pytest tests/scoring/test_differential.py -q -s -p no:cacheprovider -n 0

bench: $(STAMP)
	$(PY) bench/fan_benchmark.py

# Seating engine benchmark: whole-tournament plans against their targets (not part of `make test`).
.PHONY: bench-seating
bench-seating: $(STAMP)
	$(PY) bench/seating_benchmark.py

# A referee's 16 hands in headless Chromium: taps, keystrokes, scrolls, server time per save
# (needs chromium and chromedriver; not part of `make test`).
# The tile picker: taps and fan latency for 20 hands of the fan corpus (not part of `make test`).
.PHONY: bench-picker
bench-picker: $(STAMP)
	$(PY) bench/tile_picker_bench.py

# The referees' desk against `make serve` on the PostgreSQL of DATABASE_URL (default: the
# local server's `test`): 20 calls shown on a Chromium desk, then 100 tables calling within a
# minute while 3 desks poll (docs/desk.md; about 3 minutes; not part of `make test`).
.PHONY: bench-desk
bench-desk: $(STAMP)
	$(PY) bench/desk_benchmark.py $(BENCH_DESK_ARGS)

# A change of the rules after play started on big tournaments: the seconds every stored hand
# takes to be settled again (bench/rules_bench.py; not part of `make test`).
.PHONY: bench-rules
bench-rules: $(STAMP)
	$(PY) bench/rules_bench.py

.PHONY: bench-tablet
bench-tablet: $(STAMP)
	$(PY) bench/tablet_benchmark.py

# 100 server kills (SIGKILL, 0.2-2 s down) while headless Chromium enters hands as a referee:
# hands lost, duplicated or wrong in the database (needs chromium and chromedriver; about
# 10 minutes; not part of `make test`).
.PHONY: bench-drops
bench-drops: $(STAMP)
	$(PY) bench/network_drops.py

# 100 tablets against `make serve` (4 workers) on SQLite and on the PostgreSQL of
# DATABASE_URL (default: the local server's `test`): pace of play, a burst, one table.
.PHONY: loadtest
loadtest: $(STAMP)
	$(PY) bench/loadtest.py

# A hall's screen in headless Chromium for ten minutes at its real 10 s polls, on a
# 1,000-player tournament whose session is being played: requests, bytes and server time per
# poll, and no page reload (needs chromium and chromedriver; not part of `make test`).
.PHONY: bench-screen
bench-screen: $(STAMP)
	$(PY) bench/screen_run.py

# Big tournaments' pages and exports: builds 100x8, 400x10 and 1,000x10 tournaments (about
# a quarter of an hour; BENCH_WEB_DB=postgresql for the PostgreSQL of DATABASE_URL) and
# prints queries, server time, bytes and the workbook's memory per page; then the workbook
# written by openpyxl's write-only mode on its rows read once, and the pages drawn by
# django-tables2 cold: the standings' first page and All, the seating, a player's page.
.PHONY: bench-web
bench-web: $(STAMP)
	$(PY) bench/web_benchmark.py --database $(or $(BENCH_WEB_DB),sqlite)

# Backups at an event's size (docs/backups.md): a 1,000-player, 10-session tournament built
# on SQLite (BENCH_BACKUPS_DB=postgresql: on the PostgreSQL server of DATABASE_URL), then the
# time and the peak memory of `backup` and `restore` (a few minutes; not part of `make test`).
.PHONY: bench-backups
bench-backups: $(STAMP)
	$(PY) bench/backups.py --database $(or $(BENCH_BACKUPS_DB),sqlite) $(BENCH_BACKUPS_ARGS)

# The standings workbook of 300 players x 8 sessions and 1,000 x 10, its rows made without a
# database, written as the site writes it (openpyxl's write-only mode): time and the peak of
# the memory the writing allocates (about a minute; not part of `make test`).
.PHONY: bench-workbook
bench-workbook: $(STAMP)
	$(PY) bench/workbook_bench.py

# Several app servers under a big event's load (docs/deploy.md, "A big event"): a generated
# 1,000-player tournament in session 3 of 8 on the PostgreSQL of DATABASE_URL (default: the
# local server's `test`; a database of its own, dropped after) and the Redis of
# MCR_BENCH_REDIS_URL (default: database 13 of the local Redis, emptied); one server, then two
# (`make serve` each), each with one pool of workers and then hall first (docs/deploy.md): 250
# tablets at the pace of play, spectators at 200 requests a second, a burst of 200 saves with
# a server killed (SIGKILL) and started again. Prints the saves' and pages' times,
# lost/duplicated hands, stale reads, the connections at the peak (about 20 minutes; not part
# of `make test`). BENCH_CLUSTER_ARGS="--players 10000 --burst 500" for
# the stress run (about 25 minutes); "--against ../other-checkout" runs another checkout's
# servers first on the same load, both sides printed side by side.
.PHONY: bench-cluster
bench-cluster: $(STAMP)
	$(PY) bench/cluster.py $(BENCH_CLUSTER_ARGS)
