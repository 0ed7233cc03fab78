"""Groups left by a grader killed with SIGKILL are removed by the next run; nobody else's are touched."""

from __future__ import annotations

import os

from autograder import cgroup
from test_host import fake_cgroup2

DEAD = 999_999_999  # above any pid_max Linux allows: never a live process


def test_cgroup2_groups_of_dead_graders_are_removed_before_a_new_one_is_made(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    monkeypatch.delenv(cgroup.DELEGATED_ENV, raising=False)
    kit = root / "gradient-kit"
    kit.mkdir()
    stale = [kit / f"worker-{DEAD}-0123abcd", kit / f"worker-{DEAD}-ffffffff"]
    kept = [kit / f"worker-{os.getpid()}-0123abcd",  # a live grader's
            kit / f"worker-{DEAD}-members0",  # not a name the kit makes
            kit / "course-2026",  # someone else's
            kit / f"worker-{DEAD}-abcdef01"]  # still holds something: the kernel would refuse too
    for folder in stale + kept:
        folder.mkdir()
    (kept[-1] / "cgroup.procs").write_text("4242\n")
    group = cgroup.WorkerCgroup.create(1 << 30, 8, root=root)
    assert [folder for folder in stale if folder.exists()] == []
    assert [folder for folder in kept if not folder.exists()] == []
    assert group.folders[0].is_dir() and group.folders[0].parent == kit


def test_cgroup1_groups_of_dead_graders_are_removed_in_each_hierarchy(tmp_path, monkeypatch):
    root = tmp_path / "v1"
    stale, kept = [], []
    for controller in ("pids", "memory"):
        (root / controller / "parent").mkdir(parents=True)
        (root / controller / "cgroup.procs").write_text("")
        stale.append(root / controller / "parent" / f"gradient-kit-worker-{DEAD}-0123abcd")
        kept.append(root / controller / "parent" / f"worker-{DEAD}-0123abcd")  # v2's name, not v1's place
        kept.append(root / controller / "parent" / f"gradient-kit-worker-{os.getpid()}-0123abcd")
    for folder in stale + kept:
        folder.mkdir()
    proc = tmp_path / "proc-cgroup"
    proc.write_text("8:pids:/parent\n4:memory:/parent\n0::/\n")
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    assert cgroup.WorkerCgroup.create(5 << 20, 9, root=root, proc_cgroup=proc).version == 1
    assert [folder for folder in stale if folder.exists()] == []
    assert [folder for folder in kept if not folder.exists()] == []
