"""Submissions as LMSs export them: every layout mapped to students, zips unpacked safely.

The fixtures follow each LMS's documented layout: Canvas's "Download Submissions" file names,
Gradescope's "Export Submissions" (submission_metadata.yml beside submission_<id>/ folders),
GitHub Classroom's clone of every repository (<assignment>-<login>/ with .git).
"""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

from autograder.archive import UnsafeArchive, ZipLimits, extract_zip
from autograder.errors import GradeError
from autograder.intake import annotate, read_submissions
from autograder.model import CheckResult, exercise_result, student_result
from conftest import COURSE

EXERCISES = tuple(e.name for e in COURSE)
CODE = "def f():\n    return 1\n"


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def zipped(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def by_id(intake):
    return {s.id: s for s in intake.submissions}


def test_canvas_download_keeps_the_newest_resubmission_and_flags_near_misses(tmp_path):
    source = zipped(tmp_path / "submissions.zip", {
        "okaforamara_1234_56789_scalar_chain.py": "old = 1\n",
        "okaforamara_1234_56789_scalar_chain-1.py": "old = 2\n",
        "okaforamara_1234_56789_scalar_chain-2.py": "newest = 3\n",
        "okaforamara_1234_56789_init_std.py": CODE,
        "carterben_late_2345_56790_Scalar_Chain.py": CODE,
        "carterben_late_2345_56790_init_std.py.txt": CODE,
        "__MACOSX/._okaforamara_1234_56789_scalar_chain.py": "junk",
        ".DS_Store": "junk",
    })
    intake = read_submissions(source, tmp_path / "work", EXERCISES)
    assert intake.layout == "canvas"
    students = by_id(intake)
    assert sorted(students) == ["carterben", "okaforamara"]
    amara = students["okaforamara"]
    assert (amara.folder / "scalar_chain.py").read_text() == "newest = 3\n"
    assert sorted(p.name for p in amara.folder.iterdir()) == ["init_std.py", "scalar_chain.py"]
    assert "1234" in amara.aliases
    assert any("scalar_chain-2.py" in n for n in amara.notices)
    ben = students["carterben"]
    assert dict(ben.near_misses) == {"scalar_chain": "Scalar_Chain.py", "init_std": "init_std.py.txt"}
    assert "Canvas marked this submission late." in ben.notices


def test_a_canvas_file_swapped_for_a_link_after_it_was_listed_is_never_followed(tmp_path, monkeypatch):
    """Listed as a plain file, then made a link to a file the student cannot read (a classmate's, the
    reference): the copy intake makes is never the link's target, and the student is told why."""
    import autograder.lms as lms_module
    root = tmp_path / "canvas"
    root.mkdir()
    secret = tmp_path / "reference.py"
    secret.write_text("right = True\n")
    (root / "okaforamara_1234_56789_init_std.py").write_text(CODE)
    (root / "zoe_2345_56790_init_std.py").symlink_to(secret)
    (root / "zoe_2345_56790_residual.py").write_text(CODE)
    listed_before_the_swap = {root / "zoe_2345_56790_init_std.py"}
    real_islink = os.path.islink
    monkeypatch.setattr(lms_module.os.path, "islink", lambda path: False if Path(path) in listed_before_the_swap
                        else real_islink(path))
    students = by_id(read_submissions(root, tmp_path / "work", EXERCISES))
    zoe = students["zoe"]
    assert not (zoe.folder / "init_std.py").exists() and (zoe.folder / "residual.py").read_text() == CODE
    assert any(n.startswith("init_std.py changed while the class was read") for n in zoe.notices), zoe.notices
    assert (students["okaforamara"].folder / "init_std.py").read_text() == CODE


def test_gradescope_export_maps_submitters_and_descends_into_nested_folders(tmp_path):
    metadata = """submission_111:
  :submitters:
  - :name: Ada Lovelace
    :sid: 'a001'
    :email: ada@example.edu
  :created_at: 2026-11-01 10:00:00.000000000 -07:00
  :score: 0.0
submission_222:
  :submitters:
  - :name: Pair One
    :sid: 'b002'
    :email: one@example.edu
  - :name: Pair Two
    :sid: ''
    :email: two@example.edu
  :created_at: 2026-11-02 10:00:00.000000000 -07:00
"""
    source = zipped(tmp_path / "export.zip", {
        # A key that names a path is never followed: ../assignment_987_export/elsewhere is no submission.
        "assignment_987_export/submission_metadata.yml":
            metadata + "../assignment_987_export/elsewhere:\n  :submitters:\n  - :sid: 'x9'\n",
        "assignment_987_export/submission_111/scalar_chain.py": CODE,
        "assignment_987_export/submission_222/hw1/scalar_chain.py": CODE,
        "assignment_987_export/submission_222/hw1/scalar_chain.py~": "backup",
        "assignment_987_export/elsewhere/scalar_chain.py": CODE,
    })
    intake = read_submissions(source, tmp_path / "work", EXERCISES)
    assert intake.layout == "gradescope"
    assert any("assignment_987_export" in n for n in intake.notes)
    students = by_id(intake)
    assert sorted(students) == ["a001", "b002", "elsewhere", "two@example.edu"]  # unlisted: by folder name
    assert any("../assignment_987_export/elsewhere" in n and "not a submission folder" in n for n in intake.notes)
    assert students["a001"].folder.name == "submission_111"
    assert "ada@example.edu" in students["a001"].aliases
    assert students["b002"].folder.name == "hw1" and students["two@example.edu"].folder.name == "hw1"
    assert any("hw1/" in n for n in students["b002"].notices)


def test_gradescope_sids_stay_text_and_a_students_newest_submission_counts_once(tmp_path):
    """SIDs YAML 1.1 would read as numbers (leading zeros, hex, underscores, yes) stay the ids they
    are; a submission made before the roster had the student's SID (email only) is theirs too, and
    "newest" compares times across time zones."""
    metadata = """submission_1:
  :submitters:
  - :sid: 00123
    :email: ada@example.edu
  :created_at: 2026-11-01 10:00:00.000000000 -07:00
submission_2:
  :submitters:
  - :sid:
    :email: ada@example.edu
  :created_at: 2026-11-01 16:30:00.000000000 +00:00
submission_3:
  :submitters:
  - :sid: 0x10
  - :sid: 1_000
  - :sid: yes
  :created_at: 2026-11-02 10:00:00.000000000 -07:00
"""
    older, newer = "older = 1\n", "newer = 2\n"
    root = write(tmp_path / "export", {"submission_metadata.yml": metadata, "submission_1/scalar_chain.py": newer,
                                        "submission_2/scalar_chain.py": older, "submission_3/scalar_chain.py": CODE})
    students = by_id(read_submissions(root, tmp_path / "work", EXERCISES))
    assert sorted(students) == ["00123", "0x10", "1_000", "yes"]
    # 10:00 at -07:00 is 17:00 UTC: after 16:30 UTC, though its text sorts first
    assert students["00123"].folder.name == "submission_1"
    assert (students["00123"].folder / "scalar_chain.py").read_text() == newer
    assert "ada@example.edu" in students["00123"].aliases


def test_github_classroom_clones_map_repositories_to_logins(tmp_path):
    root = write(tmp_path / "clones", {
        "hw1-gradients-ada-l/.git/HEAD": "ref: refs/heads/main\n",
        "hw1-gradients-ada-l/exercises/scalar_chain.py": CODE,
        "hw1-gradients-ada-l/README.md": "x",
        "hw1-gradients-bob/.git/HEAD": "ref: refs/heads/main\n",
        "hw1-gradients-bob/exercises/clipping.py": CODE,
    })
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    assert intake.layout == "classroom"
    students = by_id(intake)
    assert sorted(students) == ["ada-l", "bob"]
    assert students["ada-l"].folder == root / "hw1-gradients-ada-l" / "exercises"


def test_folders_one_per_student_with_a_wrapping_folder(tmp_path):
    root = write(tmp_path / "download", {
        "class/ada/scalar_chain.py": CODE,
        "class/ada/.scalar_chain.py.swp": "x",
        "class/bo/Scalar_Chain.py": CODE,
        "class/.git/config": "x",
        "__MACOSX/class/._ada": "x",
    })
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    assert intake.layout == "folders"
    assert [s.id for s in intake.submissions] == ["ada", "bo"]
    assert any("class/" in n for n in intake.notes)
    assert by_id(intake)["ada"].near_misses == ()
    assert by_id(intake)["bo"].near_misses == (("scalar_chain", "Scalar_Chain.py"),)


def test_a_plain_zip_of_student_folders(tmp_path):
    source = zipped(tmp_path / "class.zip", {"ada/scalar_chain.py": CODE, "bo/clipping.py": CODE})
    intake = read_submissions(source, tmp_path / "work", EXERCISES)
    assert [s.id for s in intake.submissions] == ["ada", "bo"]
    assert (intake.submissions[0].folder / "scalar_chain.py").read_text() == CODE


@pytest.mark.parametrize("name", ["../evil.py", "/abs/evil.py", "a/../../evil.py", "C:/evil.py"])
def test_zip_path_traversal_is_refused_and_writes_nothing_outside(tmp_path, name):
    source = zipped(tmp_path / "bad.zip", {name: "x"})
    with pytest.raises(GradeError, match="outside its folder"):
        read_submissions(source, tmp_path / "work", EXERCISES)
    assert not (tmp_path / "evil.py").exists() and not Path("/abs/evil.py").exists()


def test_zip_symlink_is_refused(tmp_path):
    source = tmp_path / "link.zip"
    with zipfile.ZipFile(source, "w") as archive:
        info = zipfile.ZipInfo("ada/scalar_chain.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/work/main/solutions/scalar_chain.py")
    with pytest.raises(UnsafeArchive, match="symbolic link"):
        extract_zip(source, tmp_path / "out")


def test_zip_bomb_stops_at_the_limit_counted_while_writing(tmp_path):
    source = tmp_path / "bomb.zip"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("ada/scalar_chain.py", "0" * 200_000)
    (tmp_path / "out").mkdir()
    with pytest.raises(UnsafeArchive, match="more than"):
        extract_zip(source, tmp_path / "out", ZipLimits(max_file_bytes=50_000))
    with pytest.raises(UnsafeArchive, match="entries"):
        extract_zip(source, tmp_path / "out2", ZipLimits(max_members=0))


def test_a_students_bad_zip_costs_only_that_student(tmp_path):
    inner = zipped(tmp_path / "inner.zip", {"../escape.py": "x"})
    good = zipped(tmp_path / "good.zip", {"hw/scalar_chain.py": CODE})
    root = tmp_path / "canvas"
    root.mkdir()
    (root / "evex_1_2_hw.zip").write_bytes(inner.read_bytes())
    (root / "goodg_3_4_hw.zip").write_bytes(good.read_bytes())
    students = by_id(read_submissions(root, tmp_path / "work", EXERCISES))
    assert any("was not unpacked" in n for n in students["evex"].notices)
    assert (students["goodg"].folder / "scalar_chain.py").read_text() == CODE


def test_near_miss_replaces_not_submitted_in_the_report():
    check = CheckResult("test_a", "A.", 0.0, 1.0, "failed", message="scalar_chain.py was not submitted, so its checks score 0.")
    missing = exercise_result("scalar_chain", "Chain", (check,), "missing", "scalar_chain.py was not submitted.")
    result = student_result("bo", (missing,))
    from autograder.intake import Submission
    annotated = annotate(result, Submission("bo", Path("."), ("Your files were inside hw/.",),
                                            near_misses=(("scalar_chain", "Scalar_Chain.py"),)))
    exercise = annotated.exercises[0]
    assert "not submitted" not in exercise.message and "Scalar_Chain.py" in exercise.message
    assert "Scalar_Chain.py" in exercise.tests[0].message
    assert annotated.notices[0] == "Your files were inside hw/."
    assert annotated.score == result.score


def test_a_near_miss_with_a_newline_in_its_name_is_named_on_one_line():
    """A file name is the student's text: a newline in it, written as it is, could start a line of a report."""
    missing = exercise_result("scalar_chain", "Chain", (), "missing", "scalar_chain.py was not submitted.")
    from autograder.intake import Submission
    annotated = annotate(student_result("bo", (missing,)),
                         Submission("bo", Path("."), near_misses=(("scalar_chain", "scalar_chain.py\n# 100%\x1b"),)))
    assert "Found scalar_chain.py\\n# 100%\\x1b but no scalar_chain.py" in annotated.exercises[0].message
    assert annotated.notices[0].startswith("scalar_chain.py\\n# 100%\\x1b looks like")


def test_nothing_to_read_is_one_sentence(tmp_path):
    with pytest.raises(GradeError, match="neither a folder"):
        read_submissions(tmp_path / "nope.zip", tmp_path / "work", EXERCISES)


def test_a_canvas_name_that_no_file_can_have_is_ignored_and_said(tmp_path):
    """Canvas keeps a student's upload named '..' as 'mallory_1001_2000_..': copied as it was, it would
    land on the class's folder ('.' on the student's own). It is ignored, and said to the student, or
    to the instructor where the student handed in nothing else."""
    root = write(tmp_path / "canvas", {"mallory_1001_2000_..": CODE, "mallory_1001_2000_.": CODE,
                                       "mallory_1001_2000_init_std.py": CODE, "alice_1002_3000_init_std.py": CODE,
                                       "eve_1003_4000_..": CODE})
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    students = by_id(intake)
    assert sorted(students) == ["alice", "mallory"]
    mallory = students["mallory"]
    assert [n for n in mallory.notices if n.startswith("Canvas kept")] == [
        "Canvas kept a file of yours as '.', which no file can be named; it was ignored.",
        "Canvas kept a file of yours as '..', which no file can be named; it was ignored."]
    assert sorted(p.name for p in mallory.folder.iterdir()) == ["init_std.py"]
    assert sorted(p.name for p in (tmp_path / "work" / "canvas").iterdir()) == ["alice", "mallory"]
    assert "Ignored the Canvas files of eve, as none is named as a file can be ('..')." in intake.notes
    assert (students["alice"].folder / "init_std.py").read_text() == CODE


def test_a_canvas_copy_that_cannot_be_written_is_said_and_leaves_no_part_behind(tmp_path, monkeypatch):
    """The target's side failing (a full disk part way through, a folder in the way) costs that file
    alone: never an exception, and never a truncated copy graded as the student's."""
    import errno
    import autograder.lms as lms_module
    source = tmp_path / "mallory_1001_2000_init_std.py"
    source.write_text(CODE * 1000)
    (tmp_path / "in_the_way").mkdir()
    assert lms_module.copy_plain_file(source, tmp_path / "in_the_way").startswith("could not be copied for grading")
    assert lms_module.copy_plain_file(source, tmp_path / "no" / "such" / "folder.py").startswith("could not be")

    class FullDisk:
        def __init__(self, real):
            self.real = real

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.real.close()

        def write(self, chunk):
            self.real.write(chunk[:10])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    real_open = open
    monkeypatch.setattr(lms_module, "open", lambda path, mode: FullDisk(real_open(path, mode)), raising=False)
    target = tmp_path / "copy.py"
    assert lms_module.copy_plain_file(source, target) == "could not be copied for grading (No space left on device)"
    assert not target.exists()
    root = write(tmp_path / "canvas", {"mallory_1001_2000_init_std.py": CODE})
    mallory = by_id(read_submissions(root, tmp_path / "work", EXERCISES))["mallory"]
    assert "init_std.py could not be copied for grading (No space left on device); it was not graded." in mallory.notices
    assert list(mallory.folder.iterdir()) == []


def test_a_canvas_students_zips_share_one_budget(tmp_path):
    """Each zip within the class zip's 512 MiB, yet together past what one student may unpack: the
    zip that passes the budget is refused, and every zip after it, even a small one."""
    budget = 64 << 20
    root = tmp_path / "canvas"
    root.mkdir()
    part = budget * 2 // 5  # two fit, the third passes the budget
    for number in range(3):
        with zipfile.ZipFile(root / f"mallory_1001_200{number}_part{number}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(f"big{number}.bin", bytes(part))
    zipped(root / "mallory_1001_2003_part3.zip", {"init_std.py": CODE})
    (root / "alice_1002_3000_init_std.py").write_text(CODE)
    zipped(root / "alice_1002_3000_hw.zip", {"residual.py": CODE})
    students = by_id(read_submissions(root, tmp_path / "work", EXERCISES))
    mallory = students["mallory"]
    over = "a student's zips may unpack to 64 MiB and 5000 files in all, and yours pass that."
    assert mallory.notices == ("Unpacked your part0.zip.", "Unpacked your part1.zip.",
                               f"Your part2.zip was not unpacked: {over}", f"Your part3.zip was not unpacked: {over}")
    assert sorted(p.name for p in mallory.folder.iterdir()) == ["part0", "part1"]
    on_disk = sum(p.stat().st_size for p in mallory.folder.rglob("*") if p.is_file())
    assert on_disk <= budget
    assert (students["alice"].folder / "hw" / "residual.py").read_text() == CODE


def test_a_canvas_students_zips_share_one_file_count(tmp_path):
    root = tmp_path / "canvas"
    root.mkdir()
    for number in range(2):  # 2,600 files each: one fits, two pass the 5,000
        zipped(root / f"mallory_1001_200{number}_many{number}.zip", {f"f{i}.txt": "" for i in range(2600)})
    notices = by_id(read_submissions(root, tmp_path / "work", EXERCISES))["mallory"].notices
    assert notices[0] == "Unpacked your many0.zip." and notices[1].startswith("Your many1.zip was not unpacked: a student")


def stored_class(out: Path, aliases: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """An output folder an earlier run wrote, with these students and their aliases: what ``grade``
    reads before intake (each stored id by its aliases)."""
    from dataclasses import replace

    from autograder.gradecmd import _known_aliases
    from autograder.model import BatchResult
    from autograder.output import write_batch
    from conftest import ROOT

    check = CheckResult("test_x", "X.", 2.0, 2.0, "passed")
    students = tuple(replace(student_result(sid, (exercise_result("scalar_chain", "Chain", (check,)),)), aliases=names)
                     for sid, names in aliases.items())
    write_batch(BatchResult(5, "process", students, "0.1.0", "2026-11-29T10:00:00+00:00"), out, ROOT / "templates")
    return _known_aliases(out)


def test_canvas_students_sharing_a_login_are_two_students_each_graded_on_their_own_files(tmp_path):
    """Canvas builds the login from the name: two John Smiths are both 'smithjohn'. Keyed by login
    alone, their files were merged into one row (the newer file of each name won) and user 1001 had none."""
    root = write(tmp_path / "canvas", {"smithjohn_1001_501_scalar_chain.py": "mine = 1001\n",
                                       "smithjohn_1001_501_init_std.py": CODE,
                                       "smithjohn_2002_502_scalar_chain.py": "mine = 2002\n",
                                       "carterben_2345_503_scalar_chain.py": CODE})
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    students = by_id(intake)
    assert sorted(students) == ["carterben", "smithjohn_1001", "smithjohn_2002"]
    assert sorted(p.name for p in students["smithjohn_1001"].folder.iterdir()) == ["init_std.py", "scalar_chain.py"]
    assert (students["smithjohn_1001"].folder / "scalar_chain.py").read_text() == "mine = 1001\n"
    assert sorted(p.name for p in students["smithjohn_2002"].folder.iterdir()) == ["scalar_chain.py"]
    assert (students["smithjohn_2002"].folder / "scalar_chain.py").read_text() == "mine = 2002\n"
    assert students["smithjohn_2002"].aliases == ("2002",)
    assert any("smithjohn" in n and "Canvas user id" in n for n in intake.notes)


def test_a_namesakes_late_canvas_file_does_not_replace_the_stored_students_result(tmp_path):
    """John Smith 1001 was graded on time as 'smithjohn'; the late export holds John Smith 2002,
    whose work had replaced 1001's row. 1001 himself, late again, still keeps his id."""
    known = stored_class(tmp_path / "out", {"smithjohn": ("1001",), "carterben": ("2345",)})
    late = write(tmp_path / "late", {"smithjohn_late_2002_601_scalar_chain.py": CODE})
    intake = read_submissions(late, tmp_path / "work", EXERCISES, known)
    assert sorted(by_id(intake)) == ["smithjohn_2002"]
    assert any("smithjohn" in n and "Canvas user id" in n for n in intake.notes)
    again = write(tmp_path / "again", {"smithjohn_late_1001_602_scalar_chain.py": CODE,
                                       "smithjohn_late_2002_603_scalar_chain.py": CODE})
    assert sorted(by_id(read_submissions(again, tmp_path / "work2", EXERCISES, known))) == ["smithjohn",
                                                                                             "smithjohn_2002"]


def test_a_classroom_repository_graded_before_keeps_its_id_when_graded_alone(tmp_path):
    """The id drops the prefix the class's repositories share: graded with the class, 'smith'; a
    late clone alone has no shared prefix and became 'hw1-john-smith', a second row beside 'smith'."""
    clones = {"hw1-john-smith/.git/HEAD": "ref: refs/heads/main\n", "hw1-john-smith/scalar_chain.py": CODE,
              "hw1-john-doe/.git/HEAD": "ref: refs/heads/main\n", "hw1-john-doe/scalar_chain.py": CODE}
    first = read_submissions(write(tmp_path / "class", clones), tmp_path / "work", EXERCISES)
    assert sorted(by_id(first)) == ["doe", "smith"]
    known = stored_class(tmp_path / "out", {s.id: s.aliases for s in first.submissions})
    late = write(tmp_path / "late", {k: v for k, v in clones.items() if k.startswith("hw1-john-smith/")})
    intake = read_submissions(late, tmp_path / "work2", EXERCISES, known)
    assert intake.layout == "classroom" and sorted(by_id(intake)) == ["smith"]


def moodle_folder(name: str, participant: int, plugin: str) -> str:
    return f"{name}_{participant}_assignsubmission_{plugin}_"


def test_moodle_folders_are_one_student_per_participant_graded_from_their_files(tmp_path):
    """Moodle writes a folder per submission plugin: the online-text and comments folders had
    become second students who scored 0, and ids were whole folder names."""
    root = write(tmp_path / "moodle", {
        f"{moodle_folder('Ann Lee', 1201, 'file')}/scalar_chain.py": CODE,
        f"{moodle_folder('Ann Lee', 1201, 'onlinetext')}/onlinetext.html": "<p>see my files</p>",
        f"{moodle_folder('Ann Lee', 1201, 'comments')}/comments.html": "<p>late, sorry</p>",
        f"{moodle_folder('Bo Chen', 1202, 'file')}/init_std.py": CODE,
        f"{moodle_folder('Sam Park', 1203, 'file')}/scalar_chain.py": "first = 1\n",
        f"{moodle_folder('Sam Park', 1204, 'file')}/scalar_chain.py": "second = 2\n",
    })
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    assert intake.layout == "moodle"
    students = by_id(intake)
    assert sorted(students) == ["Ann Lee", "Bo Chen", "Sam Park_1203", "Sam Park_1204"]
    assert students["Ann Lee"].folder.name == moodle_folder("Ann Lee", 1201, "file")
    assert students["Ann Lee"].aliases == ("1201",)
    assert (students["Sam Park_1204"].folder / "scalar_chain.py").read_text() == "second = 2\n"
    assert any(n.startswith("Ignored 2 Moodle folders") for n in intake.notes)
    assert any("Sam Park" in n and "participant number" in n for n in intake.notes)


def test_a_flat_moodle_download_is_one_student_per_participant_graded_from_their_files(tmp_path):
    """Without "download submissions in folders", Moodle names every file after its participant
    and plugin: each participant is one student, graded from their uploaded files alone."""
    root = write(tmp_path / "moodle", {
        f"{moodle_folder('Ann Lee', 1201, 'file')}scalar_chain.py": CODE,
        f"{moodle_folder('Ann Lee', 1201, 'file')}init_std.py": CODE,
        f"{moodle_folder('Ann Lee', 1201, 'onlinetext')}onlinetext.html": "<p>see my files</p>",
        f"{moodle_folder('Bo Chen', 1202, 'onlinetext')}onlinetext.html": "<p>forgot the files</p>",
        f"{moodle_folder('Sam Park', 1203, 'file')}scalar_chain.py": "first = 1\n",
        f"{moodle_folder('Sam Park', 1204, 'file')}scalar_chain.py": "second = 2\n",
    })
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    assert intake.layout == "moodle"
    students = by_id(intake)
    assert sorted(students) == ["Ann Lee", "Bo Chen", "Sam Park_1203", "Sam Park_1204"]
    assert sorted(p.name for p in students["Ann Lee"].folder.iterdir()) == ["init_std.py", "scalar_chain.py"]
    assert students["Ann Lee"].aliases == ("1201",)
    assert list(students["Bo Chen"].folder.iterdir()) == []  # a row that says nothing was submitted
    assert (students["Sam Park_1204"].folder / "scalar_chain.py").read_text() == "second = 2\n"
    assert any(n.startswith("Ignored 1 Moodle files") for n in intake.notes), intake.notes
    assert not (root / "scalar_chain.py").exists() and len(list(root.iterdir())) == 6  # the download is untouched
