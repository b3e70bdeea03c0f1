"""Narrator prompt templates, one file per narrator task (the narrator arrives with its own issue;
the engine and rules search work without it)."""
