# One command per job. See README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Local commands run with DEBUG on (production refuses to start without SECRET_KEY).
MANAGE := DEBUG=1 $(BIN)/python manage.py
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: prerequisites install run test lint format messages bench bench-load bench-ratings bench-bots bench-arena clean

# What the machine lacks, with apt-get (README: "What the two commands install"):
# make test asks for the test servers and the browser too.
prerequisites:
	@PYTHON=$(PYTHON) bash config/prerequisites.sh $(if $(filter test,$(MAKECMDGOALS)),test,run)

$(STAMP): pyproject.toml | prerequisites
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: prerequisites $(STAMP)
	$(MANAGE) compilemessages --ignore=.venv --ignore=var >/dev/null

# The site on one machine: SQLite and a private Redis (unix socket) under var/, Daphne, a
# Celery worker and beat; migrates and creates the demo members first (config/run.py).
# Ctrl-C stops everything.
run: install
	$(BIN)/python -m config.run --host $(HOST) --port $(PORT)

# The whole suite against throwaway PostgreSQL and Redis (tests/with_services.sh starts and stops them).
test: install
	bash tests/with_services.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

messages: $(STAMP)
	$(MANAGE) makemessages --all --no-obsolete --ignore=.venv --ignore=var --ignore=tests
	$(MANAGE) compilemessages --ignore=.venv --ignore=var

bench: install
	$(BIN)/python bench/engine.py

# The benchmarks that need PostgreSQL and Redis start throwaway ones.
bench-load: install
	bash tests/with_services.sh --run $(BIN)/python bench/ws_load.py

bench-ratings: install
	bash tests/with_services.sh --run $(BIN)/python bench/ratings.py

bench-arena: install
	bash tests/with_services.sh --run $(BIN)/python bench/arena.py
	bash tests/with_services.sh --run $(BIN)/python bench/arena_live.py

bench-bots: install
	$(BIN)/python bench/bots.py

clean:
	rm -rf var .pytest_cache .ruff_cache htmlcov .coverage
