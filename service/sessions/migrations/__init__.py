"""Alembic's schema migrations of the session store (``service.sessions.db`` runs them)."""
