"""Plots in the HTML report: public inputs only, expected values from the spec, the student's values as returned."""

from __future__ import annotations

import math

import pytest

from autograder.figures import Curve, PlotSpec, record_all
from autograder.model import exercise_result, student_result
from autograder.plotdata import Plot, Series
from autograder.problems import SandboxFailed, StudentRaised
from autograder.plotview import plot_view
from autograder.release import strip_hidden
from autograder.render.documents import render_html, render_markdown
from autograder.render.terminal import render_terminal
from autograder.runner import grade_one
from autograder.view import report_view
from conftest import COURSE, GRADERS, ROOT, settings

OFF_BY_ONE = "def scalar_gradient_chain(depth, layer_scale):\n    return float(layer_scale ** (depth + 1))\n"
NO_SKIP_DEFAULT = ("def residual_chain_gradient(depth, block_slope, residual=True):\n"
                   "    return float((1 + block_slope) ** depth)\n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plots")
    (folder / "scalar_chain.py").write_text(OFF_BY_ONE)
    (folder / "residual.py").write_text(NO_SKIP_DEFAULT)
    student = grade_one("plotted", folder, settings(only_submitted=True))
    return {e.name: e for e in student.exercises}


def series(plot: Plot, role: str, label: str) -> Series:
    return next(s for s in plot.series if s.role == role and s.label.endswith(label))


def test_the_plot_shows_the_students_values_against_the_spec(graded):
    [plot] = graded["scalar_chain"].plots
    expected, yours = series(plot, "expected", "slope 0.25"), series(plot, "student", "slope 0.25")
    assert expected.x == yours.x == tuple(float(d) for d in range(11))
    assert expected.y == tuple(0.25 ** d for d in range(11))
    assert yours.y == tuple(0.25 ** (d + 1) for d in range(11))  # the off-by-one, visible at once


def test_with_and_without_skips_are_both_drawn(graded):
    [plot] = graded["residual"].plots
    assert series(plot, "student", "with skip connections").y == tuple(1.025 ** d for d in range(11))
    assert series(plot, "student", "without").y == tuple(1.025 ** d for d in range(11))  # ignores residual=False
    assert series(plot, "expected", "without").y[10] == pytest.approx(0.025 ** 10)


def test_plots_survive_the_release_so_they_use_public_inputs_only():
    declared = 0
    for exercise in COURSE:
        source = (GRADERS / f"test_{exercise.name}.py").read_text()
        public, _hidden = strip_hidden(source)  # raises if PLOTS leaned on a hidden helper
        namespace: dict = {"__name__": f"public_{exercise.name}"}
        exec(compile(public, exercise.name, "exec"), namespace)  # noqa: S102  the kit's own grader
        plots = namespace.get("PLOTS", ())
        assert all(isinstance(p, PlotSpec) for p in plots)
        declared += len(plots)
        for spec in plots:
            for curve in spec.curves:
                assert len(curve.x) == len(curve.expected) and all(math.isfinite(v) for v in curve.expected)
    assert declared == 4  # scalar_chain, residual, matrix_norms and clipping


def test_values_a_log_scale_cannot_place_sit_on_the_bottom_edge():
    plot = Plot("t", "x", "y", False, True, (Series("expected, a", "expected", (0.0, 1.0, 2.0), (1.0, 0.1, 0.01)),
                                             Series("yours, a", "student", (0.0, 1.0, 2.0), (1.0, -0.5, None))))
    view = plot_view(plot)
    off = [m for m in view.markers if m.off_chart]
    assert len(off) == 2 and all(m.y == view.bottom for m in off)
    assert "2 of your values" in view.note
    on = next(m for m in view.markers if not m.off_chart)
    assert view.bottom > on.y >= 0  # 1.0 is the top of a 0.01..1 log axis


def test_only_the_html_report_draws_plots(graded):
    student = student_result("plotted", tuple(graded.values()))
    view = report_view(student, 1, "process")
    html = render_html(view, ROOT / "templates")
    assert html.count("<svg") == 2 and "Gradient against depth" in html
    assert "<svg" not in render_markdown(view, ROOT / "templates") and "polyline" not in render_terminal(view)


def test_a_hanging_function_is_not_called_again_to_draw_it(tmp_path):
    (tmp_path / "scalar_chain.py").write_text("def scalar_gradient_chain(depth, layer_scale):\n    while True:\n        pass\n")
    student = grade_one("hangs", tmp_path, settings(only_submitted=True, call_timeout=0.5))
    exercise = next(e for e in student.exercises if e.name == "scalar_chain")
    assert exercise.plots == () and any(c.status == "timeout" for c in exercise.tests)


class Failing:
    """A student module whose every call fails with ``problem``; counts the calls made."""

    def __init__(self, problem: Exception) -> None:
        self.problem, self.calls = problem, 0

    def call(self, function, *args, **kwargs):
        self.calls += 1
        raise self.problem


SPEC = PlotSpec("g", "f", "x", "y", (Curve("c", tuple(((n,), {}) for n in range(3)), (0, 1, 2), (1.0, 1.0, 1.0)),))


def test_a_sandbox_that_fails_while_drawing_draws_nothing_and_blames_no_call():
    """The host's failure is never a note on the student's call."""
    student = Failing(SandboxFailed("bwrap: Can't fork"))
    assert record_all((SPEC,), student) == () and student.calls == 1


def test_a_call_that_raises_while_drawing_is_a_note_and_the_rest_are_drawn():
    student = Failing(StudentRaised("ValueError: no"))
    drawn = record_all((SPEC,), student)
    assert len(drawn) == 1 and student.calls == 3 and "f(0): " in drawn[0].note


def test_plots_roundtrip_through_results_json():
    import json

    from autograder.model import BatchResult, batch_from_dict
    from autograder.render.tables import render_json
    plot = Plot("t", "x", "y", True, True, (Series("yours, a", "student", (1.0,), (None,)),), (("max_norm", 1.0),), "n")
    exercise = exercise_result("clipping", "C", (), plots=(plot,))
    batch = BatchResult(1, "process", (student_result("a", (exercise,)),))
    assert batch_from_dict(json.loads(render_json(batch))) == batch


REMEMBERS_HIDDEN_INPUTS = (
    "SEEN = []\n"
    "def residual_chain_gradient(depth, block_slope, residual=True):\n"
    "    SEEN.append(block_slope)\n"
    "    random = [s for s in SEEN if abs(s * 1000 - round(s * 1000)) > 1e-9]  # not a public literal\n"
    "    if random:  # a worker that has graded the hidden checks: answer with one of their inputs\n"
    "        return float(1000 + abs(random[len(SEEN) % len(random)]))\n"
    "    return float((1 + block_slope) ** depth if residual else block_slope ** depth)\n")


def test_plot_calls_run_in_a_fresh_worker_that_has_seen_no_hidden_input(tmp_path):
    # A worker that graded the hidden checks could answer the public plot calls with their inputs,
    # and the report would draw them.
    (tmp_path / "residual.py").write_text(REMEMBERS_HIDDEN_INPUTS)
    student = grade_one("remembers", tmp_path, settings(only_submitted=True))
    [plot] = next(e for e in student.exercises if e.name == "residual").plots
    drawn = [y for s in plot.series if s.role == "student" for y in s.y]
    assert drawn and all(y is not None and y < 1000 for y in drawn), drawn
