"""Variants: the generator of random and look-alike problems (generate), the fairness
checks that keep every variant equally hard (fairness), and the sheets handed out (sheets).

May import: core, render, problems, solve, marking.
"""
