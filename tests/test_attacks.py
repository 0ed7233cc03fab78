"""Hostile submissions, graded end to end beside honest students, in both isolation modes.

For every attack in tests/attacks: the attacked exercise gets full marks only when the function is
genuinely correct, the attacker's other exercise and every honest student are graded exactly as
in a run without attackers, everyone gets a row and a report, no process outlives the run,
nothing outside the output folder changes, nothing reaches the network, no secret from the
grader's environment reaches any output, every output stays small, `check` prints no terminal
control sequence, and the run ends within its time bound.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from autograder import sandbox
from autograder.model import GRADER_FAILED, SANDBOX_FAILED
from conftest import ROOT, SOLUTIONS

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user

ATTACKS_DIR = ROOT / "tests" / "attacks"
ATTACKS = sorted(p.name for p in ATTACKS_DIR.iterdir() if p.is_dir())
# Source that several attackers share, put in place of its placeholder line as the others are filled in.
SHARED_SOURCES = {"# __HOSTILE_RETURNS__\n": (ATTACKS_DIR / "hostile_returns.py").read_text()}
SEED = 99
RUN_BOUND_SECONDS = 900
CHECK_BOUND_SECONDS = 300
# A secret in the grader's environment, as a CI token would be: no output may ever contain it.
CANARY = f"canary-{uuid.uuid4().hex}"
# Attackers whose text must reach a terminal inert, graded again alone by `check`.
CHECKED = ("terminal_escape", "lone_surrogate", "huge_count", "import_bloat", "leak_environment")
ESCAPE_NAME = "escape \x1b]0;pwned\x07\x1b[2J\x9b1m name\nFORGED-ROW: 102 points"
# Far above what a student's results can take now, far below what amplification made of them
# (hundreds of MB).
REPORT_BOUND_BYTES = 1 << 20
RESULTS_BOUND_BYTES_PER_STUDENT = 512 << 10
CONTROL_CHARACTERS = [chr(c) for c in (*range(0, 9), *range(11, 32), *range(0x7F, 0xA0))]
MODES = ["bubblewrap", "process"]
AS_ROOT = os.getuid() == 0
BAD_FILES = {
    "bad_huge_file": "is 52.4 MB; a solution file must be under 1 MB",
    "bad_undecodable": "is not UTF-8 text",
    "bad_folder_as_file": "is a folder, not a Python file",
    "bad_empty_file": "is empty",
    "bad_symlink_out": "is a symbolic link",
    "bad_nul_bytes": "raised|null bytes|syntax error",
}


class Listener:
    """A TCP and a UDP socket on loopback that record whatever reaches them."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        for sock in (self.tcp, self.udp):
            sock.settimeout(0.2)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.tcp.accept()
                self.received.append(b"tcp-connect:" + connection.recv(1024))
                connection.close()
            except OSError:
                pass
            try:
                self.received.append(b"udp:" + self.udp.recv(1024))
            except OSError:
                pass

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.tcp.close()
        self.udp.close()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under folder (no caches) with a hash of its bytes, or its link target."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if any(part in ("__pycache__", ".git", ".pytest_cache") or part.endswith(".egg-info") for part in path.parts):
            continue
        if path.is_symlink():
            found[str(path)] = "link:" + os.readlink(path)
        elif path.is_file():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def surviving_processes(tag: str) -> list[str]:
    """Live processes started by the run tagged ``tag`` (the tag is in their environment)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"GRADER_RUN_TAG={tag}".encode() in environ and state != "Z":
            alive.append(f"{entry}: {cmdline[:200]!r}")
    return alive


def shared_memory() -> set[str]:
    """System V shared-memory segments on the host (key and owner), which outlive any process."""
    try:
        lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    except OSError:
        return set()
    return {" ".join(line.split()[:2] + line.split()[7:8]) for line in lines}


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def claimed(attack: str, mode: str) -> bool:
    """Whether the README claims this mode contains the attack: without root the fallback has limits only."""
    meta = json.loads((ATTACKS_DIR / attack / "attack.json").read_text())
    return mode == "bubblewrap" or AS_ROOT or not meta.get("needs_isolation")


def build_class(root: Path, values: dict[str, str], mode: str = "bubblewrap") -> Path:
    submissions = root / "class"
    alice = submissions / "honest_alice"
    alice.mkdir(parents=True)
    for source in SOLUTIONS.glob("*.py"):
        shutil.copy(source, alice)
    bob = submissions / "honest_bob"
    bob.mkdir()
    for name in ("residual.py", "init_std.py"):
        shutil.copy(SOLUTIONS / name, bob)
    (bob / "scalar_chain.py").write_text(
        "def scalar_gradient_chain(depth, layer_scale):\n    g = 1.0\n    for _ in range(depth):\n"
        "        g *= layer_scale\n    return g\n")
    for attack in (a for a in ATTACKS if claimed(a, mode)):
        folder = submissions / attack
        folder.mkdir()
        meta = json.loads((ATTACKS_DIR / attack / "attack.json").read_text())
        for source in (ATTACKS_DIR / attack).glob("*.py"):
            (folder / source.name).write_text(fill(source.read_text(), {**SHARED_SOURCES, **values}))
        if "symlink" in meta:
            os.symlink(fill(meta["symlink"], values), folder / f"{meta['exercise']}.py")
        other = "scalar_chain.py" if meta["exercise"] == "residual" else "residual.py"
        shutil.copy(SOLUTIONS / other, folder)
    bad = {name: submissions / name for name in BAD_FILES}
    for folder in bad.values():
        folder.mkdir()
    (bad["bad_huge_file"] / "scalar_chain.py").write_bytes(b"# padding\n" * 5_240_000)
    (bad["bad_undecodable"] / "scalar_chain.py").write_bytes(b"def scalar_gradient_chain(d, s):\n    return s ** d  # \xff\xfe\n")
    (bad["bad_folder_as_file"] / "scalar_chain.py").mkdir()
    (bad["bad_empty_file"] / "scalar_chain.py").write_text("")
    os.symlink("/etc/passwd", bad["bad_symlink_out"] / "scalar_chain.py")
    (bad["bad_nul_bytes"] / "scalar_chain.py").write_bytes(b"def scalar_gradient_chain(d, s):\n    return s ** d\x00\n")
    odd = submissions / "odd name -- ünïcode 'quoted' $HOME"
    odd.mkdir()
    shutil.copy(SOLUTIONS / "scalar_chain.py", odd)
    (submissions / ESCAPE_NAME).mkdir()  # a folder name that would drive the instructor's terminal
    shutil.copy(SOLUTIONS / "scalar_chain.py", submissions / ESCAPE_NAME)
    os.symlink(SOLUTIONS, submissions / "linked_folder")
    return submissions


def grade(submissions: Path, out: Path, isolation: str, tag: str = "") -> subprocess.CompletedProcess:
    # Eight pool processes on two cores, in shards of two: the hostile class mostly waits on its
    # sleepers' timeouts, so this both shows that a sleeper holds up only its own pool process and
    # grades the class in about half the time of --jobs 2.
    return subprocess.run(
        [sys.executable, str(ROOT / "grade.py"), "grade", str(submissions), "--out", str(out), "--seed", str(SEED),
         "--timeout", "1", "--jobs", "8", "--shard-size", "2", "--isolation", isolation, "--allow-unsandboxed"],
        capture_output=True, timeout=RUN_BOUND_SECONDS,
        env={**os.environ, "GRADER_RUN_TAG": tag, "GRADER_CANARY_SECRET": CANARY})


def check(folder: Path, out: Path, isolation: str) -> dict:
    """`grade.py check` on one folder, as a student runs it: its raw output bytes and files."""
    out.mkdir()
    completed = subprocess.run(
        [sys.executable, str(ROOT / "grade.py"), "check", str(folder), "--seed", str(SEED), "--timeout", "1",
         "--isolation", isolation, "--markdown", str(out / "summary.md"), "--json", str(out / "check.json")],
        capture_output=True, timeout=CHECK_BOUND_SECONDS, env={**os.environ, "GRADER_CANARY_SECRET": CANARY})
    return {"returncode": completed.returncode, "stdout": completed.stdout, "stderr": completed.stderr,
            "files": {p.name: p.read_bytes() for p in out.iterdir()}}


def by_id(out: Path) -> dict[str, dict]:
    return {s["id"]: s for s in json.loads((out / "results.json").read_text())["students"]}


def verdicts(student: dict) -> dict:
    return {e["name"]: [(t["name"], t["status"], t["score"]) for t in e["tests"]] for e in student["exercises"]}


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    root = tmp_path_factory.mktemp("baseline")
    submissions = build_class(root, {"__PORT__": "9", "__REPO__": str(ROOT), "__CLASS__": "", "__OUT__": "",
                                     "__CANARY__": str(root)})
    honest = root / "honest"
    honest.mkdir()
    for name in ("honest_alice", "honest_bob"):
        shutil.copytree(submissions / name, honest / name)
    completed = grade(honest, root / "out", sandbox.best_isolation())
    assert completed.returncode == 0, completed.stderr
    return by_id(root / "out")


@pytest.fixture(scope="module", params=MODES)
def arena(request, tmp_path_factory):
    mode = request.param
    if mode == "bubblewrap" and not sandbox.bubblewrap_works():
        if os.environ.get("CI"):
            pytest.fail("CI must run the attack suite under bubblewrap; install the bubblewrap package")
        pytest.skip("bubblewrap is not available on this machine")
    root = tmp_path_factory.mktemp(f"arena-{mode}")
    canary, out = root / "canary", root / "out"
    canary.mkdir()
    listener = Listener()
    values = {"__PORT__": str(listener.port), "__REPO__": str(ROOT), "__OUT__": str(out),
              "__CANARY__": str(canary)}
    values["__CLASS__"] = str(root / "class")
    submissions = build_class(root, values, mode)
    before_repo, before_class, before_shm = snapshot(ROOT), snapshot(submissions), shared_memory()
    try:
        started = time.monotonic()
        completed = grade(submissions, out, mode, tag=f"attack-suite-{os.getpid()}-{mode}")
        seconds = time.monotonic() - started
        checked = {name: check(submissions / name, root / f"check-{name}", mode) for name in CHECKED}
    finally:
        listener.close()
    completed.stdout, completed.stderr = (stream.decode("utf-8", "replace") for stream in
                                          (completed.stdout, completed.stderr))
    return {"mode": mode, "completed": completed, "out": out, "canary": canary, "listener": listener,
            "seconds": seconds, "checked": checked,
            "submissions": submissions, "repo_changed": snapshot(ROOT) != before_repo,
            "class_changed": snapshot(submissions) != before_class,
            "new_shared_memory": shared_memory() - before_shm,
            "survivors": surviving_processes(f"attack-suite-{os.getpid()}-{mode}"), "results": by_id(out) if (out / "results.json").exists() else {}}


def test_the_run_finishes_and_records_its_isolation(arena):
    assert arena["completed"].returncode == 0, arena["completed"].stderr[-2000:]
    results = json.loads((arena["out"] / "results.json").read_text())
    assert results["isolation"] == arena["mode"]
    assert f"isolation: {arena['mode']}" in arena["completed"].stderr


def skip_unclaimed(arena: dict, attack: str) -> None:
    if not claimed(attack, arena["mode"]):
        pytest.skip(f"{attack} needs namespaces or a uid of its own, which the fallback lacks without root")


@pytest.mark.parametrize("attack", ATTACKS)
def test_attacked_exercise_gets_no_unearned_marks(arena, attack):
    skip_unclaimed(arena, attack)
    meta = json.loads((ATTACKS_DIR / attack / "attack.json").read_text())
    exercise = next(e for e in arena["results"][attack]["exercises"] if e["name"] == meta["exercise"])
    if not meta["genuinely_correct"]:
        assert exercise["score"] < exercise["max_score"], f"{attack} got full marks in {arena['mode']} mode"
    else:
        assert exercise["score"] == exercise["max_score"]


@pytest.mark.parametrize("attack", ATTACKS)
def test_no_attackers_check_is_blamed_on_the_host(arena, attack):
    """Whatever an attacker's code sends, its points are lost or earned, never withheld as the grader's failure."""
    skip_unclaimed(arena, attack)
    blamed = [t["name"] for e in arena["results"][attack]["exercises"] for t in e["tests"]
              if t["status"] == "error" and t["message"].startswith((GRADER_FAILED, SANDBOX_FAILED))]
    assert blamed == [], f"{attack} in {arena['mode']} mode"


@pytest.mark.parametrize("attack", ATTACKS)
def test_attackers_other_exercise_is_graded_as_if_honest(arena, baseline, attack):
    skip_unclaimed(arena, attack)
    meta = json.loads((ATTACKS_DIR / attack / "attack.json").read_text())
    other = "scalar_chain" if meta["exercise"] == "residual" else "residual"
    assert verdicts(arena["results"][attack])[other] == verdicts(baseline["honest_alice"])[other]


def test_honest_students_are_graded_exactly_as_without_attackers(arena, baseline):
    for name in ("honest_alice", "honest_bob"):
        assert verdicts(arena["results"][name]) == verdicts(baseline[name]), name
        assert arena["results"][name]["score"] == baseline[name]["score"]


def test_no_process_outlives_the_run(arena):
    assert arena["survivors"] == []


def test_no_shared_memory_outlives_the_run(arena):
    assert arena["new_shared_memory"] == set()


def test_nothing_outside_the_output_folder_changed(arena):
    assert not arena["repo_changed"], "a file of the kit changed"
    assert not arena["class_changed"], "a file in the submissions changed"
    assert sorted(p.name for p in arena["canary"].iterdir()) == []
    assert not Path("/tmp/big-file").exists() and not Path("/tmp/results.json").exists()


def test_attackers_cannot_write_into_the_output_folder(arena):
    out = arena["out"]
    assert sorted(p.name for p in out.iterdir()) == [".store", "gradebook.csv", "index.html", "reports",
                                                    "results.json", "summary.json"]
    # the store holds the run's terms and one record per student graded, nothing a student named
    assert len([p for p in (out / ".store").iterdir()]) <= len(arena["results"]) + 1
    assert all(p.suffix == ".json" and p.is_file() and not p.is_symlink() for p in (out / ".store").iterdir())
    if claimed("write_results", arena["mode"]):
        assert "100/100" not in (out / "reports" / "write_results.html").read_text()
    assert "write_results,100" not in (out / "gradebook.csv").read_text()


def test_nothing_reaches_the_network(arena):
    assert arena["listener"].received == []


@pytest.mark.parametrize("student", sorted(BAD_FILES))
def test_bad_files_get_a_one_sentence_reason_and_the_batch_goes_on(arena, student):
    import re

    exercise = arena["results"][student]["exercises"][0]
    assert exercise["score"] == 0
    # Said once for the exercise (its problem), not in each check.
    messages = {t["message"] or exercise["problem"]["message"] for t in exercise["tests"]}
    assert len(messages) == 1, messages
    assert re.search(BAD_FILES[student], messages.pop())


def test_odd_names_and_linked_folders_each_get_a_row(arena):
    results = arena["results"]
    odd = results["odd name -- ünïcode 'quoted' $HOME"]
    assert odd["exercises"][0]["score"] == odd["exercises"][0]["max_score"]
    assert results["linked_folder"]["status"] == "error" and results["linked_folder"]["score"] == 0
    assert "symbolic link" in results["linked_folder"]["message"]
    rows = (arena["out"] / "gradebook.csv").read_text().splitlines()
    assert len(rows) == 1 + len(results)


def test_everyone_gets_a_row_and_a_report(arena):
    from autograder.names import report_stems

    students = sorted(p.name for p in arena["submissions"].iterdir())
    stems = report_stems(students)
    assert sorted(arena["results"]) == students
    course = [e["name"] for e in arena["results"]["honest_alice"]["exercises"]]
    for name in students:
        assert [e["name"] for e in arena["results"][name]["exercises"]] == course, name
        for suffix in (".html", ".md"):
            assert (arena["out"] / "reports" / f"{stems[name]}{suffix}").is_file(), name


def test_the_run_ends_within_its_bound(arena):
    assert arena["seconds"] < RUN_BOUND_SECONDS


def every_output(arena) -> dict[str, bytes]:
    """Everything a run showed or wrote: its files, its terminal, and each `check` run's."""
    found = {str(p): p.read_bytes() for p in arena["out"].rglob("*") if p.is_file()}
    found["grade stdout"] = arena["completed"].stdout.encode()
    found["grade stderr"] = arena["completed"].stderr.encode()
    for name, run in arena["checked"].items():
        found[f"check {name} stdout"], found[f"check {name} stderr"] = run["stdout"], run["stderr"]
        found.update({f"check {name} {file}": data for file, data in run["files"].items()})
    return found


