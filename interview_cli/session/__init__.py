"""The session file (ARCHITECTURE "Session file"): one JSON document per interview.

- ``schema``: the typed session file and its turn records
- ``store``: the sessions directory, snapshot and journal written atomically, one writer each
- ``read``: bounded reading, schema migrations, the journal replayed
- ``journal``: the journal's line format; ``lock``: the one-writer lock
- ``clock``: the wall clock that stamps the file
"""
