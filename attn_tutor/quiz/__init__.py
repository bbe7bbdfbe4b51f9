"""The quiz: the question loop (loop) that asks each stage of a row, marks it, hints and
reports, driven through its read and show functions so it runs in a terminal or a test.

May import: core, render, problems, solve, marking, variants. Not export or practice.
"""
