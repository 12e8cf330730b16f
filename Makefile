# One command per job. See README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint format messages bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=var >/dev/null

# The site on embedded defaults: SQLite, in-process channel layer, Celery on the filesystem
# broker under var/. Ctrl-C stops Daphne, the worker and beat together.
run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	@echo "Serving http://$(HOST):$(PORT)/  (Ctrl-C stops everything)"
	@trap 'kill 0' INT TERM EXIT; \
	$(BIN)/celery -A config worker --beat -Q clocks,default --loglevel=WARNING & \
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

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
	$(BIN)/python manage.py makemessages --all --no-obsolete --ignore=.venv --ignore=var --ignore=tests
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=var

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf var .pytest_cache .ruff_cache htmlcov .coverage
