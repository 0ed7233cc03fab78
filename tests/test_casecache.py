"""Drawn cases kept on disk: a hit is exactly a fresh draw, and anything wrong with a file is a fresh draw."""

from __future__ import annotations

import math
import os
import pickle
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder import casecache, cli, properties
from autograder.codec import HEADER_SIZE, dump_frame, encode
from autograder.properties import Cases
from conftest import ROOT, SOLUTIONS

SEED = 7


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    properties._draw.cache_clear()
    yield tmp_path / "xdg" / "gradient-kit" / "cases"
    properties._draw.cache_clear()


def counting_draws(monkeypatch):
    """Every call that runs Hypothesis to draw, counted."""
    calls = []
    generate = properties._generate

    def counted(strategy, seed_value, count):
        calls.append((seed_value, count))
        return generate(strategy, seed_value, count)
    monkeypatch.setattr(properties, "_generate", counted)
    return calls


@pytest.fixture(scope="module")
def real_draws(tmp_path_factory):
    """Every (key, strategy, seed, count, grader folder) the real graders draw in one `check` of the reference."""
    seen = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))
        draw = properties._draw
        properties._draw.cache_clear()

        def recording(keyed, seed_value, count):
            seen.append((keyed, seed_value, count))
            return draw(keyed, seed_value, count)
        patch.setattr(properties, "_draw", recording)
        assert cli.main(["check", str(SOLUTIONS), "--seed", str(SEED), "--isolation", "process"]) == 0
        draw.cache_clear()
    return list({(k.key, s, c): (k, s, c) for k, s, c in seen}.values())


def test_every_strategy_of_the_graders_reads_back_exactly_as_drawn(real_draws, cache_home, monkeypatch):
    assert len(real_draws) >= 10  # the six graders' property checks
    calls = counting_draws(monkeypatch)
    first = {keyed.key: properties._draw(keyed, s, c) for keyed, s, c in real_draws}
    assert len(calls) == len(real_draws) and len(list(cache_home.glob("*.json"))) == len(real_draws)
    properties._draw.cache_clear()  # a new process: only the files remain
    calls.clear()
    for keyed, seed_value, count in real_draws:
        kept = properties._draw(keyed, seed_value, count)
        assert casecache.same(kept, first[keyed.key]) and len(kept) > 0
    assert calls == []  # every list was read, none drawn
    for keyed, seed_value, count in real_draws:  # and each is exactly what drawing it again gives
        assert casecache.same(properties._generate(keyed.strategy, seed_value, count), first[keyed.key])


def test_the_graders_draws_all_have_a_grader_folder_and_a_kept_file(real_draws):
    assert {keyed.graders for keyed, _s, _c in real_draws} == {ROOT / "graders"}


EVERY_KIND = (
    (1, -2, 10 ** 30, True, None, "plain", "\u00e9\U0001f600\u200b\x00\ud800 odd", 0.1, -0.0, math.inf, -math.inf,
     math.nan, 5e-324, complex(1.5, -0.0)),
    [(np.arange(6) % 3).astype(dtype).reshape(2, 3) for dtype in
     (np.float64, np.float32, np.float16, np.int64, np.int32, np.int8, np.uint8, np.bool_, np.complex128)],
    (np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.zeros((0, 3)), np.array(-0.0), np.array([np.nan, -np.inf])),
    [np.float64(-0.0), np.float32(1.5), np.float16(np.nan), np.int64(-3), np.int32(7), np.bool_(True)],
    {"a": [1, (2.0, "x")], 3: None, (1, "k"): np.ones(2, dtype=np.float32)},
    ([], (), {}, [[]], ((),)),
)


def test_every_kind_of_case_round_trips_exactly(cache_home):
    text = "every kind"
    assert casecache.keep(text, EVERY_KIND)
    back = casecache.load(text)
    assert casecache.same(back, EVERY_KIND)
    assert type(back[1]) is list and type(back[0]) is tuple and back[3][1].dtype == np.float32
    assert math.copysign(1.0, back[0][10]) == -1.0 and math.copysign(1.0, back[3][0]) == -1.0