def test_no_secret_of_the_graders_environment_reaches_any_output(arena):
    leaks = [where for where, data in every_output(arena).items() if CANARY.encode() in data]
    assert leaks == []
    # The attacker did read an environment (its own): the search above can find what it printed.
    assert b"OPENBLAS_NUM_THREADS" in (arena["out"] / "reports" / "leak_environment.html").read_bytes()


def test_every_output_stays_small(arena):
    reports = {p.name: p.stat().st_size for p in (arena["out"] / "reports").iterdir()}
    assert {name: size for name, size in reports.items() if size > REPORT_BOUND_BYTES} == {}
    results = (arena["out"] / "results.json").stat().st_size
    assert results < RESULTS_BOUND_BYTES_PER_STUDENT * len(arena["results"])
    bloated = json.dumps(arena["results"]["import_bloat"])
    assert len(bloated) < RESULTS_BOUND_BYTES_PER_STUDENT
    for name, run in arena["checked"].items():
        assert len(run["stdout"]) < REPORT_BOUND_BYTES, name
        assert all(len(data) < REPORT_BOUND_BYTES for data in run["files"].values()), name


def test_an_exercise_wide_failure_is_stored_once(arena):
    exercise = next(e for e in arena["results"]["import_bloat"]["exercises"] if e["name"] == "normalization")
    graded = [t for t in exercise["tests"] if t["status"] != "pending"]
    assert len(graded) > 1 and exercise["problem"]["message"]
    assert [t["message"] for t in graded] == [""] * len(graded)


@pytest.mark.parametrize("attacker", CHECKED)
def test_check_prints_no_control_characters_and_finishes(arena, attacker):
    run = arena["checked"][attacker]
    assert run["returncode"] in (0, 1), run["stderr"][-2000:]
    assert b"Traceback" not in run["stderr"]
    for where, data in (("stdout", run["stdout"]), ("stderr", run["stderr"]), ("summary.md", run["files"]["summary.md"])):
        text = data.decode("utf-8")  # also: it is valid UTF-8
        assert [c for c in CONTROL_CHARACTERS if c in text] == [], where
    assert not any(c in run["files"]["check.json"].decode("utf-8") for c in ("\x1b", "\x9b", "\x07"))
    assert b"Total " in run["stdout"] and b"checks passed" in run["stdout"]


def test_the_class_summary_prints_no_control_characters(arena):
    text = arena["completed"].stdout + arena["completed"].stderr
    assert [c for c in CONTROL_CHARACTERS if c in text] == []
    assert "escape" in arena["completed"].stdout
    assert "\nFORGED-ROW" not in text  # a newline in a name cannot start a line of its own
