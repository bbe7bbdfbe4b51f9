"""Problem kinds beside attention, one folder each (docs/architecture.md, "Problem kinds").

A problem set may hold problems of several kinds; ``kind: attention`` is the default and
lives where it always has (``core/model.py``, ``solve/``, ``marking/``, …). Every other kind is
a folder here, ``kinds/<name>/``, whose modules are named by their job, and each job stands on
the level of the package that does that job for attention:

    model      core       the kind's record, its stages and limits
    fields     problems   its fields read from YAML, every finding with file:line:column
    engine     solve      its numbers, exact
    layout     solve      its worked solution as blocks, its ``solve --format json``
    marking    marking    its answers read, marked by stage with follow-through, its mistakes named
    generate   variants   its seeded random problems and fair variants
    export     export     its worksheets, keys, key table lines and question banks' cells

and its port for the pages is ``practice/assets/<name>.js``. A kind is registered by its name in
``core/model.py`` (``KINDS``) and by one line in each level's table of kinds (``KIND_FIELDS`` in
``problems/load.py``, ``KIND_ENGINES`` in ``solve/engine.py``, ``KIND_MESSAGES`` in ``practice/data.py``, …).

May import: for each module, the packages below its job's level (``tests/repo/test_architecture.py``
reads the job from the module's name).
"""
