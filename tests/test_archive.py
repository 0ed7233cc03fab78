"""Zips zipfile cannot read (a bad CRC, corrupt deflate data, an unknown compression method, a name
that is not the UTF-8 its flag claims, an encrypted member): refused in one sentence like an unsafe
zip, nothing of them left behind; a student's costs only their row, the instructor's is a GradeError.

The bad zips are made here by patching a good one's bytes at the offsets of the zip format
(APPNOTE.TXT 4.3.7 and 4.3.12: the local file header and the central directory's file header).
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import pytest

from autograder.archive import UnsafeArchive, extract_zip
from autograder.errors import GradeError
from autograder.intake import read_submissions
from conftest import COURSE

EXERCISES = tuple(e.name for e in COURSE)
CODE = "def f():\n    return 1\n"

# defect -> what the one sentence says of it
DEFECTS = {
    "bad CRC": "a bad CRC in 'notes/scalar_chain.py'",
    "corrupt deflate data": "corrupt compressed data in 'notes/scalar_chain.py'",
    "compression method 99": "a compression method or encryption Python cannot read in 'notes/scalar_chain.py'",
    "name not UTF-8": "a file name that is not the UTF-8 it claims to be",
    "encrypted": "is encrypted",
}


def bad_zip(path: Path, defect: str, member: str = "notes/scalar_chain.py") -> Path:
    """A zip of one member (and a good one before it, unpacked first) with ``defect`` patched in."""
    method = zipfile.ZIP_DEFLATED if defect == "corrupt deflate data" else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as archive:
        archive.writestr("notes/good.py", CODE)
        archive.writestr(member, CODE * 40)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        local = archive.getinfo(member).header_offset
    central = raw.rindex(b"PK\x01\x02")  # the last member's record in the central directory
    name_length, extra_length = struct.unpack_from("<HH", raw, local + 26)
    data = local + 30 + name_length + extra_length
    if defect == "bad CRC":
        raw[central + 16] ^= 0xFF  # zipfile checks the data against the central directory's CRC-32
    elif defect == "corrupt deflate data":
        raw[data] = 0xFF  # a final deflate block of type 3, which is reserved
    elif defect == "compression method 99":
        raw[local + 8] = raw[central + 10] = 99
    elif defect == "name not UTF-8":
        raw[local + 30] = raw[central + 46] = 0xFF  # the 'n' of notes/: never the start of UTF-8
        raw[local + 7] |= 0x08  # general purpose flag bit 11: the name is UTF-8
        raw[central + 9] |= 0x08
    elif defect == "encrypted":
        raw[local + 6] |= 0x01
        raw[central + 8] |= 0x01
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize("defect", DEFECTS)
def test_an_unreadable_zip_is_refused_in_one_sentence_and_leaves_nothing(tmp_path, defect):
    source = bad_zip(tmp_path / "notes.zip", defect)
    target = tmp_path / "out"
    with pytest.raises(UnsafeArchive) as refused:
        extract_zip(source, target)
    assert DEFECTS[defect] in str(refused.value) and str(refused.value).startswith("notes.zip ")
    assert list(target.iterdir()) == []  # notes/good.py, unpacked before the bad member, is gone again


@pytest.mark.parametrize("defect", DEFECTS)
def test_an_unreadable_class_zip_is_one_sentence(tmp_path, defect):
    source = bad_zip(tmp_path / "class.zip", defect, member="ada/scalar_chain.py")
    with pytest.raises(GradeError, match=r"class\.zip was not unpacked: class\.zip (is not a readable zip|is encrypted)"):
        read_submissions(source, tmp_path / "work", EXERCISES)


@pytest.mark.parametrize("defect", DEFECTS)
def test_a_canvas_students_unreadable_zip_costs_only_their_zip(tmp_path, defect):
    root = tmp_path / "canvas"
    root.mkdir()
    bad_zip(root / "mallory_1001_2000_notes.zip", defect)
    (root / "mallory_1001_2000_init_std.py").write_text(CODE)
    (root / "alice_1002_3000_init_std.py").write_text(CODE)
    intake = read_submissions(root, tmp_path / "work", EXERCISES)
    students = {s.id: s for s in intake.submissions}
    mallory = students["mallory"]
    notice = next(n for n in mallory.notices if "notes.zip" in n)
    assert notice.startswith("Your notes.zip was not unpacked: notes.zip ") and DEFECTS[defect] in notice
    assert notice.count(". ") == 0 and notice.endswith(".")  # one sentence
    assert sorted(p.name for p in mallory.folder.iterdir()) == ["init_std.py"]  # no half-unpacked notes/
    assert (students["alice"].folder / "init_std.py").read_text() == CODE


def test_a_member_named_dot_names_no_file_and_is_skipped(tmp_path):
    source = tmp_path / "class.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr(zipfile.ZipInfo("."), "")
        archive.writestr("ada/scalar_chain.py", CODE)
    intake = read_submissions(source, tmp_path / "work", EXERCISES)
    assert (intake.submissions[0].folder / "scalar_chain.py").read_text() == CODE


def test_a_file_where_a_folder_should_be_is_one_sentence(tmp_path):
    source = tmp_path / "class.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("ada", CODE)
        archive.writestr("ada/scalar_chain.py", CODE)
    with pytest.raises(GradeError, match=r"cannot be unpacked as it is \('ada/scalar_chain.py': File exists\)"):
        read_submissions(source, tmp_path / "work", EXERCISES)
    assert list((tmp_path / "work" / "unpacked").iterdir()) == []