def nan_with_payload():
    return struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000123))[0]


@pytest.mark.parametrize("inexact", [
    (nan_with_payload(),),  # JSON keeps a NaN but not its payload
    (np.arange(10.0)[::2],),  # a view: its strides would change
    (np.array([object()], dtype=object),),
    (object(),),
    (np.arange(3).view(np.recarray),),
], ids=["nan-payload", "strided-view", "object-array", "object", "array-subclass"])
def test_a_list_that_would_not_read_back_exactly_is_not_kept(cache_home, inexact):
    assert casecache.keep("inexact", inexact) is False
    assert not cache_home.exists() or list(cache_home.iterdir()) == []


def test_same_tells_apart_what_equality_does_not():
    assert not casecache.same((0.0,), (-0.0,))
    assert not casecache.same([1], (1,))
    assert not casecache.same((1,), (1.0,))
    assert not casecache.same((True,), (1,))
    assert not casecache.same(np.zeros(2, np.float32), np.zeros(2, np.float64))
    assert not casecache.same(np.float64(1.0), 1.0)
    assert not casecache.same(np.zeros((2, 3)), np.zeros((3, 2)))
    assert not casecache.same({"a": 1, "b": 2}, {"b": 2, "a": 1})  # Hypothesis's order is part of the draw
    assert casecache.same((math.nan, [np.array([1.0, math.nan])]), (math.nan, [np.array([1.0, math.nan])]))


def draw_one(keyed, seed_value=SEED, count=20):
    properties._draw.cache_clear()
    return properties._draw(keyed, seed_value, count)


GRADER_STRATEGY = st.tuples(st.floats(-1e6, 1e6), st.lists(st.integers(0, 9), max_size=3))


def planted(kind, text, path):
    if kind == "garbage":
        path.write_bytes(b"\x00\xff not a frame at all")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(path.read_bytes()[:-7])
    elif kind == "trailing":
        path.write_bytes(path.read_bytes() + b"{}")
    elif kind == "list-not-tuple":
        path.write_bytes(dump_frame({"key": text, "cases": encode([1, 2])}))
    elif kind == "a-dict":
        path.write_bytes(dump_frame({"key": text, "cases": encode({"a": 1})}))
    elif kind == "stand-in":
        path.write_bytes(dump_frame({"key": text, "cases": {"__tuple__": [{"__unrepresentable__": "x"}]}}))
    elif kind == "other-key":
        path.write_bytes(dump_frame({"key": text + " but another", "cases": encode((1,))}))
    elif kind == "bad-tag":
        path.write_bytes(dump_frame({"key": text, "cases": {"__evil__": 1}}))
    elif kind == "pickle":
        path.write_bytes(pickle.dumps(Boom()))
    elif kind == "huge-length":
        path.write_bytes(b"\xff\xff\xff\xff" + path.read_bytes()[HEADER_SIZE:])
    elif kind == "folder":
        path.unlink()
        path.mkdir()


class Boom:
    def __reduce__(self):
        return (os.system, ("touch /tmp/casecache-pickle-ran",))


@pytest.mark.parametrize("kind", ["garbage", "empty", "truncated", "trailing", "list-not-tuple", "a-dict", "stand-in",
                                  "other-key", "bad-tag", "pickle", "huge-length", "folder"])
def test_a_damaged_or_planted_file_means_a_fresh_draw_of_the_same_cases(cache_home, monkeypatch, kind):
    keyed = properties._Keyed("grader-check st.tuples(...)", GRADER_STRATEGY, ROOT / "graders")
    calls = counting_draws(monkeypatch)
    first = draw_one(keyed)
    text = casecache.identity(keyed.key, SEED, 20, keyed.graders)
    [path] = cache_home.glob("*.json")
    planted(kind, text, path)
    again = draw_one(keyed)
    assert len(calls) == 2 and casecache.same(again, first)
    assert not os.path.exists("/tmp/casecache-pickle-ran")
    if kind != "folder":  # the file was written again, and is read next time
        assert casecache.same(casecache.load(text), first)
        assert casecache.same(draw_one(keyed), first) and len(calls) == 2


