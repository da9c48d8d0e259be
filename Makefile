# The two commands of the README, and nothing clever.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test install

PORT ?= 5000

# Compiled modules are kept (__pycache__, ignored by git) even where the shell says
# otherwise: each test process and each server a test starts would compile the
# package and rewrite the tests' asserts again (2 s of every worker's start).
unexport PYTHONDONTWRITEBYTECODE

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Installing is redone only when pyproject.toml changes (an editable install sees
# code changes at once): the stamp files remember the last install.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/flask --app scorekeeper run --host 127.0.0.1 --port $(PORT)

# The app and the test tools into .venv, without running anything (an editor's, a hook's).
install: $(VENV)/.installed-test

# The tests run on every core (pytest-xdist; JOBS=0: all in one process). `make test`
# leaves out the tests marked slow (the load run, the wheel installed elsewhere,
# several gunicorn servers started per test); `make test SLOW=1` runs them too,
# afterwards and one at a time, as .ci/run does. Workers steal queued tests from
# each other, so one long browser journey at the end keeps no core idle.
JOBS ?= auto
SLOW ?=
test: $(VENV)/.installed-test
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n $(JOBS) --dist worksteal -m "not slow"
	$(if $(SLOW),$(PY) -m pytest -m slow)
