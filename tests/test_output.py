"""Output folders: readable safe report names, umask modes, stored results read strictly, merges."""

from __future__ import annotations

import fcntl
import json
import os
import stat
import unicodedata
from dataclasses import replace

import pytest

from autograder.errors import GradeError
from autograder.model import BatchResult, CheckResult, ResultsFormatError, batch_from_dict, exercise_result, student_result
from autograder.names import name_key, report_stems
from autograder.files import write_atomic
from autograder.output import locked, write_batch
from autograder.render.tables import render_json
from autograder.stored import RunIdentity, check_mergeable, merge, read_stored
from conftest import ROOT

TEMPLATES = ROOT / "templates"
NFC = unicodedata.normalize("NFC", "Émile-Zoë")
NFD = unicodedata.normalize("NFD", "Émile-Zoë")


def student(student_id: str, score: float = 1.0):
    check = CheckResult("test_x", "X.", score, 2.0, "passed" if score == 2.0 else "failed")
    return student_result(student_id, (exercise_result("scalar_chain", "Scalar chain", (check,)),))


def batch(*ids: str, seed: int = 5) -> BatchResult:
    return BatchResult(seed, "process", tuple(student(i) for i in ids), "0.1.0", "2026-11-29T10:00:00+00:00",
                       call_timeout=3.0, memory_mb=1024)


def identity(isolation="process", version="0.1.0", exercises=("scalar_chain",), call_timeout=3.0, memory_mb=1024):
    return RunIdentity(isolation, version, exercises, call_timeout, memory_mb)


# Report names ---------------------------------------------------------------------------------

def test_readable_names_stay_as_they_are():
    ids = ["ada", "bo b", NFC, "Łukasz Żółć", "李雷", "o'brien"]
    assert report_stems(ids) == {i: i for i in ids}


def test_a_decomposed_name_is_stored_composed():
    assert report_stems([NFD]) == {NFD: NFC}


@pytest.mark.parametrize("pair", [("Ada", "ada"), (NFC, NFD), ("ÉMILE", "émile"), ("straße", "STRASSE")])
def test_names_one_disk_may_confuse_get_distinct_files(pair):
    stems = report_stems(pair)
    keys = {name_key(s) for s in stems.values()}
    assert len(keys) == 2
    for student_id, stem in stems.items():
        assert stem.startswith(unicodedata.normalize("NFC", student_id) + "-")


def test_a_name_does_not_depend_on_unrelated_classmates():
    assert report_stems(["ada", "bob", "Bob"])["ada"] == "ada"


HOSTILE = ["../etc/passwd", "a/b", "a\\b", ".hidden", "..", ".", "", " ", "CON", "con.txt", "Lpt1", "nul.",
           "tab\there", "line\nbreak", "bell\x07", "evil\u202egnp.html", "zero\u200bwidth", "a:b", 'q"uote',
           "star*", "trailing. ", "x" * 300, "é" * 200, "bad\udcffbyte"]


def test_hostile_names_become_safe_file_names():
    stems = report_stems(HOSTILE)
    reserved = {"CON", "PRN", "AUX", "NUL", *(f"{p}{n}" for p in ("COM", "LPT") for n in range(1, 10))}
    for student_id, stem in stems.items():
        assert stem and not stem.startswith(".") and not stem.endswith((".", " ")), repr(student_id)
        assert not set(stem) & set('/\\<>:"|?*'), repr(stem)
        assert all(unicodedata.category(c)[0] != "C" and (c == " " or not c.isspace()) for c in stem), repr(stem)
        assert stem.split(".")[0].upper() not in reserved, repr(stem)
        assert len(f"{stem}.html".encode("utf-8")) <= 200
        assert stem != student_id  # changed, so it carries a hash suffix ...
        assert stem[-9] == "-" and all(c in "0123456789abcdef" for c in stem[-8:])  # ... of 8 hex digits
    assert len({name_key(s) for s in stems.values()}) == len(HOSTILE)


def test_a_name_made_to_look_like_a_hashed_one_still_gets_its_own_file():
    stems = report_stems(["a/b"])
    mimic = stems["a/b"]  # an id spelled exactly like the hashed file name of another
    both = report_stems(["a/b", mimic, mimic.upper()])
    assert len({name_key(s) for s in both.values()}) == 3


