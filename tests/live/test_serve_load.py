"""The load benchmark's short form: 50 simulated students answer all of ch13 against a real `serve`.

The same code as ``benchmarks/serve_load.py`` (which runs 500 and prints the timings): the
students join and send every asked stage of every asked row, most right and some with a known
mistake; then ten more join, and when half of their answers are acknowledged the server is
killed (SIGKILL) and started again on the same database, and they resend what was not
acknowledged. Every student holds the students' event stream open (``--streams``), as the teacher
holds the map's. Checked here is what a teacher would notice, never a time: every answer
acknowledged, marked by the server as planned (a right row correct, a mistake named by its
code), every planned mistake on the teacher's map, the last map counting every student's every
answer, every student's stream open, and no acknowledged answer missing after the crash. On
SQLite and on PostgreSQL with two workers (``live_store_url``, tests/live/conftest.py).
"""

from __future__ import annotations

import math

from helpers.benchmarks import load_benchmark


def test_fifty_students_answer_everything_and_a_crash_loses_nothing(live_store_url):
    bench = load_benchmark("serve_load")
    # no time is checked: the window paces the students, and a loaded machine may take the grace to finish
    workers = 2 if live_store_url.startswith("postgresql") else 1  # the hosted case: one listener a worker
    result = bench.run(students=50, window=5.0, grace=600.0, db=live_store_url, wrong_share=0.3, seed=7, streams=True, workers=workers)
    assert result.errors == []
    assert result.streams == result.streams_open == 50  # every student's page had the session's state from its stream
    assert result.acknowledged == result.submissions == 50 * 50  # ch13 asks 50 stages in all
    assert result.unexpected == []  # the server marked each answer as planned
    assert result.diagnoses_planned >= 8 and result.diagnoses_on_map == result.diagnoses_planned
    assert not math.isinf(result.map_lag_s)  # every acknowledged answer reached the teacher's map
    assert result.last_counts == {item: 50 for item in result.last_counts} and len(result.last_counts) == 50  # and the last map has them all
    assert result.killed_after is not None and result.killed_after < result.crash_students * 50  # killed mid-run
    assert result.crash_acknowledged == result.crash_students * 50
    assert result.resent_after_restart > 0  # some were sent while the server was down, and kept
    assert result.missing == []
