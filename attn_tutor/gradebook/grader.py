"""Marking a class's students: each problem set loaded once, each (set, variant) solved once.

One :class:`Grader` per process that marks (:mod:`attn_tutor.gradebook.run` is the one
way a class is graded: read, marked and made into rows, streamed in order)."""

from __future__ import annotations

from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.model import STAGES, ProblemSet
from attn_tutor.core.text import did_you_mean, excerpt
from attn_tutor.gradebook.answer_files import read_answer_file
from attn_tutor.gradebook.records import POLICIES, Answer, FileNote, ItemKey, NestedFinding, StudentResult, Submission, concept_key
from attn_tutor.kinds.sampling import marking as sampling
from attn_tutor.marking.concepts import mark_result
from attn_tutor.marking.marker import Marker, Report, full_row, open_cells
from attn_tutor.problems.choice import Choice, same_set, student_choice, teacher_choice
from attn_tutor.problems.load import DEFAULT_SET, load_problem_set, packaged_path, packaged_sets
from attn_tutor.solve import engine
from attn_tutor.solve.concepts import show_all
from attn_tutor.variants.generate import regenerate

MARKER_MEMORY = 50_000
"""Entries a grading process's marker remembers (its rows, marks and carried rows: ~0.7 KB each, so
~35 MB), after which it marks afresh what it has not met. A class's common answers — right rows,
the usual slips — come in its first thousand or two students; the rest are mostly met once, so
remembering them only costs memory (a 10,000-file class: the same CPU time with 50,000 entries as
with 500,000, 109 MiB against 175 MiB; 50,000 files reach 500,000 entries)."""


CONCEPT_MARKS = 10_000
"""(concept item, typed choice) pairs a Grader remembers the mark of: a class types few distinct choices."""


