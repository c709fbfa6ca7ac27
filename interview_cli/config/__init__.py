"""Loaders and pydantic schemas (methodology, concept, persona, settings); the search path."""
