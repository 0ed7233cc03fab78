"""What grading sees of an exercise entry: one reading, for the store's key and for the worker alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autograder.problems import SubmissionMissing, SubmissionUnreadable
from autograder.submission import LINKED, UNMATCHED, Entry, look, pin_folders, source_of


def read_source(path):
    return source_of(look(path), path.name)


def made(tmp_path, kind):
    path = tmp_path / "residual.py"
    if kind == "file":
        path.write_text("def residual_factor(slope, depth, residual):\n    return 1.0\n", encoding="utf-8")
    elif kind == "big":
        with open(path, "wb") as handle:
            handle.truncate((1 << 20) + 1)
    elif kind == "link":
        os.symlink(tmp_path / "elsewhere.py", path)
    elif kind == "dir":
        path.mkdir()
    elif kind == "other":
        os.mkfifo(path)
    return path


KINDS = ("file", "missing", "big", "link", "dir", "other")


@pytest.mark.parametrize("kind", KINDS)
def test_an_entry_is_seen_as_its_kind(tmp_path, kind):
    assert look(made(tmp_path, kind)).kind == kind


def test_every_kind_and_every_content_has_its_own_digest(tmp_path):
    digests = {}
    for kind in KINDS:
        (tmp_path / kind).mkdir()
        digests[kind] = look(made(tmp_path / kind, kind)).digest
    assert len(set(digests.values())) == len(KINDS)
    path = tmp_path / "file" / "residual.py"
    before = look(path).digest
    path.write_bytes(path.read_bytes() + b"\n")
    assert look(path).digest != before
    path.write_bytes(path.read_bytes()[:-1])
    assert look(path).digest == before


@pytest.mark.parametrize("kind, error, words", [
    ("missing", SubmissionMissing, "residual.py was not submitted"),
    ("big", SubmissionUnreadable, "residual.py is 1.0 MB; a solution file must be under 1 MB."),
    ("link", SubmissionUnreadable, "residual.py is a symbolic link; submit the file itself."),
    ("dir", SubmissionUnreadable, "residual.py is a folder, not a Python file."),
    ("other", SubmissionUnreadable, "residual.py is not a regular file."),
])
def test_an_entry_that_is_not_a_small_file_is_refused_in_one_sentence(tmp_path, kind, error, words):
    with pytest.raises(error, match=words.replace(".", r"\.")):
        read_source(made(tmp_path, kind))


def test_the_text_run_is_the_text_seen(tmp_path):
    path = made(tmp_path, "file")
    entry = look(path)
    path.write_text("raise SystemExit\n", encoding="utf-8")  # changed after the look: the look's bytes are run
    assert source_of(entry, path.name).startswith("def residual_factor(")


def test_a_file_that_is_not_utf8_says_which_byte(tmp_path):
    path = tmp_path / "residual.py"
    path.write_bytes(b"x = 1\n\xff\n")
    with pytest.raises(SubmissionUnreadable, match="byte 0xff at position 6"):
        read_source(path)


@pytest.mark.parametrize("data, text", [
    ("# -*- coding: latin-1 -*-\nname = 'Zoë'\n".encode("latin-1"), "name = 'Zoë'"),
    (b"# vim: set fileencoding=cp1252 :\neuro = '\x80'\n", "euro = '\u20ac'"),
    ("\ufeffname = 'Zoë'\n".encode("utf-8"), "name = 'Zoë'"),
])
def test_a_file_is_read_in_the_encoding_its_coding_line_names_as_python_reads_it(tmp_path, data, text):
    path = tmp_path / "residual.py"
    path.write_bytes(data)
    assert text in read_source(path) and "\ufeff" not in read_source(path)


@pytest.mark.parametrize("data, words", [
    (b"# coding: rot13\nk = 1\n", "coding rot13, which is not a text encoding"),
    (b"# coding: no-such-codec\nk = 1\n", "unknown encoding: no-such-codec"),
    (b"\xef\xbb\xbf# coding: latin-1\nk = 1\n", "byte-order mark, but its coding line"),
    (b"# coding: ascii\nk = '\xe9'\n", "not text in ascii, as its coding line says .byte 0xe9"),
])
def test_a_coding_line_that_cannot_be_honoured_is_refused_in_one_sentence(tmp_path, data, words):
    path = tmp_path / "residual.py"
    path.write_bytes(data)
    with pytest.raises(SubmissionUnreadable, match=words) as caught:
        read_source(path)
    assert "\n" not in str(caught.value) and str(caught.value).endswith(".")


@pytest.mark.parametrize("kind", ("other", "link", "dir"))
def test_an_entry_swapped_after_it_was_looked_at_is_never_followed_read_or_waited_on(tmp_path, monkeypatch, kind):
    """Between the lstat and the open a student may swap in a FIFO (an open that would wait for a
    writer forever), a link (to a classmate's file) or a folder: none is read as the file."""
    plain = made(tmp_path, "file")
    looks_regular = os.lstat(plain)
    (tmp_path / kind).mkdir()
    path = made(tmp_path / kind, kind)
    if kind == "link":
        os.symlink(plain, path.with_name("to_plain.py"))
        path = path.with_name("to_plain.py")
    with monkeypatch.context() as patched:
        patched.setattr(os, "lstat", lambda *_path, **_at: looks_regular)
        entry = look(path)
    # a link stays the student's link (never a file the grader could not read, which is withheld)
    assert (entry.kind, entry.data) == ({"link": "link", "dir": "dir"}.get(kind, "other"), b""), entry


def test_the_dask_path_ships_what_grading_would_see(tmp_path, monkeypatch):
    """The files sent to a Dask worker are read up front, as grading reads them: a link swapped in
    after the lstat (to a classmate's file, say) is not shipped as the student's file."""
    from autograder.distributed import _student_files
    classmate = tmp_path / "classmate.py"
    classmate.write_bytes(b"right = True\n")
    (tmp_path / "scalar_chain.py").write_bytes(b"x = 1\n")
    os.symlink(classmate, tmp_path / "clipping.py")
    looks_regular = os.lstat(classmate)
    with monkeypatch.context() as patched:
        patched.setattr(os, "lstat", lambda *_path, **_at: looks_regular)
        swapped = _student_files(tmp_path, ("clipping",))
    assert swapped == {"clipping.py": ("link",)}  # a link where a file was: never read, shipped as the link it is
    made(tmp_path, "other")  # residual.py is a FIFO: shipping it must not wait for a writer
    os.symlink("/dev/zero", tmp_path / "init_std.py")  # never followed, never read
    shipped = _student_files(tmp_path, ("residual", "init_std", "scalar_chain", "matrix_norms"))
    assert shipped == {"residual.py": ("other",), "init_std.py": ("link",), "scalar_chain.py": ("file", b"x = 1\n")}


def test_a_folder_swapped_for_a_link_is_not_followed(tmp_path):
    """Grading refuses a submission folder that is a link before it starts; one swapped in later
    (to a classmate's folder, or the reference's) is not followed by the reads that come after."""
    classmate = tmp_path / "classmate"
    classmate.mkdir()
    made(classmate, "file")
    (tmp_path / "work").symlink_to(classmate)
    entry = look(tmp_path / "work" / "residual.py")
    assert (entry.kind, entry.reason, entry.data) == ("unreadable", "a folder on its path is a symbolic link or not a folder", b"")
    with pytest.raises(SubmissionUnreadable, match=r"residual\.py could not be read \(a folder on its path is a symbolic link or not a folder\)"):
        read_source(tmp_path / "work" / "residual.py")


def test_below_the_anchor_no_folder_on_the_way_is_followed(tmp_path):
    classmate = tmp_path / "class" / "amara" / "exercises"
    classmate.mkdir(parents=True)
    made(classmate, "file")
    (tmp_path / "class" / "zoe").mkdir()
    (tmp_path / "class" / "zoe" / "work").symlink_to(tmp_path / "class" / "amara")
    path = tmp_path / "class" / "zoe" / "work" / "exercises" / "residual.py"
    assert look(path).kind == "file"  # without an anchor only the folder's own name is not followed
    entry = look(path, anchor=str(tmp_path / "class"))
    assert (entry.kind, entry.reason) == ("unreadable", "a folder on its path is a symbolic link or not a folder")
    (tmp_path / "linked_class").symlink_to(tmp_path / "class")  # the anchor itself: the instructor's, followed
    assert look(tmp_path / "linked_class" / "amara" / "exercises" / "residual.py", anchor=str(tmp_path / "linked_class")).kind == "file"
    # files right in the anchor, itself given through a link: read as before
    made(tmp_path / "class", "file")
    assert look(tmp_path / "linked_class" / "residual.py", anchor=str(tmp_path / "linked_class")).kind == "file"


def _class(tmp_path):
    root = tmp_path / "class"
    for name, body in (("amara", "right"), ("zoe", "wrong")):
        (root / name / "work").mkdir(parents=True)
        (root / name / "work" / "residual.py").write_text(body, encoding="utf-8")
    return root


def test_a_reading_names_the_students_folder_it_went_through_and_it_is_their_pin(tmp_path):
    root = _class(tmp_path)
    pins = pin_folders({"amara": root / "amara" / "work", "zoe": root / "zoe" / "work"}, str(root))
    seen = look(root / "zoe" / "work" / "residual.py", anchor=str(root))
    assert seen.data == b"wrong" and seen.via == pins["zoe"] != pins["amara"]
    assert look(root / "zoe" / "work" / "gone.py", anchor=str(root)).via == pins["zoe"]  # missing: still through zoe's


def test_a_classmates_folder_renamed_into_a_students_place_is_not_their_pinned_one(tmp_path):
    """A class's folder students may write to: zoe moves hers aside and amara's into its place."""
    root = _class(tmp_path)
    pins = pin_folders({"amara": root / "amara" / "work", "zoe": root / "zoe" / "work"}, str(root))
    (root / "zoe").rename(root / "zoe_aside")
    (root / "amara").rename(root / "zoe")
    seen = look(root / "zoe" / "work" / "residual.py", anchor=str(root))
    assert seen.data == b"right" and seen.via == pins["amara"] != pins["zoe"]


def test_a_folder_found_under_two_names_is_neither_students(tmp_path, monkeypatch):
    """Pins are taken one name at a time: amara's folder renamed to zoe's name between the two
    (zoe's own moved aside) would otherwise be pinned as both."""
    import autograder.submission as submission
    root = _class(tmp_path)
    real_lstat = os.lstat
    monkeypatch.setattr(submission.os, "lstat", lambda path, *a, **k: real_lstat(
        root / "amara" if Path(path) == root / "zoe" else path, *a, **k))
    pins = pin_folders({"amara": root / "amara", "zoe": root / "zoe" / "work"}, str(root))
    assert pins == {"amara": UNMATCHED, "zoe": UNMATCHED}


def test_a_group_sharing_one_folder_by_intakes_reading_shares_its_pin(tmp_path):
    """Gradescope lists every member of a group with the same folder: all of them are graded on it."""
    root = _class(tmp_path)
    pins = pin_folders({"amara": root / "amara", "zoe": root / "zoe" / "work", "zoe2": root / "zoe" / "work"}, str(root))
    assert pins["zoe"] == pins["zoe2"] == look(root / "zoe" / "work" / "residual.py", anchor=str(root)).via
    assert pins["amara"] not in (None, UNMATCHED, pins["zoe"])


def test_a_folder_already_gone_as_the_class_is_read_is_pinned_to_nothing(tmp_path):
    """Moved aside the moment pins are taken, so a classmate's can be renamed in before the plan."""
    root = _class(tmp_path)
    (root / "zoe").rename(root / "zoe_aside")
    pins = pin_folders({"zoe": root / "zoe" / "work"}, str(root))
    assert pins == {"zoe": UNMATCHED}


def test_no_pin_outside_the_class_folder_or_without_one(tmp_path):
    root = _class(tmp_path)
    assert pin_folders({"zoe": root / "zoe"}, "") == {"zoe": None}
    assert pin_folders({"zoe": tmp_path / "elsewhere"}, str(root)) == {"zoe": None}
    assert look(root / "zoe" / "work" / "residual.py").via is None


def test_a_file_the_grader_cannot_read_is_withheld_locally_and_on_dask_never_a_zero(tmp_path, monkeypatch):
    """Permissions or an I/O error: the grader cannot tell the host's fault from the student's, so
    the checks say so in the words that withhold them (model.UNREADABLE), and Dask sends nobody."""
    import autograder.distributed as distributed
    from autograder.model import CheckResult, Status
    denied = Entry("unreadable", reason="Permission denied")
    with pytest.raises(SubmissionUnreadable) as caught:
        source_of(denied, "clipping.py")
    assert CheckResult("test_x", "", 0.0, 1.0, Status.ERROR, caught.value.message).grader_failed
    with pytest.raises(SubmissionUnreadable) as linked:  # a link on the way: the student's doing, a 0
        source_of(Entry("unreadable", reason=LINKED), "clipping.py")
    assert not CheckResult("test_x", "", 0.0, 1.0, Status.ERROR, linked.value.message).grader_failed
    monkeypatch.setattr(distributed, "look", lambda *_a, **_k: denied)
    with pytest.raises(distributed.Unreadable, match=r"^The grader could not read clipping\.py \(Permission denied\)"):
        distributed._student_files(tmp_path, ("clipping",))