class Grader:
    """Marks submissions with one :class:`attn_tutor.marking.marker.Marker`, loading each problem set
    once and solving each (set, variant) once."""

    def __init__(self, *, problems: str | None = None, follow_through: str = "full") -> None:
        if follow_through not in POLICIES:
            raise ValueError(follow_through)
        self.follow_through = follow_through
        self._sets: dict[str, ProblemSet | AttnTutorError] = {}
        self._solved: dict[tuple[str, int | None], tuple | AttnTutorError] = {}

        self.marker = Marker(follow_through=follow_through, limit=MARKER_MEMORY)
        self.order: list[ItemKey] = []  # every item column, in first-seen set order
        self.columns_by_key: dict[str, list[ItemKey]] = {}  # each solved set's items, by its key
        self._names: list[str] | None = None
        self._choices: dict[tuple, Choice] = {}  # (problem_set, base) -> its Choice
        self.override: Choice | None = None
        self._same: dict[tuple, bool] = {}  # (problem_set, base) -> whether it is the --problems set
        self._concept_marks: dict[tuple, tuple] = {}
        self._columns_said: set[tuple] = set()  # (CSV file, id(set), concept id): an unknown column said once
        self._layouts: dict[int, tuple] = {}  # id(solved set) -> (the set, its rows to mark: see _layout)  # (id(shown), typed) -> (shown, its ConceptResult)
        if problems is not None:

            self.override = teacher_choice(problems, self._packaged())
            assert self.override.key is not None  # the teacher's choice always names a set
            loaded = self._load(self.override.key, problems)
            if isinstance(loaded, AttnTutorError):
                raise loaded

    def _load(self, key: str, spec: str | None) -> ProblemSet | AttnTutorError:
        if key not in self._sets:

            try:
                self._sets[key] = load_problem_set(spec)
            except AttnTutorError as error:
                self._sets[key] = error
        return self._sets[key]

    def choice(self, sub: Submission):
        """The :class:`~attn_tutor.problems.choice.Choice` the file's ``problem_set`` makes (the teacher's rules),
        worked out once per (name, folder): a class names one set, and resolving a path costs system calls."""

        cache = (sub.problem_set, sub.base)
        known = self._choices.get(cache)
        if known is None:
            known = student_choice(sub.problem_set, sub.base, Location(sub.file, sub.line), self._packaged(), DEFAULT_SET)
            if len(self._choices) < 10_000:
                self._choices[cache] = known
        if known.refusal is not None:  # the sentence names this student's own file and line
            known = known._replace(refusal=known.refusal.__class__(known.refusal.key, known.refusal.args, Location(sub.file, sub.line)))
        return known

    def resolve(self, sub: Submission) -> tuple[str | None, str, list[Finding]]:
        """The problem set's cache key (None: refused), the label reports carry, and what to flag."""
        named = self.choice(sub)
        if self.override is not None:
            flags = []
            if sub.problem_set is not None and not self._same_as_override(sub, named):
                where = Location(sub.file, sub.line)
                flags.append(Finding("grade.problem_set_overridden", {"name": named.label, "used": self.override.label}, where))
            return self.override.key, self.override.label, flags
        return named.key, named.label, [named.refusal] if named.refusal is not None else []

    def _same_as_override(self, sub: Submission, named) -> bool:
        """Whether the set an answer names is the ``--problems`` set: the same file by any path (after
        symlinks and ``..``, from the answer's folder, wherever the working directory is), or a file
        with the same bytes (a packaged set and a copy of it, say). Worked out once per (name, folder)."""
        assert self.override is not None and sub.problem_set is not None  # asked only then (see resolve)
        if named.key == self.override.key:
            return True
        cache = (sub.problem_set, sub.base)
        known = self._same.get(cache)
        if known is None:
            known = same_set(sub.problem_set, sub.base, self.override, self._packaged_file)
            if len(self._same) < 10_000:
                self._same[cache] = known
        return known

    def _packaged_file(self, name: str) -> str | None:
        return str(packaged_path(name)) if name in self._packaged() else None

    def _packaged(self) -> list[str]:
        if self._names is None:

            self._names = packaged_sets()
        return self._names

    def solved(self, key: str, seed: int | None):
        """(problem set, {problem id: Solution}) for a set and a variant, or the error."""
        cache = (key, seed)
        if cache not in self._solved:
            base = self._load(key, key)
            if isinstance(base, AttnTutorError):
                self._solved[cache] = base
            else:

                try:
                    if seed is not None:

                        base = regenerate(base, seed)  # the same function as solve --variant
                    solutions = {p.id: engine.solve(p) for p in base.problems}

                    widths = {
                        (p.id, token, stage): _open_cells(p, solutions[p.id], token, stage)
                        for p in base.problems
                        for token in p.asked_rows
                        for stage in p.asked_stages
                    }
                    shown = show_all(base, seed=seed)  # a variant's labels are its own shuffle's
                    self._solved[cache] = (base, solutions, widths, shown)
                    self._remember_columns(key, base)
                except AttnTutorError as error:
                    self._solved[cache] = error
        return self._solved[cache]

    def _remember_columns(self, key: str, problem_set: ProblemSet) -> None:
        if key in self.columns_by_key:
            return
        columns = self.columns_by_key[key] = columns_of(problem_set)
        known = set(self.order)
        for column in columns:
            if column not in known:
                known.add(column)
                self.order.append(column)

    def mark(self, sub: Submission) -> StudentResult:
        findings = list(sub.findings)
        key, label, flags = self.resolve(sub)
        findings.extend(flags)
        result = StudentResult(sub.student, sub.file, sub.line, sub.variant, label, None, findings, refused=sub.refused, of_file=sub.of_file)
        if sub.refused or sub.of_file:
            result.problem_set = None
        elif key is not None and not (self.override or self.choice(sub)).packaged:
            result.set_file = key  # an input of the run: no output may be written over it
        if not sub.readable or key is None:
            return result
        solved = self.solved(key, sub.variant)
        if isinstance(solved, AttnTutorError):
            findings.extend(self._set_errors(sub, label, solved))
            return result
        problem_set, solutions, widths, shown_concepts = solved
        result.set_key = key
        answers = self._check(sub, problem_set, widths, findings)
        items = []
        row = self.marker.row
        for solution, index, keys in self._layout(problem_set, solutions):
            items.extend(row(solution, index, {stage: answers.get(item_key) for stage, item_key in keys}, mode="exam"))
        concepts = self._concepts(sub, problem_set, shown_concepts, findings)
        result.report = Report(sub.student, label, sub.variant, "exam", items, concepts)
        return result

    def _layout(self, problem_set: ProblemSet, solutions: dict) -> tuple:
        """(solution, row index, ((stage, item key), ...)) for every asked row of a solved set, in
        marking order, worked out once per solved set."""
        known = self._layouts.get(id(problem_set))
        if known is None or known[0] is not problem_set:
            rows = tuple(
                (solutions[problem.id], _row_index(problem, token), tuple((stage, (problem.id, token, stage)) for stage in problem.asked_stages))
                for problem in problem_set.problems
                for token in problem.asked_rows
            )
            known = self._layouts[id(problem_set)] = (problem_set, rows)
        return known[1]

    def _concepts(self, sub: Submission, problem_set: ProblemSet, shown_concepts, findings: list[Finding]) -> list:
        """Each concept item of the set marked from the choice typed (none: unanswered); a choice that
        cannot be read, or one for an item the set does not have, is reported."""
        marked = []
        memo = self._concept_marks
        for shown in shown_concepts:
            typed, where = sub.concepts.get(shown.id, (None, None))
            known = memo.get((id(shown), typed))
            if known is None or known[0] is not shown:  # each (item, typed text) marked once: the result is a tuple, shared
                known = (shown, mark_result(shown, typed))
                if len(memo) < CONCEPT_MARKS:
                    memo[(id(shown), typed)] = known
            result = known[1]
            if result.problem is not None:
                args = {"item": f"concepts/{shown.id}", "value": excerpt(typed or ""), "first": shown.labels[0], "last": shown.labels[-1]}
                findings.append(Finding(f"grade.concept_{result.problem.rsplit('_', 1)[-1]}", args, where))
            marked.append(result)
        ids = [c.id for c in problem_set.concepts]
        for concept_id, (_, where) in sub.concepts.items():
            if concept_id not in ids and not self._column_said(sub, problem_set, concept_id):
                if sub.line is not None:  # a CSV's column: said once, at its header
                    where = Location(where.file, 1, where.column)
                suggestion = did_you_mean(concept_id, ids)
                args = {"item": f"concepts/{excerpt(concept_id)}", "ids": ", ".join(ids) or "-"}
                if suggestion is not None:
                    findings.append(Finding("grade.unknown_concept_suggest", {**args, "suggestion": suggestion}, where))
                else:
                    findings.append(Finding("grade.unknown_concept", args, where))
        return marked

    def _column_said(self, sub: Submission, problem_set: ProblemSet, concept_id: str) -> bool:
        """Whether an unknown concept column of a CSV was already said for this file and set (a file
        is read and marked by one process): a column's note is said once, not on every row."""
        if sub.line is None:  # a YAML file's own key: its own note
            return False
        said = (sub.file, id(problem_set), concept_id)
        if said in self._columns_said:
            return True
        if len(self._columns_said) < 10_000:
            self._columns_said.add(said)
        return False

    def _set_errors(self, sub: Submission, label: str, error: AttnTutorError) -> list[Finding]:
        """Why a set did not load: the loader's messages for the teacher's own or a packaged set; for a
        file a student named, one sentence quoting nothing from it (the teacher runs validate)."""
        where = Location(sub.file, sub.line)
        if self.override is not None or self.choice(sub).packaged:
            return [NestedFinding("grade.problem_set_error", {"name": label}, where, inner=problem) for problem in error.problems]
        if error.problems[0].key in ("problems.not_found", "problems.no_such_set"):

            sets = ", ".join(self._packaged()) or "-"
            return [Finding("grade.problem_set_missing", {"name": excerpt(sub.problem_set or ""), "sets": sets}, where)]
        return [Finding("grade.problem_set_invalid", {"name": label}, where)]

    def _check(self, sub: Submission, problem_set: ProblemSet, widths: dict, findings: list[Finding]) -> dict:
        """The answers that fit the problem set (``widths``: every asked item's open cells); the rest reported.

        A row with the masked cells left out is filled in as the quiz does (:func:`attn_tutor.marking.marker.full_row`)."""

        good: dict[ItemKey, tuple] = {}
        for item_key, answer in sub.answers.items():
            open_ = widths.get(item_key)
            if open_ is not None and item_key[1] == "" and item_key[0] in problem_set.ids:  # a sampling stage
                cells = sampling_cells(problem_set.get(item_key[0]), item_key[2], answer, findings)
                if cells is not None:
                    good[item_key] = cells
                continue
            if open_ is not None:
                if answer.values is None:
                    continue
                if len(answer.values) == len(open_):
                    good[item_key] = answer.values
                    continue
                full = full_row(answer.values, open_)  # the masked cells left out, as the quiz takes them
                if full is not None:
                    good[item_key] = tuple(full)
                    continue
            problem_id, token, stage = item_key
            item = f"{problem_id}/{token}/{stage}"
            if open_ is not None:
                assert answer.values is not None  # (else skipped above)
                args = {"item": item, "given": len(answer.values), "expected": len(open_)}
                if all(open_):
                    findings.append(Finding("grade.wrong_count", args, answer.where))
                else:
                    args["open"] = sum(open_)
                    findings.append(Finding("grade.wrong_count_masked", args, answer.where))
            else:
                where = answer.where if sub.line is None else Location(answer.where.file, 1, answer.where.column)  # a CSV's column: its header
                findings.append(unknown_item(problem_set, item_key, where))
        return good


