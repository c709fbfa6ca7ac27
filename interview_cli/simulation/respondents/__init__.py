"""Every simulated respondent, behind one port (``respondent.Respondent``).

- ``respondent``: the port, the offline ``SimulatedRespondent``, the model-played
  ``LLMRespondent`` and ``make_respondent``, which picks one from the settings
- ``simulator``: the seeded ladder simulator (traits, hidden ladders, deflections)
- ``shaped``: answers of journey and grid personas
- ``pushback``: how a persona pushes back on a leading or repeated question
- ``phrasing``: the simulator's wording
- ``matching``: labels matched to a persona's hidden rungs (the simulator and the evaluation)
"""
