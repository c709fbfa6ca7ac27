"""Reading recorded sessions: replay and verify them (``replay``), report on a set of them
(``report``), export one for other tools (``export``); ``sources`` reads the files, read-only.
"""