def check_answer_file(path: str, problems: str | None = None) -> tuple[list[StudentResult], list[FileNote]]:
    """An answer file checked as ``grade`` checks it (``validate``): each student in it, marked against
    the set it names (or ``problems``), with every problem found, and what is said of the file (a CSV's
    unused columns); raises only for a bad ``problems``."""
    grader = Grader(problems=problems)
    found = read_answer_file(path, skip_foreign=str(path).lower().endswith(".csv"))  # a gradebook is said as one
    return [grader.mark(sub) for sub in found if type(sub) is Submission], [note for note in found if type(note) is FileNote]


def unknown_item(problem_set: ProblemSet, item_key: ItemKey, where: Location) -> Finding:
    """An answer to an item the set does not ask: which part is unknown (the problem, the row or the
    stage), with what it most likely meant (:func:`attn_tutor.core.text.did_you_mean`) or what there is."""
    problem_id, token, stage = item_key
    item = f"{problem_id}/{token}/{stage}"
    if problem_id not in problem_set.ids:
        args, choices, wrong = {"item": item, "problem": problem_id, "ids": ", ".join(problem_set.ids)}, problem_set.ids, problem_id
        key = "grade.unknown_problem"
    elif token not in (problem := problem_set.get(problem_id)).asked_rows:
        args, choices, wrong = {"item": item, "problem": problem_id, "row": token, "rows": ", ".join(problem.asked_rows)}, problem.asked_rows, token
        key = "grade.unknown_row"
    else:
        args, choices, wrong = {"item": item, "stage": stage, "stages": ", ".join(problem.asked_stages)}, problem.asked_stages, stage
        key = "grade.unknown_stage"
    suggestion = did_you_mean(wrong, choices)
    if suggestion is not None:
        return Finding(f"{key}_suggest", {**args, "suggestion": suggestion}, where)
    return Finding(key, args, where)