def test_an_unwritable_cache_means_drawing_every_time(tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    keyed = properties._Keyed("unwritable st.tuples(...)", GRADER_STRATEGY, ROOT / "graders")
    calls = counting_draws(monkeypatch)
    first, second = draw_one(keyed), draw_one(keyed)
    assert len(calls) == 2 and casecache.same(first, second) and len(first) == 20
    seen = []
    Cases(seed=SEED, hidden=True, name="unwritable").check(GRADER_STRATEGY, seen.append, examples=5)
    assert len(seen) == 5


def test_the_cache_is_in_the_users_cache_never_the_kit_or_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert casecache.folder() == tmp_path / "home" / ".cache" / "gradient-kit" / "cases"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert casecache.folder() == tmp_path / "xdg" / "gradient-kit" / "cases"
    monkeypatch.chdir(tmp_path)
    properties._draw.cache_clear()
    Cases(seed=SEED, hidden=True, name="where").check(GRADER_STRATEGY, lambda case: None, examples=5)
    assert [p.name for p in tmp_path.iterdir()] == ["xdg"] and len(list(casecache.folder().iterdir())) == 1
    assert ROOT not in casecache.folder().parents


def test_the_key_changes_with_each_thing_the_cases_depend_on(tmp_path):
    graders = tmp_path / "graders"
    graders.mkdir()
    (graders / "test_x.py").write_text("X = 1\n")
    base = casecache.identity("k st.integers()", 1, 60, graders)
    others = {casecache.identity("k st.integers(0, 1)", 1, 60, graders), casecache.identity("k st.integers()", 2, 60, graders),
              casecache.identity("k st.integers()", 1, 150, graders)}
    (graders / "test_x.py").write_text("X = 2\n")  # a composite strategy's repr is only its name
    casecache.sources.cache_clear()
    others.add(casecache.identity("k st.integers()", 1, 60, graders))
    assert base not in others and len(others) == 4
    assert casecache.identity("k <function f at 0x7f00>", 1, 60, graders) is None  # another text in every process
    assert casecache.identity("k st.integers()", 1, 60, None) is None


def test_the_folder_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(casecache, "MAX_FILES", 3)
    now = 1_000_000_000.0
    for age, name in enumerate("abcdef"):
        path = tmp_path / f"{name}.json"
        path.write_text("{}")
        os.utime(path, (now - age * 60, now - age * 60))
    old = tmp_path / "ancient.json"
    old.write_text("{}")
    os.utime(old, (now - 40 * 24 * 3600,) * 2)
    temp = tmp_path / ".partial-x"
    temp.write_text("half")
    os.utime(temp, (now - 7200,) * 2)
    (tmp_path / "notes.txt").write_text("not ours")
    casecache.prune(tmp_path, now)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "c.json", "notes.txt"]


def test_a_second_process_reads_the_cases_instead_of_drawing(tmp_path):
    graders = tmp_path / "graders"
    graders.mkdir()
    (graders / "test_x.py").write_text(textwrap.dedent("""
        import sys
        from hypothesis import strategies as st
        from autograder import properties
        from autograder.properties import Cases

        drawn = []
        generate = properties._generate
        properties._generate = lambda *args: drawn.append(args) or generate(*args)
        seen = []
        Cases(seed=5, hidden=True, name="test_x.py::test_it").check(
            st.lists(st.floats(-1, 1), max_size=4), lambda case: seen.append(repr(case)), examples=40)
        print(len(drawn), len(seen), hash(tuple(seen)))
    """))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    runs = [subprocess.run([sys.executable, str(graders / "test_x.py")], env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs[0][0] == "1" and runs[1][0] == "0"  # the first draws, the second reads
    assert runs[0][1:] == runs[1][1:] and runs[0][1] == "40"
