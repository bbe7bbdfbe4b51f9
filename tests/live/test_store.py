"""The live session's store, on SQLite and on PostgreSQL: what a teacher and a student would notice.

Joining and rejoining, an answer kept and acknowledged once however often it is sent, the
class map and the scores over each student's latest answers, the controls, a session
resumed as it was, the change number the teacher's map waits on, and the session read
back as answer files for ``grade``.
"""

from __future__ import annotations

import threading

import pytest

from attn_tutor.problems.load import load_problem_set, load_text
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import LiveError, Mark

CH13 = load_problem_set("ch13")
FIRST = CH13.problems[0].id  # cat-fish


@pytest.fixture
def store(live_store_url):
    with open_store(live_store_url, CH13, create=True) as opened:
        yield opened


def test_a_new_session_names_its_set_and_starts_in_practice_with_every_problem_open(store):
    session = store.session()
    assert session.title == CH13.title and session.set_ref == "ch13"
    assert session.mode == "practice"
    assert list(session.problems) == [problem.id for problem in CH13.problems] + ["#concepts"]  # (its concept items, together)
    assert all(state.open and not state.revealed for state in session.problems.values())


def test_the_same_device_rejoins_as_the_same_student_and_another_device_is_another(store):
    kim = store.join("김민지", "device-1")
    again = store.join("민지", "device-1")
    park = store.join("김민지", "device-2")
    assert again == kim
    assert park.id != kim.id and park.token != kim.token
    assert store.student(kim.token) == kim
    assert store.student("not a token") is None
    assert store.students().joined == 2


def test_an_answer_sent_twice_is_kept_once_and_acknowledged_with_the_first_mark(store):
    kim = store.join("김민지", "d")
    first = store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "c-1", Mark("correct", None, 1.0))
    again = store.save(kim.id, FIRST, "먹었다", "scores", "1 6 5", "c-1", Mark("wrong", "no_sqrt", 0.0))
    assert not first.resent and again.resent
    assert (again.verdict, again.diagnosis, again.points) == ("correct", None, 1.0)
    assert store.latest(kim.id)[FIRST, "먹었다", "scores"].text == "1 6 4"
    assert len(store.attempts(kim.id)) == 1


def test_every_attempt_is_kept_and_the_latest_counts(store):
    kim = store.join("김민지", "d")
    store.save(kim.id, FIRST, "먹었다", "scaled", "1 6 4", "c-1", Mark("wrong", "no_sqrt", 0.0))
    store.save(kim.id, FIRST, "먹었다", "scaled", "0.71 4.24 2.83", "c-2", Mark("correct", None, 1.0))
    assert [a[3] for a in store.attempts(kim.id)] == ["1 6 4", "0.71 4.24 2.83"]
    latest = store.latest(kim.id)[FIRST, "먹었다", "scaled"]
    assert (latest.text, latest.verdict, latest.client_id) == ("0.71 4.24 2.83", "correct", "c-2")
    assert store.counts() == {f"{FIRST}/먹었다/scaled": {"verdicts": {"correct": 1}, "diagnoses": {}}}


def test_the_map_counts_each_verdict_and_diagnosis_over_the_students_latest_answers(store):
    marks = [Mark("wrong", "no_sqrt", 0.0), Mark("wrong", "no_sqrt", 0.0), Mark("wrong", "divided_by_d", 0.0), Mark("correct", None, 1.0)]
    for n, mark in enumerate(marks):
        student = store.join(f"student {n}", f"device {n}")
        store.save(student.id, FIRST, "먹었다", "scaled", "x", f"c{n}", mark)
    item = store.counts()[f"{FIRST}/먹었다/scaled"]
    assert item == {"verdicts": {"wrong": 3, "correct": 1}, "diagnoses": {"no_sqrt": 2, "divided_by_d": 1}}
    roll = store.students()
    assert (roll.joined, roll.answered) == (4, 4)
    assert sorted(roll.scores.values()) == [0.0, 0.0, 0.0, 1.0]


def test_a_student_who_joined_but_did_not_answer_is_joined_not_answered(store):
    store.join("a", "1")
    kim = store.join("b", "2")
    store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "c", Mark("correct", None, 2.0))
    roll = store.students()
    assert (roll.joined, roll.answered, roll.scores) == (2, 1, {kim.id: 2.0})
    assert [(s.name, answered, points) for s, answered, points in store.roster()] == [("a", 0, 0.0), ("b", 1, 2.0)]


