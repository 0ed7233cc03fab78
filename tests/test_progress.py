"""The grade run's progress line: a pure format, redrawn on a terminal, plain lines in a log."""

from __future__ import annotations

import io

from autograder.progress import ProgressLine, format_progress


def test_the_line_says_done_of_total_rate_and_time_left():
    assert format_progress(5, 20, 10.0) == "grading 5/20 [######------------------] 25% · 0.5 students/s · ETA 0:30"


def test_nothing_done_has_no_rate_to_guess_from():
    assert format_progress(0, 8, 3.0, bar=False) == "grading 0/8 0%"


def test_a_finished_run_says_how_long_it_took_and_long_runs_show_hours():
    assert format_progress(4, 4, 75.0, bar=False) == "grading 4/4 100% · 0.1 students/s · took 1:15"
    assert format_progress(1, 1001, 4.0, bar=False).endswith("ETA 1:06:40")


def test_out_of_range_counts_are_clamped_not_shown_beyond_the_total():
    assert format_progress(7, 5, 1.0, bar=False).startswith("grading 5/5 100%")
    assert format_progress(0, 0, 0.0, bar=False) == "grading 0/0 100%"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_log_gets_one_plain_line_per_tenth_of_a_large_class():
    stream, clock = io.StringIO(), Clock()
    line = ProgressLine(100, stream, tty=False, clock=clock)
    for _ in range(100):
        clock.now += 0.5
        line.done("ada: 3/4")
    line.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10 and lines[0].startswith("grading 10/100 10% · 2.0 students/s · ETA 0:45")
    assert lines[-1] == "grading 100/100 100% · 2.0 students/s · took 0:50 · last: ada: 3/4"
    assert "\r" not in stream.getvalue()


def test_a_small_class_logs_every_student():
    stream = io.StringIO()
    line = ProgressLine(3, stream, tty=False, clock=Clock())
    for _ in range(3):
        line.done()
    assert [row.split(" ")[1] for row in stream.getvalue().splitlines()] == ["1/3", "2/3", "3/3"]


def test_a_terminal_redraws_one_line_in_place_at_most_ten_times_a_second():
    stream, clock = io.StringIO(), Clock()
    line = ProgressLine(50, stream, tty=True, clock=clock)
    for _ in range(50):
        clock.now += 0.02  # a second in all: about ten redraws and the last one
        line.done()
    line.close()
    text = stream.getvalue()
    assert 5 <= text.count("\r\x1b[2K") <= 11 and text.endswith("grading 50/50 [########################] 100% · "
                                                                "50.0 students/s · took 0:01\n")
    assert text.count("\n") == 1
