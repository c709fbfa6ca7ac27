"""Reading an answer without a model (the offline provider's ``extract``, ``assess``,
``propose_slots``).

- ``extraction``: an answer becomes typed nodes and permitted edges; it cuts the answer into
  ``clauses`` and names each, places it in the methodology's
  ``ontology`` and links the clauses (``links``); remarks about the interview are ``meta``
- ``assessor``: the rubric signals, with ``answer_kind`` (replies that are not answers) and
  ``safety`` (keyword rules per language)
- ``slots``: surface labels grouped when they say the same thing
"""
