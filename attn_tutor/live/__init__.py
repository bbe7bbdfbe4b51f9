"""A live class: ``attn-tutor serve``, its web app, and the session's storage.

``live/store.py`` keeps a session (SQLite or PostgreSQL): who joined, every answer
typed, the latest per item, the teacher's controls, and a change counter the teacher's
live map waits on; ``grade`` reads a session through it as answer documents.

May import core, problems, solve, marking, practice, gradebook and classroom (every
package below it); only cli imports live.
"""
