"""Loaders and pydantic schemas: methodology, concept, persona, settings; the library search path."""
