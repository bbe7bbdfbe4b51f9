"""Class grading: read a class's answer files, mark each student with the quiz's rules, sum up.

May import: core, render, problems, solve, marking, variants (never classroom or cli).

The package, by job: :mod:`.records` (what is handed in and given back),
:mod:`.cells` (typed cells), :mod:`.answer_yaml` / :mod:`.answer_csv` /
:mod:`.answer_files` (reading answer files), :mod:`.grader` (marking a student),
:mod:`.rows` (a marked student as the outputs need them), :mod:`.run` (grading a
class: the one way it is done, streamed through ``--jobs`` workers),
:mod:`.routing` (which worker marks which file), :mod:`.analysis` (item analysis,
distribution), :mod:`.itemstats` (the item statistics, pure numpy), :mod:`.choices` (choice
items' labels in the file's order), :mod:`.writing` (CSV, JSON), :mod:`.summary` (the terminal's
blocks) and :mod:`.handback` (a marked student's hand-back sheet, made where they were marked).

No terminal and no rich here. A class is graded by :func:`.run.grade_class`: each file
read and marked once, each student added to a :class:`Tally` (item analysis,
distribution, the class table) and yielded as a small
:class:`~attn_tutor.gradebook.rows.StudentRow`, a window at a time in input order, to
whoever iterates the run (the :class:`GradebookWriter`'s CSV and JSON; the classroom's outputs);
:func:`summary_blocks` lays the tally out as document blocks. Marking is the quiz's
own (:mod:`attn_tutor.marking.marker`), in exam mode.

Answer files
    **YAML**, one per student: ``student``, ``problem_set`` (a packaged set's name,
    or a path relative to the answer file), optional ``variant`` (a worksheet's seed)
    and ``answers: {problem id: {query row: {stage: answer}}}``. An answer is a list
    of numbers or one line of text typed as in the quiz. The file is read by
    :class:`attn_tutor.core.yamlread.PlainReader` or with ``yaml.compose`` (``CSafeLoader``
    when present; see Speed), so nothing is ever built from a tag and every message has a line. Every number is read from the text exactly as
    written, by the quiz's parser (:func:`attn_tutor.marking.answers.parse_row`), not by
    YAML 1.1's rules: ``017`` is 17 (not 15), ``1:30`` and ``0x1F`` are refused,
    ``yes``/``no``/``on``/``off`` where a number belongs are refused with their own
    message; a duplicate key is an error and neither copy is used. An empty answer
    (``scores:``, ``[]``, ``""``) is simply missing.

    **CSV**, one row per student, as form tools export it: a ``student`` column, an
    optional ``variant`` column, then one column per answer named
    ``problem/row/stage``; other columns without a ``/`` (a form's ``Timestamp``,
    ``Email``) are ignored. UTF-8 with or without a byte-order mark.

Problem sets
    The teacher decides (:mod:`attn_tutor.problems.choice`). ``--problems`` (``problems=``
    here) marks every answer against that set, and an answer naming another set is
    flagged in its row. Without it, a file naming none gets the packaged default set,
    as ``solve`` and ``quiz`` do; a ``problem_set`` with no ``/`` or ``\\`` and no
    ``.yaml``/``.yml`` suffix is a packaged set's name; anything else is a path
    relative to the answer file that must resolve under the working directory, or
    the student is refused without the file being opened. A CSV without a
    ``problem_set`` column needs ``problems``. Each set is loaded once, each (set,
    variant) generated and solved once.

Errors are per student and never stop the batch
    A cell that does not parse, an answer with the wrong number of cells, an unknown
    problem, row or stage: a :class:`~attn_tutor.core.errors.Finding` with file and line,
    and the affected item is marked ``missing``. A file that cannot be read at all
    (not UTF-8, not YAML, not a mapping, its problem set missing or its variant bad)
    lists the student with the error and no marks (``report`` is None). Such a
    student counts neither in the item analysis nor in the score distribution.

Gradebook (CSV)
    ``student, variant, score, max_score, percent``, then for each item
    ``problem/row/stage points`` and ``problem/row/stage diagnosis``, then
    ``problem_set`` (what marked the student), ``file`` (``file:line`` for a CSV row)
    and ``errors``. Items come in a stable order: problem-set order, then asked rows,
    then pipeline stages (several sets: in the order the sorted files first name
    them). The diagnosis cell holds the verdict, with the diagnosis's name after
    a colon when there is one, in the chosen language (``correct``, ``follow``,
    ``missing``, ``wrong: not divided by √d``, ``partial: rounded too soon``;
    ``오답: √d로 안 나눔``): points alone cannot tell a missing answer from a wrong
    one. The JSON keeps the codes. An item a student was not set (another
    problem set) is empty. Written as UTF-8 *with* a byte-order mark, so Excel shows
    Korean names (every CSV reader that matters skips it; Python's with
    ``utf-8-sig``), with ``\\r\\n`` line ends (RFC 4180) and minimal quoting. A text
    cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
    leading ``'`` (OWASP's advice against formula injection); numbers are written
    as numbers, so ``-1`` stays ``-1``.

Item analysis
    Per item, over the students who were set it and could be marked: the share of
    each of the five verdicts — ``partial`` is reported on its own, not folded into
    ``wrong`` (a row half right is a different teaching problem from a row all
    wrong); the shares add up to 100% — and the three most common diagnoses (ties
    in :data:`~attn_tutor.marking.marker.DIAGNOSES` order) — and the item statistics
    (:mod:`.itemstats`, ``docs/item-statistics.md``): facility, the discrimination index by
    the upper and lower 27%, the point-biserial against the rest of the test, their flags,
    and a choice item's option shares (chosen labels in the file's own, :mod:`.choices`).
    The groups need every total, so the tally keeps 8 bytes a student in memory where
    everything else it keeps is counts; each answer's points (6 bytes) go to a temporary
    file a block of students at a time and are read back an item at a time.

Speed
    A class is dominated by reading its files (``benchmarks/grade_speed.py``
    measures ``grade`` against merely parsing them with ``CSafeLoader``). An
    ordinary file is read by a hand-written reader of YAML's plain subset (block
    mappings, one-line scalars and flow lists, comments), which remembers each
    distinct line's reading for the run, as the answer reader remembers each
    distinct answer's numbers; a file with anything to report, or with anything
    outside that subset (anchors, aliases, tags, block scalars, directives, tabs
    ...), is composed and walked node by node instead, so every message keeps its
    line (tests hold the two readers equal). Plain decimals, percentages and
    quotients skip the full answer parser (same result, tested) and other texts
    are parsed once per distinct text; each (set,
    variant) is loaded, generated and solved once per process. Marking is the
    quiz's own :class:`attn_tutor.marking.marker.Marker`, one per process, which marks
    each distinct (stage, answer, own earlier rows) once and a row right in every
    cell without numpy, making the mistakes' rows code by code only until one
    fits. :mod:`.run` shares the files out to worker processes, each variant's
    students to one worker (:mod:`.routing`), and merges them in order; rows stream
    to the outputs (:mod:`.writing` and the :class:`Tally`'s class table spool them to
    temporary files, the reports straight into the JSON file's own; the parent keeps an 8-byte hash of each name to find repeated
    students), and every cache is bounded in entries (the marker's by
    :data:`.grader.MARKER_MEMORY`, the readers' by their ``limit``), so memory stays
    flat as the class grows. What a chunk or a window leaves behind is the run's
    caches: each process, the parent too, freezes it out of the cyclic collector's
    sight (``gc.freeze``) until the run ends. ``--jobs`` is capped at the CPUs the
    process may use.

Score distribution
    Ten bins of 10% (``[0, 10)``, ..., ``[80, 90)``, ``[90, 100]``), counted exactly
    (fractions, not floats), over the students who could be marked.
"""

from attn_tutor.gradebook.analysis import Tally, bin_label, score_bin
from attn_tutor.gradebook.answer_csv import read_csv_text
from attn_tutor.gradebook.answer_files import find_answer_files, read_answer_file
from attn_tutor.gradebook.answer_yaml import read_yaml_text
from attn_tutor.gradebook.cells import CellReader, parse_cells
from attn_tutor.gradebook.grader import Grader, columns_of
from attn_tutor.gradebook.records import POLICIES, Answer, ItemStats, StudentResult, Submission
from attn_tutor.gradebook.rows import StudentRow
from attn_tutor.gradebook.summary import summary_blocks
from attn_tutor.gradebook.writing import GradebookWriter, csv_cell

__all__ = [
    "POLICIES", "Answer", "CellReader", "ItemStats", "Grader", "StudentResult", "StudentRow", "Submission",
    "bin_label", "columns_of", "csv_cell", "find_answer_files", "GradebookWriter", "Tally", "parse_cells",
    "read_answer_file", "read_csv_text", "read_yaml_text", "score_bin", "summary_blocks",
]  # fmt: skip
