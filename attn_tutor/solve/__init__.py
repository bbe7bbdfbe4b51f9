"""Solving: the numpy engine (engine), the written-out arithmetic a student does by hand
(explain), a solution laid out as document blocks (layout), and solutions as JSON (jsonout).

May import: core, render, problems. numpy only inside functions.
"""