# Modes ----------------------------------------------------------------------------------------

@pytest.fixture
def umask():
    previous = os.umask(0o022)
    yield lambda value: os.umask(value)
    os.umask(previous)


@pytest.mark.parametrize("mask, file_mode, folder_mode", [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700),
                                                          (0o002, 0o664, 0o775)])
def test_outputs_follow_the_umask(tmp_path, umask, mask, file_mode, folder_mode):
    umask(mask)
    out = tmp_path / "out"
    write_batch(batch("ada", NFC), out, TEMPLATES)
    written = [p for p in out.rglob("*")]
    assert {p.name for p in written} >= {"results.json", "gradebook.csv", "ada.html", f"{NFC}.md"}
    for path in [out, *written]:
        expected = folder_mode if path.is_dir() else file_mode
        assert stat.S_IMODE(path.stat().st_mode) == expected, path


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path, umask):
    target = tmp_path / "deep" / "er" / "file.txt"
    write_atomic(target, "one")
    write_atomic(target, "two")
    assert target.read_text() == "two" and os.listdir(target.parent) == ["file.txt"]
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o755


# Writing and merging --------------------------------------------------------------------------

def test_rewriting_a_class_removes_reports_left_under_old_names(tmp_path):
    out = tmp_path / "out"
    write_batch(batch("Ada"), out, TEMPLATES)
    (out / "reports" / "notes.txt").write_text("mine")
    assert sorted(os.listdir(out / "reports")) == ["Ada.html", "Ada.md", "notes.txt"]
    (out / "reports" / "ta_notes.md").write_text("a TA's notes, not a report of ours")
    write_batch(batch("Ada", "ada"), out, TEMPLATES, previous=batch("Ada"))
    names = sorted(os.listdir(out / "reports"))
    assert "Ada.html" not in names and "notes.txt" in names and "ta_notes.md" in names and len(names) == 6
    gradebook = (out / "gradebook.csv").read_text(encoding="utf-8").splitlines()
    linked = {line.rsplit(",", 1)[1] for line in gradebook[1:]}
    assert linked == {f"reports/{n}" for n in names if n.endswith(".html")} - {"reports/ta_notes.md"}


def test_a_rewritten_file_keeps_the_mode_its_owner_gave_it(tmp_path, umask):
    target = tmp_path / "gradebook.csv"
    write_atomic(target, "one")
    target.chmod(0o600)
    write_atomic(target, "two")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.read_text() == "two"


def test_merge_keeps_stored_students_and_replaces_regraded_ones():
    stored = batch("ben", "ada", "cy")
    regraded = [replace(student("ada", 2.0), graded="later"), student("dee")]
    merged = merge(stored, regraded, replace(stored, students=(), created="later"))
    assert [s.id for s in merged.students] == ["ada", "ben", "cy", "dee"]
    assert merged.students[0].score == 2.0 and merged.students[0].graded == "later"
    assert merged.students[1] == replace(stored.students[0], graded=stored.created)


def test_merge_into_nothing_is_the_run_itself():
    assert merge(None, [student("b"), student("a")], batch()).students == (student("a"), student("b"))


@pytest.mark.parametrize("seed, run, words", [
    (6, identity(), "seed 5, not 6"),
    (5, identity(isolation="bubblewrap"), "isolation process, not bubblewrap"),
    (5, identity(version="0.2.0"), "kit 0.1.0, not 0.2.0"),
    (5, identity(exercises=("scalar_chain", "clipping")), "other exercises"),
    (5, identity(call_timeout=1.0), "--timeout 3 --memory-mb 1024, not --timeout 1 --memory-mb 1024"),
    (5, identity(memory_mb=512), "not --timeout 3 --memory-mb 512"),
])
def test_a_folder_graded_on_other_terms_is_not_mixed_into(tmp_path, seed, run, words):
    with pytest.raises(GradeError, match=words) as caught:
        check_mergeable(batch("ada"), tmp_path, seed, run)
    assert "--fresh" in str(caught.value)
    check_mergeable(batch("ada"), tmp_path, 5, identity())


