"""Every simulated respondent, behind one port (``respondent.Respondent``).

- ``respondent``: the port, the offline ``SimulatedRespondent``, the model-played
  ``LLMRespondent`` and ``make_respondent``, which picks one from the settings
- ``simulator``: the seeded simulator's decisions (traits, beliefs about the topic,
  deflections): which rung to say, or a vague answer, a ceiling, a complaint, a steer back
- ``memory``: what it already said, read back from the transcript (slips included)
- ``phrasing``: the frames it says things in
- ``voice``: how the person sounds (hedges, fillers, backstory, asides, jokes, typos)
- ``shaped``: answers of journey and grid personas
- ``pushback``: how a persona pushes back on a leading or repeated question
- ``matching``: labels matched to a persona's meanings (the simulator and the evaluation)
"""
