"""Exporting a problem set for print and for a school's LMS: worksheets and answer keys
as blocks (worksheet), and the question banks that mark themselves (bank, bank_html,
moodle for Moodle Cloze XML, qti for Canvas QTI zips).

May import: core, render, problems, solve, marking, variants. Not practice or quiz.
"""