def test_the_map_and_roll_kept_as_answers_are_saved_equal_them_read_from_the_tables(tmp_path):
    """A SQLite file this server holds keeps the teacher's map and roll as it saves (no read of every
    answer per map): after students change their answers back and forth, concept choices among them,
    and join without answering, both are what the tables say, and the same again once reopened."""
    import random

    rng = random.Random(13)
    marks = [Mark("correct", None, 1.0), Mark("wrong", "no_sqrt", 0.0), Mark("wrong", "divided_by_d", 0.0),
             Mark("partial", None, 0.5), Mark("wrong", "A C", 0.0), Mark("correct", "B", 1 / 3)]  # fmt: skip
    items = [(FIRST, "먹었다", "scores"), (FIRST, "먹었다", "scaled"), (FIRST, "고양이가", "weights"), ("#concepts", "why-sqrt", "concept")]
    path = tmp_path / "class.sqlite"
    with open_store(str(path), CH13, create=True) as store:
        assert store.alone
        store.counts()  # the tally made while the session is empty, then kept
        students = [store.join(f"s{n}", f"device-{n:02d}") for n in range(12)]
        for n in range(400):
            student, item, mark = rng.choice(students[:10]), rng.choice(items), rng.choice(marks)
            store.save(student.id, *item, "x", f"c{n}", mark)
            if n % 50 == 0:
                store.save(student.id, *item, "resent", f"c{n}", Mark("wrong", "no_sqrt", 0.0))  # a resend changes nothing
        kept_map, kept_roster = store.counts(), store.roster()
        assert kept_map == store_map_from_tables(store) and kept_roster == store._roster_from_tables()
        assert [answered for _student, answered, _score in kept_roster][10:] == [0, 0]
        assert sum(sum(item["verdicts"].values()) for item in kept_map.values()) == sum(a for _s, a, _p in kept_roster)
    with open_store(str(path), CH13, create=True) as again:
        assert again.counts() == kept_map and again.roster() == kept_roster


def store_map_from_tables(store):
    from attn_tutor.sessions.store import class_map

    return class_map(store._groups_from_tables())


def test_the_controls_change_the_session_and_refuse_what_is_not_there(store):
    store.set_mode("exam")
    store.set_open(FIRST, False)
    store.set_revealed(FIRST, True)
    session = store.session()
    assert session.mode == "exam"
    assert (session.problems[FIRST].open, session.problems[FIRST].revealed) == (False, True)
    with pytest.raises(LiveError, match="no mode 'quiz'"):
        store.set_mode("quiz")
    with pytest.raises(LiveError, match="no problem 'nope'"):
        store.set_open("nope", True)


def test_every_save_join_and_control_raises_the_change_number(store):
    seen = [store.changes()]
    kim = store.join("김민지", "d")
    seen.append(store.changes())
    seen.append(store.save(kim.id, FIRST, "먹었다", "scores", "1", "c", Mark("wrong")).seq)
    store.set_mode("exam")
    seen.append(store.changes())
    assert seen == sorted(set(seen)), seen
    resent = store.save(kim.id, FIRST, "먹었다", "scores", "1", "c", Mark("wrong"))
    assert store.changes() == seen[-1] and resent.resent


def test_a_waiting_teacher_wakes_on_a_save_from_another_thread(store):
    kim = store.join("김민지", "d")
    before = store.changes()
    assert store.wait_change(before, 0) == before  # nothing new: back at once with the same number
    saved = threading.Event()

    def answer():
        store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "c", Mark("correct", None, 1))
        saved.set()

    thread = threading.Thread(target=answer)
    thread.start()
    woke = store.wait_change(before, 60)
    thread.join()
    assert woke > before and saved.is_set()


def test_a_session_reopened_is_resumed_with_everything_in_it(live_store_url):
    with open_store(live_store_url, CH13, create=True) as store:
        kim = store.join("김민지", "d")
        store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "c", Mark("correct", None, 1))
        store.set_mode("exam")
        created, seq = store.session().created, store.changes()
    with open_store(live_store_url, CH13, create=True) as store:
        assert store.session().mode == "exam" and store.session().created == created
        assert store.student(kim.token) == kim
        assert store.latest(kim.id)[FIRST, "먹었다", "scores"].text == "1 6 4"
        assert store.changes() >= seq
        assert store.join("박서준", "e").id != kim.id


