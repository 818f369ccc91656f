# Two entry points: `make run` starts the bot, `make test` runs the whole suite.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test sync bench lock clean

$(VENV)/.installed: pyproject.toml requirements-test.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c requirements-test.lock -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bot

sync: $(VENV)/.installed
	$(PY) -m bot sync

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) -m bot bench

# Resolve the dependencies again into the two lock files (needs the package registry).
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet .
	{ head -n 2 requirements.lock; .lock-venv/bin/pip freeze --exclude-editable | grep -iv '^tablehouse'; } > requirements.lock.new
	.lock-venv/bin/pip install --quiet '.[test]'
	{ head -n 2 requirements-test.lock; .lock-venv/bin/pip freeze --exclude-editable | grep -iv '^tablehouse'; } > requirements-test.lock.new
	mv requirements.lock.new requirements.lock
	mv requirements-test.lock.new requirements-test.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) *.egg-info
