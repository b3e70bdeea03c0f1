# The two set-up commands: `make run` (install + start the service) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: install run test lint check bench

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test]"
	touch $@

run: install
	$(BIN)/fateweaver serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check rules service tests bench

test: install lint
	$(BIN)/pytest

check: test

bench: install
	$(BIN)/python bench/engine.py
