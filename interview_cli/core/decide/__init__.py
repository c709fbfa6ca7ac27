"""The decision of a turn, from candidates to stop (seed 001 "Strategy Selection").

- ``decision``: one pure decision per turn (signals -> candidates -> vetoes -> scoring ->
  continuation)
- ``scoring``: compound weight keys, joint strategy-node ranking, two-stage selection;
  ``scored``: the records a ranked candidate carries
- ``vetoes``: the Tier-1 hard constraints; ``moderation``: the focus tie-break over scoring
- ``continuation``: the one decider of stopping (the seed's conditions, then the deferral of a
  premature stop); ``phase``: the interview phase
- ``moderator``: the moderator's decisions over the tool's (``/ask``, ``/alt``, ``/skip``)
- ``policies``: the baseline interviewers a batch compares with
"""
