"""The vocabulary and the ground rules every other package stands on.

The problem model and its limits (model), the one catalogue of Korean and English
messages (i18n), errors and their places in a file (errors), quoting what was read
(text), safe reading (reading) and writing (writing), a guarded standard output
(stdout), stopping on signals (stopping), rounding half up and formatting numbers
(rounding), and strict YAML reading (yamlread).

May import: the standard library, and PyYAML inside yamlread's functions. Nothing of
attn_tutor outside core.
"""