def columns_of(problem_set: ProblemSet) -> list[ItemKey]:
    """Every item of a set in gradebook order: problems, then asked rows, then pipeline stages;
    then the concept items (``concepts/<id>``)."""
    return [
        (problem.id, token, stage)
        for problem in problem_set.problems
        for token in problem.asked_rows
        for stage in (STAGES if problem.kind == "attention" else problem.asked_stages)
        if stage in problem.asked_stages
    ] + [concept_key(concept.id) for concept in problem_set.concepts]


def _open_cells(problem, solution, token: str, stage: str) -> tuple[bool, ...]:
    """Which cells of an item a student fills in (a sampling stage: every one)."""
    if problem.kind == "sampling":
        return (True,) * sampling.cell_count(problem, stage)
    return tuple(open_cells(solution, problem.row_index(token), stage).tolist())


def _row_index(problem, token: str) -> int:
    return 0 if problem.kind == "sampling" else problem.row_index(token)


def sampling_cells(problem, stage: str, answer: Answer, findings: list[Finding]) -> tuple | None:
    """A sampling stage's answer as the marker's cells, or None (blank, or refused with a finding)."""
    item = f"{problem.id}/{stage}"
    if stage == "pick":
        if answer.typed is None:
            return None
        if answer.typed not in problem.tokens:
            findings.append(Finding("grade.unknown_token", {"item": item, "token": excerpt(str(answer.typed)), "tokens": ", ".join(problem.tokens)}, answer.where))
            return None
        return (answer.typed,)
    if stage == "kept" and answer.typed is not None:
        typed = dict(answer.typed)  # type: ignore[arg-type]
        unknown = [token for token in typed if token not in problem.tokens]
        for token in unknown:
            findings.append(Finding("grade.unknown_token", {"item": item, "token": excerpt(token), "tokens": ", ".join(problem.tokens)}, answer.where))
        return None if unknown else sampling.kept_cells(problem, typed)  # type: ignore[arg-type]
    if answer.values is None:
        return None
    expected = sampling.cell_count(problem, stage)
    if len(answer.values) != expected:
        findings.append(Finding("grade.wrong_count", {"item": item, "given": len(answer.values), "expected": expected}, answer.where))
        return None
    return answer.values
