# Two entry points: `make run` starts the bot, `make test` runs the whole suite.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test sync bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bot

sync: $(VENV)/.installed
	$(PY) -m bot sync

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) -m bot bench

clean:
	rm -rf $(VENV) *.egg-info
