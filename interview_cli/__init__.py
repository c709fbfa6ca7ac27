"""interview_cli: adaptive qualitative interviews with a knowledge graph behind every question."""

__version__ = "0.1.0"
