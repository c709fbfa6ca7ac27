"""Simulated respondents and batch runs: study designs tried without people.

- ``respondent``: one ``Respondent`` interface over the simulator and a model playing the persona
- ``batch``: planning and running many interviews concurrently, isolated and resumable
- ``evaluation``: ground truth vs. what an interview elicited, per session and per batch
- ``estimate``: calls, tokens and cost of a batch before it runs (``--dry-run``)

The seeded persona simulator itself (``simulator``, ``phrasing``, ``matching``) lives in
``interview_cli.llm.offline``: the offline provider answers as a persona with it, and the llm
layer sits below this one.
"""
