"""Diagnosis from the catalogue: every mistake is named, nothing else is, and nothing hidden shows."""

from __future__ import annotations

import json

from pathlib import Path

import numpy as np
import pytest

from autograder.catalogue import compose
from autograder.diagnose import diagnose, same, select
from autograder.probes import Outcome, Probe
from autograder.runner import grade_batch
from conftest import MUTANTS, SOLUTIONS, VARIANTS, settings
from hint_scan import code_in

BY_KEY = {m.key: m for m in MUTANTS}


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.key for m in MUTANTS])
def test_every_mistake_has_a_title_a_sentence_and_a_hint_that_gives_no_code(mutant):
    assert mutant.title and not mutant.title.endswith("."), f"{mutant.path}: TITLE, a short name without a full stop"
    assert mutant.sentence.endswith("."), f"{mutant.path}: EXPLANATION, one sentence for the student"
    assert mutant.hint.endswith((".", "?")), f"{mutant.path}: HINT, pointing at the idea"
    assert code_in(mutant.hint) == [], f"{mutant.path}: the hint hands over code"
    assert all(f"{mutant.exercise}--{name}" in BY_KEY for name in mutant.same_as), f"{mutant.path}: SAME_AS names no mistake"


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.key for m in MUTANTS])
def test_every_mistake_graded_as_a_submission_is_diagnosed_by_its_name(validation, mutant):
    names = {mutant.name, *mutant.same_as}
    diagnosed = validation.diagnosed[mutant.key]
    assert diagnosed and all(d in names for d in diagnosed), f"diagnosed as {diagnosed}, expected one of {names}"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.key for v in VARIANTS])
def test_a_correct_variant_gets_no_diagnosis(validation, variant):
    assert validation.diagnosed[variant.key] and set(validation.diagnosed[variant.key]) == {""}


def test_two_mistakes_in_two_exercises_get_both_diagnoses_and_a_crash_gets_none(tmp_path):
    """One submission: two catalogued mistakes, and a third file whose function raises on every call."""
    folder = tmp_path / "student"
    folder.mkdir()
    for key in ("scalar_chain--off_by_one_depth", "residual--ignores_the_flag"):
        entry = BY_KEY[key]
        (folder / f"{entry.exercise}.py").write_text(
            compose((SOLUTIONS / f"{entry.exercise}.py").read_text(), entry.path.read_text()))
    (folder / "init_std.py").write_text("def init_std(kind, fan_in, fan_out):\n    raise RuntimeError('no')\n")
    (graded,) = grade_batch([("two", folder)], settings(only_submitted=True), jobs=1)
    found = {e.name: e.diagnosis.mistake if e.diagnosis else "" for e in graded.exercises if e.max_score}
    assert found == {"scalar_chain": "off_by_one_depth", "residual": "ignores_the_flag", "init_std": ""}
    diagnosis = next(e.diagnosis for e in graded.exercises if e.name == "scalar_chain")
    assert diagnosis.headline == ("Your function behaves exactly like a known mistake: "
                                  f"{BY_KEY['scalar_chain--off_by_one_depth'].title}.")


def test_what_the_spec_leaves_free_does_not_hide_a_mistake(tmp_path):
    """A result may hand its inputs back where it changes nothing, and a generator of the student's
    own moves rng as drawing from it does: neither keeps the mistake the code makes from being named."""
    folder = tmp_path / "student"
    folder.mkdir()
    for key, old, new in (("clipping--forgets_the_sqrt", "return [g.copy() for g in grads], norm", "return grads, norm"),
                          ("matrix_norms--global_numpy_random", "np.random.normal(",
                           "np.random.Generator(rng.bit_generator).normal(")):
        entry = BY_KEY[key]
        source = entry.path.read_text()
        assert old in source, key
        (folder / f"{entry.exercise}.py").write_text(
            compose((SOLUTIONS / f"{entry.exercise}.py").read_text(), source.replace(old, new)))
    (graded,) = grade_batch([("free", folder)], settings(only_submitted=True), jobs=1)
    found = {e.name: e.diagnosis.mistake if e.diagnosis else "" for e in graded.exercises if e.max_score}
    assert found == {"clipping": "forgets_the_sqrt", "matrix_norms": "global_numpy_random"}


def _probes(outcome_of, calls, hidden=False):
    return [Probe("test_x", hidden, "scalar_gradient_chain", args, {}, False, Outcome(value=outcome_of(*args)))
            for args in calls]


def _catalogue(tmp_path: Path, names: dict[str, str]) -> Path:
    """A one-exercise catalogue: name -> the body of scalar_gradient_chain."""
    folder = tmp_path / "catalogue" / "scalar_chain" / "mistakes"
    folder.mkdir(parents=True)
    for name, body in names.items():
        (folder / f"{name}.py").write_text(
            f'"""A test entry."""\n\nKILLED_BY = ("test_x",)\nTITLE = "{name}"\nEXPLANATION = "It does {name}."\n'
            f'HINT = "Think."\n\n\ndef scalar_gradient_chain(depth, layer_scale):\n    {body}\n')
    return tmp_path / "catalogue"