def test_a_session_of_another_set_is_refused_not_started_afresh(live_store_url):
    with open_store(live_store_url, CH13, create=True) as store:
        store.join("김민지", "d")
    other = load_text("problems:\n  - id: tiny\n    tokens: [a, b]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n")
    with pytest.raises(LiveError) as raised:
        open_store(live_store_url, other, create=True)
    assert "made for another problem set (13장" in str(raised.value) and raised.value.exit_code == 1
    with open_store(live_store_url, CH13, create=False) as store:  # and it is still there, untouched
        assert store.students().joined == 1


def test_a_set_with_only_its_comments_changed_is_the_same_set(live_store_url, tmp_path):
    text = "problems:\n  - id: tiny\n    tokens: [a, b]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n"
    open_store(live_store_url, load_text(text), create=True).close()
    open_store(live_store_url, load_text("# a comment\n\n" + text), create=True).close()
    with pytest.raises(LiveError, match="another problem set"):
        open_store(live_store_url, load_text(text.replace("[0, 1]]\n", "[0, 2]]\n")), create=True)


def test_answer_files_hold_each_students_last_typed_text_in_the_set_order(store):
    kim = store.join("김민지", "1")
    store.join("nobody", "2")
    park = store.join("박서준", "3")
    second = CH13.problems[1].id
    store.save(park.id, second, CH13.problems[1].rows[0], "weights", "0.1 0.9", "a", Mark("wrong"))
    store.save(park.id, FIRST, "먹었다", "output", "0.2 0.9", "b", Mark("wrong"))
    store.save(park.id, FIRST, "먹었다", "scores", "1 6 4", "c", Mark("correct"))
    store.save(kim.id, FIRST, "먹었다", "scores", "1 6 3", "d", Mark("wrong"))
    store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "e", Mark("correct"))
    found = list(store.answer_files())
    assert [name for name, _ in found] == ["김민지", "박서준"]  # in order of joining; who typed nothing hands in nothing
    assert found[0][1] == {"student": "김민지", "problem_set": "ch13", "answers": {FIRST: {"먹었다": {"scores": "1 6 4"}}}}
    park_answers = found[1][1]["answers"]
    assert list(park_answers) == [FIRST, second]
    assert list(park_answers[FIRST]["먹었다"]) == ["scores", "output"]


ANSWERER = """
import sys
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import Mark
from attn_tutor.problems.load import load_problem_set
store = open_store(sys.argv[1], load_problem_set("ch13"), create=False)
kim = store.join("김민지", "device")
for line in sys.stdin:  # one answer for each line the test sends
    saved = store.save(kim.id, "cat-fish", "먹었다", "scores", line.strip(), line.strip(), Mark("wrong"))
    print(saved.seq, flush=True)
"""


@pytest.mark.postgresql
def test_a_save_in_another_process_wakes_this_ones_waiting_teacher_on_postgresql(live_pg_url):
    """Two store objects in two processes (two --workers): the change the other commits reaches this
    one by NOTIFY, not by this one reading the database again."""
    import subprocess
    import sys

    from attn_tutor.sessions.store import Store

    with open_store(live_pg_url, CH13, create=True) as store:
        before = store.wait_change(store.changes(), 0)  # listening from here on
        other = subprocess.Popen(
            [sys.executable, "-c", ANSWERER, live_pg_url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            other.stdin.write("1 6 4\n")
            other.stdin.flush()
            theirs = int(other.stdout.readline())
            woke = Store.wait_change(store, theirs - 1, 60)  # the in-process wait alone: only a NOTIFY raises it
            assert woke >= theirs > before
            assert store.counts()["cat-fish/먹었다/scores"]["verdicts"] == {"wrong": 1}
        finally:
            other.stdin.close()
            other.wait(60)
            other.stdout.close()


@pytest.mark.postgresql
def test_a_save_after_postgresql_dropped_every_connection_is_kept_at_once(live_pg_url):
    """The database restarted (its connections cut, here by pg_terminate_backend): the next answer
    is saved on a fresh connection, not refused once for each connection the store held."""
    import psycopg

    with open_store(live_pg_url, CH13, create=True) as store:
        kim = store.join("김민지", "d")
        store.save(kim.id, FIRST, "먹었다", "scores", "1 6 3", "before", Mark("wrong"))
        # this store's connections alone: another run's sessions on the same database are not this test's to cut
        pids = [conn.info.backend_pid for conn in list(store._pool.queue)]
        assert pids
        with psycopg.connect(live_pg_url, autocommit=True) as admin:
            cut = admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids]).fetchall()
        assert cut == [(True,)] * len(pids)
        saved = store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "after", Mark("correct", None, 1))
        assert not saved.resent
        assert store.latest(kim.id)[FIRST, "먹었다", "scores"].text == "1 6 4"
