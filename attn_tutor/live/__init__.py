"""A live class: ``attn-tutor serve``, its web app and its pages.

The session it serves is kept by :mod:`attn_tutor.sessions` (SQLite or PostgreSQL): who joined,
every answer typed, the latest per item, the teacher's controls, and a change counter the
teacher's live map waits on.

May import core, problems, solve, marking, variants, practice, gradebook, sessions and classroom (every
package below it); only cli imports live.
"""