HIDDEN_CALLS = [(987654 % 7 + d, 0.123456789) for d in range(8)]


def test_hidden_inputs_never_appear_in_a_diagnosis(tmp_path):
    catalogue = _catalogue(tmp_path, {"one_too_few": "return float(layer_scale) ** (depth - 1)"})
    probes = _probes(lambda d, s: float(s) ** (d - 1), HIDDEN_CALLS, hidden=True)
    found = diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS)
    assert found is not None and found.mistake == "one_too_few"
    text = " ".join((found.headline, found.explanation, found.hint))
    for depth, scale in HIDDEN_CALLS:
        for value in (repr(scale), repr(float(scale) ** (depth - 1)), "0.1234"):
            assert value not in text


def test_which_hidden_calls_became_probes_changes_nothing_a_student_reads(tmp_path):
    """A worker decides which of its calls are kept as probes (a reply too large to keep is
    dropped): a red team kept the first k calls of a hidden check, k read off a hidden input, and
    read k back from the count of probes the diagnosis showed."""
    catalogue = _catalogue(tmp_path, {"one_too_few": "return float(layer_scale) ** (depth - 1)"})
    public = _probes(lambda d, s: float(s) ** (d - 1), [(3, 0.5), (4, 0.5), (5, 2.0), (6, 2.0), (7, 3.0)])
    hidden = _probes(lambda d, s: float(s) ** (d - 1), HIDDEN_CALLS, hidden=True)
    found = [diagnose("scalar_chain", public + hidden[:kept], {"test_x"}, catalogue, SOLUTIONS)
             for kept in (0, 2, 5, 8)]
    assert found[0] is not None and found[0].mistake == "one_too_few"
    assert found == [found[0]] * 4
    assert json.dumps(found[0].__dict__) == json.dumps(found[3].__dict__)


def test_two_mistakes_that_match_equally_give_no_diagnosis(tmp_path):
    catalogue = _catalogue(tmp_path, {"first": "return float(layer_scale) ** (depth - 1)",
                                      "second": "return float(layer_scale) ** (depth - 1) + 0.0"})
    probes = _probes(lambda d, s: float(s) ** (d - 1), HIDDEN_CALLS)
    assert diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS) is None


def test_no_diagnosis_from_too_few_probes_or_checks_that_passed(tmp_path):
    catalogue = _catalogue(tmp_path, {"one_too_few": "return float(layer_scale) ** (depth - 1)"})
    probes = _probes(lambda d, s: float(s) ** (d - 1), HIDDEN_CALLS)
    assert diagnose("scalar_chain", probes[:4], {"test_x"}, catalogue, SOLUTIONS) is None
    assert diagnose("scalar_chain", probes, {"test_other"}, catalogue, SOLUTIONS) is None


def test_a_student_that_differs_on_one_probe_is_not_diagnosed(tmp_path):
    catalogue = _catalogue(tmp_path, {"one_too_few": "return float(layer_scale) ** (depth - 1)"})
    probes = _probes(lambda d, s: float(s) ** (d - 1) if d < 5 else 0.0, HIDDEN_CALLS)
    assert diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS) is None


def test_no_mistake_is_named_where_every_answer_is_the_references(tmp_path):
    """A correct function that lost its points to timeouts: the answers it did give are all right,
    and a mistake that only differs elsewhere (at a zero) agrees with every one of them."""
    catalogue = _catalogue(tmp_path, {"zero_unsigned": "return float(layer_scale) ** depth + 0.0"})
    probes = _probes(lambda d, s: float(s) ** d, HIDDEN_CALLS)
    assert diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS) is None
    # The same mistake, once an answer shows it (a negative zero lost), is named.
    signed = _probes(lambda d, s: float(s) ** d + 0.0, [*HIDDEN_CALLS, (3, -0.0)])
    found = diagnose("scalar_chain", signed, {"test_x"}, catalogue, SOLUTIONS)
    assert found is not None and found.mistake == "zero_unsigned"


