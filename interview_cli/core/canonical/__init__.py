"""The canonical half of the dual graph (seed 001 "Dual-Graph Architecture"): stable slots
above the surface graph's paraphrases.

- ``slots``: the canonical state, a slot's life, canonical edges and the graph state
- ``proposals``: one turn's slot proposals placed into slots
- ``meaning``: what a label means, for the slot rules of version 2
- ``tracking``: node tracking through slots, and the canonical signals' inputs
"""
