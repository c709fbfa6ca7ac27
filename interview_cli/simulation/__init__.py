"""Simulated respondents and batch runs: study designs tried without people.

- ``respondents``: every simulated respondent (the seeded simulator, a model playing the
  persona) behind one ``Respondent`` port
- ``batch``: planning and running many interviews concurrently, isolated and resumable
- ``evaluation``: ground truth vs. what an interview elicited, per session and per batch
- ``estimate``: calls, tokens and cost of a batch before it runs (``--dry-run``)
"""