def test_a_mistake_no_closer_to_the_student_than_the_reference_is_not_named(tmp_path):
    """A student whose only wrong answer is a zero of the wrong sign (an early 0.0 for a tiny
    negative scale at an odd depth): a mistake that answers like the reference there is exactly as
    close to the student as the reference is, on every probe, and is not named; one that drops the
    zero's sign as the student did is."""
    catalogue = _catalogue(tmp_path, {"loops_near_one": "return float(layer_scale) ** depth if abs(abs(layer_scale) - 1) "
                                                        ">= 1e-6 else layer_scale ** depth"})
    student = [*HIDDEN_CALLS, (1575, -2.2250738585e-313)]
    probes = _probes(lambda d, s: 0.0 if abs(s) < 1e-10 and d > 20 else float(s) ** d, student)
    assert diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS) is None
    catalogue = _catalogue(tmp_path / "two", {"zero_unsigned": "return float(layer_scale) ** depth + 0.0"})
    found = diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS)
    assert found is not None and found.mistake == "zero_unsigned"


def test_the_call_a_failed_check_stopped_at_is_always_among_the_probes_compared(tmp_path):
    """Past the bound on probes, a mistake that agrees with every earlier answer but not with the
    one the check failed on is not named."""
    catalogue = _catalogue(tmp_path, {"one_too_few": "return float(layer_scale) ** (depth - 1)"})

    def probe(check, depth, value):
        return Probe(check, False, "scalar_gradient_chain", (depth, 0.5), {}, False, Outcome(value=value))
    long_passed = [probe("test_long", d, 0.5 ** (d - 1)) for d in range(1, 301)]
    failed = [probe("test_x", d, 0.5 ** (d - 1)) for d in range(1, 150)] + [probe("test_x", 150, 42.0)]
    assert diagnose("scalar_chain", long_passed + failed, {"test_x"}, catalogue, SOLUTIONS) is None
    chosen = select(long_passed + failed, {"test_x"})
    assert chosen[0] is failed[-1] and len(chosen) == 200
    # Without that last answer the mistake explains everything, and is named.
    found = diagnose("scalar_chain", long_passed + failed[:-1], {"test_x"}, catalogue, SOLUTIONS)
    assert found is not None and found.mistake == "one_too_few"


def test_the_bound_on_the_replay_is_its_cpu_time_not_the_wall_clock(tmp_path, monkeypatch):
    """A loaded machine (every core grading) stretches the wall clock, not the work: a mistake
    named on an idle machine is named there too."""
    catalogue = _catalogue(tmp_path, {"one_too_few": "__import__('time').sleep(0.1); return float(layer_scale) ** (depth - 1)"})
    probes = _probes(lambda d, s: float(s) ** (d - 1), HIDDEN_CALLS)
    monkeypatch.setattr("autograder.diagnose.SECONDS", 0.3)
    found = diagnose("scalar_chain", probes, {"test_x"}, catalogue, SOLUTIONS)
    assert found is not None and found.mistake == "one_too_few"


@pytest.mark.parametrize("key", ["scalar_chain--exactly_rounded_power", "scalar_chain--exact_power_for_deep_chains"])
def test_the_exact_power_entries_round_as_a_fraction_does(key):
    """Those entries compute the exact power the fast way (a Fraction takes a second a call at depth
    100,000, which ran the replay past its bound); they must still give a Fraction's bits, ties and
    underflow to zero included."""
    from fractions import Fraction
    import random
    namespace: dict = {}
    exec(BY_KEY[key].path.read_text(), namespace)
    function = namespace["scalar_gradient_chain"]
    draw = random.Random(5)
    cases = [(1075, 0.5), (1074, 0.5), (34, 0.0029296875), (34, -0.0029296875), (23, 0.625), (35, -3.0), (21, -0.0),
             (25, 1e-300), (1023, 2.0), (3000, 0.9999999), (2500, -1.0000003)]
    cases += [(draw.randint(21, 3000), draw.choice([1, -1]) * draw.uniform(0.5, 1.2)) for _ in range(300)]
    cases += [(draw.randint(21, 200), draw.choice([1, -1]) * draw.randint(1, 60) / draw.choice([8, 64, 1024]))
              for _ in range(300)]
    for depth, scale in cases:
        try:
            expected = float(Fraction(scale) ** depth)
        except OverflowError:
            with pytest.raises(OverflowError):
                function(depth, scale)
            continue
        got = function(depth, scale)
        assert same(got, expected) == "exact", (depth, scale, got, expected)


def test_the_comparison_minds_types_dtypes_and_the_last_bits():
    assert same(1.0, 1.0) == "exact" and same(1, 1.0) is False
    assert same(0.1 + 0.2, 0.3) == "close" and same(1.0, 1.001) is False
    assert same(float("nan"), float("nan")) == "exact"
    assert same(np.ones(3), np.ones(3, dtype=np.float32)) is False
    assert same(np.ones(3), np.ones(4)) is False
    assert same([1.0, 2.0], (1.0, 2.0)) is False
    assert same(-0.0, 0.0) == "close" and same(np.array([1.0, -0.0]), np.array([1.0, 0.0])) == "close"
    assert same(np.array([complex(1, -0.0)]), np.array([complex(1, 0.0)])) == "close"
    assert same(np.array([-0.0, np.nan]), np.array([-0.0, np.nan])) == "exact"



