"""A live session as a source of ``grade``: each student who answered, as the text of the answer
file holding what they typed last, marked as that file would be (:func:`session_documents`)."""

from __future__ import annotations

import json

from attn_tutor.core.errors import AttnTutorError, Location
from attn_tutor.gradebook.records import Document
from attn_tutor.problems.choice import teacher_choice
from attn_tutor.problems.load import load_problem_set, packaged_sets
from attn_tutor.sessions.opening import is_postgres, open_store
from attn_tutor.sessions.practice import Practice
from attn_tutor.sessions.store import LiveError, fingerprint


def is_session_target(target: str) -> bool:
    """Whether ``grade`` reads ``target`` as a live session: a ``postgresql://`` URL, or a path ending
    ``.sqlite`` or ``.sqlite3`` (whatever is in it: a file there that is no session is said to be none)."""
    return is_postgres(target) or target.lower().endswith((".sqlite", ".sqlite3"))


def session_documents(target: str, problems: str | None = None, *, include_practice: bool = False) -> list[Document]:
    """Each student who answered in the session at ``target``, in order of joining, as the text of the
    answer file holding the answers they typed last (see :meth:`Store.answer_files`): ``grade`` marks
    them as it marks that file. Read-only (a session still being served may be graded). The set the
    session names must still be the set it was made for (its fingerprint), or it is said. ``problems``
    (``grade --problems``): when it is the session's set by content (its fingerprint: the set moved or
    copied, as docs/live.md has teachers do), the documents name it, so it marks them as their own set.
    ``include_practice`` (``grade --include-practice``): then also each "another like this" variant a
    student answered, as one more answer file of theirs with that ``variant:`` (:meth:`attn_tutor.sessions.practice.Practice.files`);
    never without it."""
    with open_store(target, None, create=False, readonly=True) as store:
        session = store.session()
        named = _same_by_content(problems, session.fingerprint)
        if named is None:
            try:
                current = load_problem_set(session.set_ref)
            except AttnTutorError as error:  # broken: the grader says so of each student (or --problems stands in)
                if problems is None and error.problems[0].key in ("problems.not_found", "problems.no_such_set"):  # gone: said once
                    raise LiveError("live.store.set_gone", Location(store.where), set=session.set_ref) from None
                current = None
            if current is not None and fingerprint(current) != session.fingerprint:
                raise LiveError("live.store.changed_set", Location(store.where), set=session.set_ref)
        where = store.where
        found = [
            Document(f"{where}#{number}", answer_file_text({**answers, "problem_set": named or answers["problem_set"]}), name)
            for number, (name, answers) in enumerate(store.answer_files(), start=1)
        ]
        if include_practice:
            found += [
                Document(f"{where}#practice-{number}", answer_file_text({**answers, "problem_set": named or answers["problem_set"]}), name)
                for number, (name, answers) in enumerate(Practice(store).files(), start=1)
            ]
        return found


def session_students(target: str) -> dict[str, int]:
    """Each of :func:`session_documents`' documents of the set's own answers (its ``file``) -> the
    session's id of its student: the students who answered, in order of joining, as they are numbered
    there (``grade --lti-roster`` knows each by the LMS account that launched as them). Read-only."""
    with open_store(target, None, create=False, readonly=True) as store:
        answered = [student.id for student, count, _score in store.roster() if count]  # as answer_files: any latest answer
        return {f"{store.where}#{number}": student for number, student in enumerate(answered, start=1)}


def session_rounds(target: str) -> list[dict]:
    """Each round of each item the teacher asked again in the session at ``target`` (read-only): the item
    (``problem/row`` or ``concepts/<id>``), the round (1: the answers before it was first asked again),
    the variant's seed (None: the set's own numbers), and each student's answers of that round with the
    server's marks (:meth:`Store.round_report`), each round naming its session."""
    with open_store(target, None, create=False, readonly=True) as store:
        return [{"session": store.where, **one} for one in store.round_report()]


def _same_by_content(problems: str | None, made_for: str) -> str | None:
    """The ``--problems`` set as the grader resolves it (a packaged name, or its file's real path) when it
    marks as the set the session was made for (the same fingerprint), else None."""
    if problems is None:
        return None
    choice = teacher_choice(problems, packaged_sets())
    try:
        loaded = load_problem_set(problems)
    except AttnTutorError:  # the grader says why, once
        return None
    return choice.key if choice.key is not None and fingerprint(loaded) == made_for else None


def answer_file_text(answers: dict) -> str:
    """An answer file's YAML for ``answers`` (:meth:`Store.answer_files`' shape): every name and text a
    double-quoted scalar, so whatever a student typed is read back as that string. A sampling problem's
    stages (its row ``""``) stand directly under its id, as an answer file writes them: the pick a token,
    ``kept`` the row typed (0 for a token cut)."""
    lines = [f"student: {_quoted(answers['student'])}", f"problem_set: {_quoted(answers['problem_set'])}"]
    if answers.get("variant") is not None:  # "another like this": the variant's seed, as a sheet's
        lines.append(f"variant: {int(answers['variant'])}")
    lines.append("answers:")
    for problem, rows in answers["answers"].items():
        lines.append(f"  {_quoted(problem)}:")
        for row, stages in rows.items():
            if row == "":  # a sampling problem's stages, straight under its id (it has no rows)
                lines.extend(f"    {_quoted(stage)}: {_quoted(text)}" for stage, text in stages.items())
                continue
            lines.append(f"    {_quoted(row)}:")
            lines.extend(f"      {_quoted(stage)}: {_quoted(text)}" for stage, text in stages.items())
    if not answers["answers"]:
        lines[-1] = "answers: {}"
    if answers.get("concepts"):
        lines.append("concepts:")
        lines.extend(f"  {_quoted(concept)}: {_quoted(text)}" for concept, text in answers["concepts"].items())
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: JSON's escapes are YAML's (every control character escaped)."""
    return json.dumps(text, ensure_ascii=False)
