"""Journey and grid methodologies without a model: their openings, questions and readings.

- ``dispatch``: the offline tasks by methodology shape (a ladder returns None)
- ``journey`` (with ``journey_words``: feelings and trouble), ``grid`` (with ``grid_answers``)
- ``common``: small text helpers both use
"""
