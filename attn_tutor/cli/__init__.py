"""The command line: the app and its table of commands (app), one module per command
(solve, sets for list/show/validate, quiz, grade, export, generate), the shared options
(options, random_options) and the help formatter (help). A command module parses its
options and calls the packages below.

May import: every package.
"""
