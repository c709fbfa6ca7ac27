"""Replaying a session's recorded model outputs through the pure core.

- ``engine``: the replay itself (``core.turn.advance`` over the recorded inputs)
- ``verify``: ``replay --verify``, every recorded decision reproduced or the first difference
- ``whatif``: ``replay --methodology OTHER.yaml``, the decisions other weights would change
- ``walk``: one recorded turn as a plain record
"""
