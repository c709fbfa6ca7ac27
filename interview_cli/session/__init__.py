"""The session file: its typed schema and records, the store (atomic write, journal, lock), reading with migrations, and the clock that stamps it."""
