"""Marking what a student typed against the exact answer: the answer parser (answers),
the one marker shared by the quiz, grade, the LMS banks and the page (marker), the known
mistakes (mistakes), results and verdicts (results), tolerance, carrying a student's own
numbers forward (carrying), and hints.

May import: core, render, problems, solve.
"""
