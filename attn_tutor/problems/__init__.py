"""Problem-set files: reading them strictly (load, fields), writing them (dump),
choosing which set a command or an answer file means (choice), and listing a set (listing).

May import: core, render.
"""
