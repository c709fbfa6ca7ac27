"""Asking without a model: the opening and the next question (``questions``), from the
template families of ``wording``."""
