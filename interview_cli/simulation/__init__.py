"""Simulated respondents and batch runs (issue 6).

- ``simulator`` / ``phrasing``: the offline, seeded persona simulator (hidden ladders, traits)
- ``respondent``: one ``Respondent`` interface over the simulator and a model playing the persona
- ``matching``: which persona rung a label names (label, alias, fuzzy)
- ``batch``: planning and running many interviews concurrently, isolated and resumable
- ``evaluation``: ground truth vs. what an interview elicited, per session and per batch
- ``estimate``: calls, tokens and cost of a batch before it runs (``--dry-run``)
- ``view``: progress and summary tables for ``interview batch``
"""
