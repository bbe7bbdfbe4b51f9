"""The offline practice page: the data the page carries (data), the page itself (page),
and its JavaScript ports of the parser and the marker (assets/).

May import: core, render, problems, solve, marking, variants. Not export or quiz.
"""
