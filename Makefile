# The two commands of the README, and nothing clever.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

run: $(PY)
	$(PY) -m pip install --quiet -e .
	$(VENV)/bin/flask --app scorekeeper run --host 127.0.0.1 --port 5000

test: $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(PY) -m pytest
