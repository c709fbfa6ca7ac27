"""``interview report``: what a set of sessions says, per session and together.

- ``build``: the report (per-session metrics, ladders, structure, codes, the implication matrix
  and the hierarchical value map, journeys and grids, participants)
- ``metrics``, ``codes``, ``implication``, ``ladder_sheet`` (ladders coded by hand),
  ``shapes`` and ``grid_stats`` (journey and grid sections), ``participants``
- ``to_markdown``, ``to_html``, ``to_json``: the built report in each output format
"""
