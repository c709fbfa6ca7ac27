"""Reading an answer without a model (the offline provider's ``extract``, ``assess``,
``propose_slots``).

- ``nonanswers``: the one classifier of what is not an answer: the spans of an answer that
  name nothing (a hedge, a time, a form of address, backstory, a joke, a correction's frame,
  talk about the interview...), from phrase lists kept as data (``lexicon/<language>/``), and
  whether a reply is an answer at all (``answer_kind``)
- ``extraction``: an answer becomes typed nodes and permitted edges; it cuts the answer into
  ``clauses`` and names each, judges whether the label is ``content``, places it in the
  methodology's ``ontology`` and links the clauses (``links``); a correction revises an earlier
  node (``corrections``), a request to go back names the next focus (``steering``) and taking
  something back ("that was a joke") disowns it (``retractions``), all found among the earlier
  concepts by their words (``earlier``); "it just annoys me" holds the focus against
  (``held``), and a clause's own words say how it is held (``stance``); ``meta`` holds the
  remark sentences, the idioms of words that name nothing and the question's premise denied
  ("it doesn't bother me")
- ``assessor``: the rubric signals, with the ``answer_kind`` and ``safety`` (keyword rules per
  language)
- ``slots``: surface labels grouped when they say the same thing
"""
