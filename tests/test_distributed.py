"""Dask: a LocalCluster of two worker processes grades exactly as the local run does."""

from __future__ import annotations

import pytest

from autograder.catalogue import write_submission
from autograder.model import to_dict
from autograder.runner import grade_batch
from conftest import MUTANTS, ROOT, SOLUTIONS, settings

import distributed  # noqa: E402  (in the test extra, so that this proof runs in CI)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=":0", silence_logs=40)
    with distributed.Client(cluster) as connected:
        yield connected
    cluster.close()


def test_local_cluster_results_equal_the_local_run(client, tmp_path):
    from autograder.distributed import grade_on_dask

    import os
    import shutil

    mutant = next(e for e in MUTANTS if e.exercise == "scalar_chain")
    odd = tmp_path / "odd"  # the stubs, with a link, a folder and a file too large in place of three
    shutil.copytree(ROOT / "exercises", odd)
    for name in ("scalar_chain.py", "clipping.py", "init_std.py"):
        (odd / name).unlink()
    os.symlink(SOLUTIONS / "scalar_chain.py", odd / "scalar_chain.py")
    (odd / "clipping.py").mkdir()
    (odd / "init_std.py").write_text("#" * (2 << 20))
    students = [("reference", SOLUTIONS), ("odd", odd),
                ("mutant", write_submission(mutant, SOLUTIONS, tmp_path / "mutant"))]
    chosen = settings(seed=99)
    local = grade_batch(students, chosen, jobs=1)
    seen = []
    remote = grade_on_dask(students, chosen, "", seen.append, client=client)
    assert [to_dict(r) for r in remote] == [to_dict(r) for r in local]
    assert sorted(r.id for r in seen) == ["mutant", "odd", "reference"]
    odd_messages = {t.message for e in remote[1].exercises for t in e.tests} | {
        e.problem.message for e in remote[1].exercises if e.problem is not None}
    assert any("symbolic link" in m for m in odd_messages) and any("is a folder" in m for m in odd_messages)
    assert remote[0].score == remote[0].max_score > remote[2].score


def test_a_worker_with_several_threads_stops_the_run(tmp_path):
    from autograder.distributed import ClusterProblem, check_cluster

    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as threaded:
        with pytest.raises(ClusterProblem, match="--nthreads 1"):
            check_cluster(threaded, settings())


def test_grade_command_on_the_cluster_writes_reports_here(client, capsys, tmp_path):
    import json
    import shutil

    from autograder import cli

    (tmp_path / "class" / "ada").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "scalar_chain.py", tmp_path / "class" / "ada")
    (tmp_path / "class" / "bo").mkdir()
    code = cli.main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--seed", "4",
                     "--executor", "dask", "--scheduler", client.scheduler.address, "--allow-unsandboxed"])
    assert code == 0, capsys.readouterr().err
    students = json.loads((tmp_path / "out" / "results.json").read_text())["students"]
    assert [s["id"] for s in students] == ["ada", "bo"]
    assert students[0]["exercises"][0]["score"] == students[0]["exercises"][0]["max_score"] > 0
    assert (tmp_path / "out" / "reports" / "bo.html").is_file()
    first = (tmp_path / "out" / "results.json").read_text()
    # A restarted run reuses the stored results: nobody is sent to the cluster again.
    code = cli.main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"),
                     "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "--allow-unsandboxed"])
    text = capsys.readouterr().out
    assert code == 0 and "(0 graded now, 2 kept)" in text
    assert json.loads((tmp_path / "out" / "results.json").read_text())["students"] == json.loads(first)["students"]


def test_no_scheduler_is_one_sentence(capsys, tmp_path):
    from autograder import cli

    (tmp_path / "class" / "ada").mkdir(parents=True)
    code = cli.main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--executor", "dask",
                     "--allow-unsandboxed"])
    err = capsys.readouterr().err
    assert code == 2 and "--scheduler tcp://HOST:PORT" in err and not (tmp_path / "out").exists()


def _lose_the_worker_on(student_id: str, log: str) -> None:
    """Run on a Dask worker: from now on, a shard holding ``student_id`` fails there as a lost worker
    would, and every shard graded is written to ``log``."""
    from autograder import distributed as kit_distributed

    original = kit_distributed.grade_shard

    def losing(shard_students, shard_settings):
        ids = [sid for sid, _folder in shard_students]
        with open(log, "a") as handle:
            handle.write(" ".join(ids) + "\n")
        if student_id in ids:
            raise RuntimeError("the worker was lost")
        return original(shard_students, shard_settings)
    kit_distributed.grade_shard = losing


def test_a_shard_that_fails_on_the_cluster_costs_only_the_row_of_the_student_who_failed_alone(tmp_path):
    from autograder.distributed import grade_on_dask

    mutant = next(e for e in MUTANTS if e.exercise == "scalar_chain")
    students = [("reference", SOLUTIONS), ("breaker", write_submission(mutant, SOLUTIONS, tmp_path / "breaker")),
                ("again", SOLUTIONS)]
    chosen = settings(seed=5, exercises=("scalar_chain",))
    local = grade_batch([students[0]], chosen, jobs=1)[0]
    log = tmp_path / "shards.log"
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                  dashboard_address=":0", silence_logs=40) as cluster, distributed.Client(cluster) as one:
        one.run(_lose_the_worker_on, "breaker", str(log))
        results = grade_on_dask(students, chosen, "", client=one)
    assert [r.id for r in results] == ["reference", "breaker", "again"]
    assert to_dict(results[0]) == to_dict(local) and to_dict(results[2]) == {**to_dict(local), "id": "again"}
    assert results[1].status == "error" and "failed on the cluster every time" in results[1].message
    graded = log.read_text().splitlines()
    assert graded[:2] == ["reference breaker again"] * 2  # one shard of three, tried twice
    assert sorted(graded[2:6]) == ["again", "breaker", "breaker", "reference"]  # then each alone, twice at most
    assert graded[6:] == ["breaker", "breaker"]  # then the one who still failed, with the cluster to itself