# Reading stored results -----------------------------------------------------------------------

def test_a_new_or_empty_folder_has_nothing_stored(tmp_path):
    assert read_stored(tmp_path / "new") is None
    assert read_stored(tmp_path) is None


def test_stored_results_read_back_as_written(tmp_path):
    write_batch(batch("ada", NFC), tmp_path, TEMPLATES)
    assert read_stored(tmp_path) == batch("ada", NFC)


def test_results_from_a_kit_without_the_marker_are_still_read(tmp_path):
    data = json.loads(render_json(batch("ada")))
    for field in ("kit", "format", "sandbox", "call_timeout", "memory_mb"):  # the kit before the marker wrote none
        del data[field]
    for s in data["students"]:
        del s["graded"], s["sandbox"]
    (tmp_path / "results.json").write_text(json.dumps(data))
    assert read_stored(tmp_path) == replace(batch("ada"), call_timeout=0.0, memory_mb=0)  # limits: not recorded
    merged = merge(read_stored(tmp_path), [], batch())
    assert merged.students[0].graded == batch().created  # a kept student keeps the time it was graded


@pytest.mark.parametrize("content, words", [
    (b"", "not valid JSON"),
    (b'{"kit": "gradient-kit", "format": 1, "seed": ', "not valid JSON at line 1"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[" * 100000, "not valid JSON"),
    (b'{"kit": "gradient-kit", "format": 1, "seed": 1}', "damaged .*lacks the field 'isolation'"),
    (b'{"kit": "gradient-kit", "format": 1, "seed": true, "isolation": "p", "students": []}', "seed is not an integer"),
    (b'{"kit": "gradient-kit", "format": 1, "seed": 1, "isolation": "p", "students": [{"id": 3}]}',
     r"students\[0\].id is not text"),
    (b'{"kit": "gradient-kit", "format": 1, "seed": 1, "isolation": "p", "students": [], "extra": 1}',
     "unknown field 'extra'"),
    (b'{"kit": "gradient-kit", "format": 2}', "format 2"),
    (b'{"kit": "other-tool", "format": 1}', "not written by the gradient kit"),
    (b'{"name": "someone else\'s results"}', "not written by the gradient kit"),
    (b'[1, 2]', "not written by the gradient kit"),
])
def test_unreadable_stored_results_are_refused_in_one_sentence(tmp_path, content, words):
    (tmp_path / "results.json").write_bytes(content)
    with pytest.raises(GradeError, match=words) as caught:
        read_stored(tmp_path)
    message = str(caught.value)
    assert "\n" not in message and message.endswith(".") and str(tmp_path / "results.json") in message


def test_stored_numbers_must_be_finite_and_ids_unique():
    data = json.loads(render_json(batch("ada", "bo")))
    data["students"][0]["score"] = float("nan")
    with pytest.raises(ResultsFormatError, match="finite number"):
        batch_from_dict(data)
    data = json.loads(render_json(batch("ada", "ada")))
    with pytest.raises(ResultsFormatError, match="appears twice"):
        batch_from_dict(data)


def test_a_folder_that_is_not_the_kits_is_refused(tmp_path):
    (tmp_path / "thesis.tex").write_text("years of work")
    with pytest.raises(GradeError, match="not empty and holds no results.json"):
        read_stored(tmp_path)
    (tmp_path / "thesis.tex").unlink()
    (tmp_path / "results.json").mkdir()
    with pytest.raises(GradeError, match="results.json is a folder"):
        read_stored(tmp_path)
    (tmp_path / "results.json").rmdir()
    (tmp_path / "reports").write_text("a file where the reports go")
    with pytest.raises(GradeError, match="reports is not a folder"):
        read_stored(tmp_path)


def test_results_that_cannot_be_opened_are_refused(tmp_path):
    (tmp_path / "results.json").symlink_to(tmp_path / "nowhere")
    with pytest.raises(GradeError, match="cannot be read"):
        read_stored(tmp_path)


def test_a_folder_is_held_while_a_run_writes_it(tmp_path):
    def held() -> bool:
        handle = os.open(tmp_path / "out", os.O_RDONLY)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(handle)

    with locked(tmp_path / "out"):
        assert held()
    assert not held()
