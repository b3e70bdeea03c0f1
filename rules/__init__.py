"""The fateweaver rules engine: pure functions over pydantic models.

Nothing here does I/O beyond reading the packaged data files under ``rules/data``, reads the
environment, talks to an LLM or knows about HTTP. ``service/`` is the only caller that maps
``rules.errors`` to HTTP statuses.
"""
