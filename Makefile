# Gauntlet. `make demo` runs a whole event with bots, then serves the site;
# `make test` installs what is missing, starts PostgreSQL and Redis, runs ruff (lint and format),
# the import layers check and pytest.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PG_URL ?= postgres://postgres@127.0.0.1:5432/test
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: demo test install install-dev system-deps services lint bench messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

demo: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo

# Debian packages the tests need: Chromium for the browser tests, PostgreSQL and Redis
# when the machine has none, and Pango with a font that has Cyrillic for WeasyPrint's PDFs.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v pg_ctlcluster >/dev/null || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	/sbin/ldconfig -p | grep -q "libpango-1.0.so.0 " || missing="$$missing libpango-1.0-0"; \
	/sbin/ldconfig -p | grep -q "libpangoft2-1.0.so.0 " || missing="$$missing libpangoft2-1.0-0"; \
	[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || { \
	  echo "starting PostgreSQL"; \
	  $(SUDO) pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -n1) main start; \
	  for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done; }
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || { \
	  echo "starting Redis"; \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no; \
	  for i in $$(seq 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done; }

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

test: system-deps install-dev services
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	HYPOTHESIS_PROFILE=ci DATABASE_URL=$(PG_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: install-dev
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/pod_pairing.py
	$(BIN)/python bench/standings_page.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/engine.py --system ascension
	$(BIN)/python bench/games_end.py --games 200
	$(BIN)/python bench/dashboard_page.py
	$(BIN)/python bench/draft_load.py
	$(BIN)/python bench/play_load.py

messages: install-dev
	$(BIN)/python manage.py makemessages -l ru --ignore=.venv --ignore=var
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf var .pytest_cache .ruff_cache