def test_a_diagnosis_leads_its_exercise_and_replaces_the_checks_hints_in_every_form():
    from dataclasses import replace as with_

    from autograder.model import CheckResult, Diagnosis, exercise_result, student_result
    from autograder.render.documents import render_html, render_markdown
    from autograder.render.terminal import render_terminal
    from autograder.view import report_view
    from conftest import ROOT

    checks = (CheckResult("test_a", "A.", 0.0, 1.0, "failed", "f(1) returned 2.0; expected 1.0.",
                          "A hint written for another cause."),
              CheckResult("test_b", "B.", 1.0, 1.0, "passed"))
    diagnosis = Diagnosis("off_by_one_depth", "one layer too few", "Your function counts one layer fewer.",
                          "Count the factors.")
    exercise = exercise_result("scalar_chain", "Chain", checks, diagnosis=diagnosis)
    view = report_view(student_result("ada", (exercise,)), 1, "process")
    shown = view.exercises[0]
    assert shown.diagnosis == "Your function behaves exactly like a known mistake: one layer too few."
    assert [c.hint for c in shown.checks] == ["", ""] and shown.checks[0].message  # the values still show
    forms = (render_terminal(view, width=200), render_markdown(view, ROOT / "templates"),
             render_html(view, ROOT / "templates"))
    for text in forms:
        assert "one layer too few" in text and "Count the factors." in text
        assert "A hint written for another cause." not in text
        assert text.index("one layer too few") < text.index("returned 2.0")
    undiagnosed = report_view(student_result("ada", (with_(exercise, diagnosis=None),)), 1, "process")
    assert undiagnosed.exercises[0].checks[0].hint == "A hint written for another cause."


def test_gradescope_says_the_diagnosis_once_and_drops_the_checks_hints():
    from autograder.gradescope import gradescope_results
    from autograder.model import CheckResult, Diagnosis, exercise_result, student_result

    check = CheckResult("test_a", "A.", 0.0, 1.0, "failed", "f(1) returned 2.0.", "A hint for another cause.")
    diagnosis = Diagnosis("off_by_one_depth", "one layer too few", "It counts one fewer.", "Count the factors.")
    student = student_result("ada", (exercise_result("scalar_chain", "Chain", (check,), diagnosis=diagnosis),))
    results = gradescope_results(student, 1, "process", 1.0)
    text = json.dumps(results)
    assert "one layer too few" in results["output"] and "Count the factors." in results["output"]
    assert "A hint for another cause." not in text and text.count("Count the factors.") == 1


def test_validate_reports_a_mistake_the_diagnosis_misses_and_a_variant_it_names():
    from autograder.render.validation import render_validation
    from autograder.validate import Validation

    mistake, variant = MUTANTS[0], VARIANTS[0]
    result = Validation((1,), (), {}, {}, (mistake,), (variant,), (),
                        {mistake.key: ("",), variant.key: (mistake.name,)})
    assert result.misdiagnosed() == [(mistake.key, ("",)), (variant.key, (mistake.name,))]
    text = render_validation(result)
    assert f"DIAGNOSIS: {mistake.key} was diagnosed as nothing" in text
    assert f"DIAGNOSIS: {variant.key} was diagnosed as {mistake.name}" in text
    fine = Validation((1,), (), {}, {}, (mistake,), (variant,), (), {mistake.key: (mistake.name,), variant.key: ("",)})
    assert fine.misdiagnosed() == [] and "DIAGNOSIS" not in render_validation(fine)


def test_a_results_file_written_when_diagnoses_carried_counts_still_reads():
    """An out/ graded before the counts were dropped is graded again with a late export, or
    compared with `diff`: its diagnoses' two numbers are read past, and nothing else unknown is."""
    from autograder.model import (BatchResult, CheckResult, Diagnosis, ResultsFormatError, batch_from_dict,
                                  exercise_result, student_result, to_dict)

    check = CheckResult("test_a", "A.", 0.0, 1.0, "failed", "f(1) returned 2.0.")
    diagnosis = Diagnosis("off_by_one_depth", "one layer too few", "It counts one fewer.", "Count the factors.")
    batch = BatchResult(1, "process", (student_result("ada", (exercise_result("scalar_chain", "Chain", (check,),
                                                                              diagnosis=diagnosis),)),))
    written = json.loads(json.dumps(to_dict(batch)))  # as results.json holds it
    written["students"][0]["exercises"][0]["diagnosis"].update(matched=12, probes=12)
    assert batch_from_dict(written).students[0].exercises[0].diagnosis == diagnosis
    written["students"][0]["exercises"][0]["diagnosis"]["seen"] = 1
    with pytest.raises(ResultsFormatError):
        batch_from_dict(written)
