"""A pure function on untrusted text in a forked child: its answer, or why there is none (a
pattern that never ends, memory, an exception, a child that dies), with where it was."""

from __future__ import annotations

import os
import re

from workbench.headless.bounded_call import run_bounded, run_bounded_each


def test_the_answer_comes_back_as_json():
    outcome = run_bounded(lambda progress: {"a": [1, None, "ü"]}, 10)
    assert outcome.failure is None and outcome.value == {"a": [1, None, "ü"]}


def test_a_backtracking_pattern_is_stopped_at_the_sample_it_was_on():
    def job(progress):
        for i, text in enumerate(["aaa", "a" * 60 + "b"]):
            progress(f"prediction {i}")
            re.match(r"^(a+)+$", text)
        return "done"

    outcome = run_bounded(job, 1.0)
    assert outcome.failure == "ran past 1 s" and outcome.last_progress == "prediction 1"


def test_memory_past_the_limit_is_a_failure_not_a_crash():
    def job(progress):
        progress("hog")
        return len(bytearray(4 * 1024**3))

    outcome = run_bounded(job, 30, memory_limit=256 * 1024**2)
    assert outcome.failure == "ran out of memory" and outcome.last_progress == "hog"


def test_an_exception_and_a_dead_child_are_said():
    def raises(progress):
        raise ValueError("bad")

    assert run_bounded(raises, 10).failure == "ValueError: bad"
    assert "without an answer" in run_bounded(lambda progress: os._exit(9), 10).failure


def test_a_large_answer_arrives_whole():
    text = "x" * (3 * 1024**2) + "\n" + "P" * 100
    assert run_bounded(lambda progress: text, 30).value == text


def test_jobs_run_in_one_child_and_a_runaway_job_fails_alone():

    def hangs():
        re.match(r"^(a+)+$", "a" * 60 + "b")

    jobs = [os.getpid, lambda: 1 / 0, hangs, os.getpid, lambda: os._exit(9), os.getpid]
    outcomes = run_bounded_each(jobs, 1.0)
    pids = [outcomes[i].value for i in (0, 3, 5)]
    assert outcomes[1].failure == "ZeroDivisionError: division by zero"
    assert outcomes[2].failure == "ran past 1 s"
    assert "without an answer" in outcomes[4].failure
    # the first two jobs shared a child; after the runaway a new one went on, and after the death another
    assert len(set(pids)) == 3 and os.getpid() not in pids
    assert [o.failure is None for o in outcomes] == [True, False, False, True, False, True]


def test_many_jobs_cost_one_child():
    outcomes = run_bounded_each([os.getpid] * 50, 10)
    assert len({o.value for o in outcomes}) == 1 and outcomes[0].value != os.getpid()


def test_a_large_answer_among_jobs_arrives_whole():
    text = "x" * (3 * 1024**2) + "\n" + "R" * 100
    assert [o.value for o in run_bounded_each([lambda: text, lambda: "after"], 30)] == [text, "after"]
