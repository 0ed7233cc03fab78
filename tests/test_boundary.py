"""The trust boundary: what a worker sends is made valid and bounded on arrival, one student's data
costs only that student's row, and a sandbox that cannot start is never blamed on the student."""

from __future__ import annotations

import json
from dataclasses import asdict

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from autograder import codec, jailcommand, sandbox, sanitize
from autograder.client import StudentModule
from autograder.model import BatchResult, CheckResult, Output, batch_from_dict, exercise_result, student_result
from autograder.output import write_batch
from autograder.render.tables import render_json
from autograder.problems import SandboxFailed, WorkerCrashed
from conftest import ROOT, SOLUTIONS

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user


def parsed(message: dict) -> dict:
    """A reply as the grader gets it: through JSON, as a worker would send it, with its raw bytes."""
    raw = json.dumps(message).encode()
    return sanitize.reply(codec.load_frame(raw), raw)


def test_lone_surrogates_become_visible_escapes_everywhere():
    reply = parsed({"ok": True, "value": {"__dict__": [["k\ud800", "v\udfff"]]}, "extra": ["\ud83d"],
                    "output": {"head": "a\ud800", "tail": "", "total": 2}})
    assert reply["value"] == {"__dict__": [["k\\ud800", "v\\udfff"]]} and reply["extra"] == ["\\ud83d"]
    assert reply["output"] == {"head": "a\\ud800", "tail": "", "total": 7}  # the total counts the escape
    json.dumps(reply, ensure_ascii=False).encode("utf-8")


json_trees = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**1100), max_value=2**1100) | st.floats(allow_nan=False)
    | st.text(st.characters() | st.integers(0xD800, 0xDFFF).map(chr), max_size=8),  # lone surrogates too
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@example([2**1024 - 1, "\udfff"], json.dumps)
@example({"k": "9" * 299 + "x" + "9" * 299}, json.dumps)
@given(json_trees, st.sampled_from([json.dumps, lambda v: json.dumps(v, ensure_ascii=False)]))
def test_a_reply_skips_the_walk_only_when_the_walk_would_change_nothing(value, dumps):
    try:
        raw = dumps({"ok": True, "value": value}).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate written raw is not UTF-8: no frame holds one
        return
    outcomes = []
    for given_raw in (None, raw):
        try:
            outcomes.append(sanitize.reply(codec.load_frame(raw), given_raw))
        except codec.CodecError as exc:
            outcomes.append(("refused", str(exc)))
    assert outcomes[0] == outcomes[1]


def test_pairs_of_surrogates_are_real_characters_and_stay():
    assert parsed({"ok": True, "value": "\U0001f600"})["value"] == "\U0001f600"


def test_a_number_too_large_for_any_float_is_refused():
    for too_large in (10**400, 2**1024 - 1, -(2**1024 - 1), 2**1024):  # 2**1024 - 1 has only 1024 bits
        with pytest.raises(codec.CodecError):
            parsed({"ok": True, "value": [1, {"__tuple__": [too_large]}]})
    assert parsed({"ok": True, "value": int(1.7976931348623157e308)})["value"] == int(1.7976931348623157e308)
    assert parsed({"ok": True, "value": 2**1000})["value"] == 2**1000


def test_counts_are_clamped_and_lies_about_them_are_zero():
    for total, expected in ((10**4000, sanitize.MAX_COUNT), (-5, 0), (True, 0), ("9", 0), (12, 12)):
        reply = sanitize.reply({"output": {"head": "x", "tail": "", "total": total}})
        assert reply["output"]["total"] == expected
        f"{reply['output']['total']:,}"  # the view's formatting takes it


def test_error_fields_are_bounded_and_typed():
    huge = "T" * 16_000_000
    reply = parsed({"ok": False, "error": {"kind": "syntax", "type": huge, "message": huge, "traceback": huge,
                                           "line": 10**300, "mro": ["M" * 1000] * 100}})
    error = reply["error"]
    assert len(error["type"]) <= sanitize.NAME_CHARS and len(error["message"]) <= sanitize.MESSAGE_CHARS
    assert len(error["traceback"]) <= sanitize.DETAIL_CHARS and "characters cut" in error["message"]
    assert error["line"] == 10**9 and len(error["mro"]) == 20 and all(len(n) <= 80 for n in error["mro"])
    assert parsed({"ok": False, "error": "not a dict"})["error"] is None


def test_deep_nesting_does_not_exhaust_the_stack():
    deep = "[" * 900 + "]" * 900
    reply = sanitize.reply(codec.load_frame(('{"ok": true, "value": ' + deep + "}").encode()))
    assert reply["ok"] is True


def test_text_keeps_the_end_it_is_asked_to_and_says_what_was_cut():
    assert sanitize.text("abcdef" * 100, 50).endswith("characters cut ...]")
    assert sanitize.text("abcdef" * 100, 50, keep="tail").endswith("abcdef")
    assert len(sanitize.text("x" * 10_000, 100)) == 100 and sanitize.text(3) == ""


def check(name: str, **fields) -> CheckResult:
    return CheckResult(name, "D.", 0.0, 1.0, "failed", **fields)


def test_one_students_unrenderable_data_costs_only_their_report(tmp_path):
    good = student_result("good", (exercise_result("scalar_chain", "S", (check("t", message="ok"),)),))
    odd = student_result("odd", (exercise_result("scalar_chain", "S", (check("t", message="lone \ud800"),)),))
    # A cut count no formatter takes stands for any failure while rendering one student.
    broken = student_result("broken", (exercise_result("scalar_chain", "S", (
        check("t", output=Output("x", "y", 10**5000)),)),))
    batch = BatchResult(1, "process", (good, broken, odd), "0", "")
    write_batch(batch, tmp_path, ROOT / "templates")
    results = {s["id"]: s for s in json.loads((tmp_path / "results.json").read_text())["students"]}
    assert results["good"]["status"] == "graded" and results["odd"]["status"] == "graded"
    assert results["broken"]["status"] == "error" and "not your fault" in results["broken"]["message"]
    assert "not your fault" in (tmp_path / "reports" / "broken.html").read_text()
    assert "lone" in (tmp_path / "reports" / "odd.md").read_text()
    assert len((tmp_path / "gradebook.csv").read_text().splitlines()) == 4


def test_an_exercise_wide_problem_is_stored_once(tmp_path):
    submission = tmp_path / "s"
    submission.mkdir()
    (submission / "scalar_chain.py").write_text(
        "raise type('E' * 3_000_000, (Exception,), {})('m' * 3_000_000)\n")
    from conftest import settings
    from autograder.runner import grade_one

    student = grade_one("s", submission, settings(isolation="process", only_submitted=True))
    exercise = student.exercises[0]
    assert exercise.problem is not None and "while being imported" in exercise.problem.message
    assert all(t.message == "" for t in exercise.tests if t.status != "pending")
    assert len(json.dumps(asdict(exercise))) < 50_000  # a 3 MB name and message, 9 checks
    text = render_json(BatchResult(1, "process", (student,)))
    assert batch_from_dict(json.loads(text)).students[0] == student


def failing_bwrap(monkeypatch, spawned: list) -> None:
    prefix = jailcommand.bwrap_prefix
    real_spawn = sandbox.spawn
    monkeypatch.setattr(jailcommand, "bwrap_prefix", lambda path, limits=sandbox.Limits():
                        prefix(path, limits)[:1] + ["--no-such-option"] + prefix(path, limits)[1:])
    monkeypatch.setattr(sandbox, "spawn", lambda *args, **kwargs: spawned.append(args) or real_spawn(*args, **kwargs))


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="bubblewrap is not available on this machine")
def test_a_sandbox_that_cannot_start_is_the_hosts_error_after_one_retry(monkeypatch):
    spawned: list = []
    failing_bwrap(monkeypatch, spawned)
    module = StudentModule(SOLUTIONS / "scalar_chain.py", "scalar_chain", "bubblewrap")
    with pytest.raises(SandboxFailed) as caught:
        module.call("scalar_gradient_chain", 3, 0.5)
    module.close()
    assert len(spawned) == 2
    assert "not your fault" in caught.value.message and "no-such-option" in caught.value.message
    assert not isinstance(caught.value, WorkerCrashed)


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="bubblewrap is not available on this machine")
def test_a_student_who_ends_the_process_is_still_told_so(tmp_path):
    # It even writes bwrap's kind of complaint where bwrap's own stderr goes (pid 1 in the sandbox).
    (tmp_path / "scalar_chain.py").write_text(
        "import os\ntry:\n    open('/proc/1/fd/2', 'w').write('bwrap: fake failure\\n')\nexcept OSError:\n    pass\n"
        "os._exit(1)\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    with pytest.raises(WorkerCrashed):
        module.call("scalar_gradient_chain", 3, 0.5)
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="bubblewrap is not available on this machine")
def test_bwrap_itself_starts_without_the_graders_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("GRADER_TEST_CANARY", "canary-6f1d")
    (tmp_path / "scalar_chain.py").write_text(
        "import glob\ndef scalar_gradient_chain(depth, scale):\n"
        "    return ''.join(open(p, 'rb').read().decode('latin-1') for p in glob.glob('/proc/*/environ'))\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    seen = module.call("scalar_gradient_chain", 1, 1.0).value
    # Seen from the host: bubblewrap's own process (the sandbox's) has a PATH but not the canary.
    environ = Path(f"/proc/{module._process.pid}/environ").read_bytes() if hasattr(module._process, "pid") else None
    module.close()
    assert seen == ""  # the student's /proc is an empty folder: no process's environment at all
    assert environ is None or (b"PATH=" in environ and b"canary-6f1d" not in environ)


def test_the_seccomp_filter_is_well_formed_and_known_only_where_its_numbers_are():
    from autograder import seccomp

    for machine in ("x86_64", "aarch64"):
        program = seccomp.program(machine)
        assert program and len(program) % 8 == 0 and len(program) // 8 < 160  # a linear scan per system call
    assert seccomp.program("sparc64") is None


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_cannot_hold_ram_in_shared_memory_memfds_or_socket_buffers(tmp_path):
    (tmp_path / "scalar_chain.py").write_text(
        "import ctypes, os, socket\n"
        "def made(make):\n"
        "    try:\n        make()\n        return True\n"
        "    except OSError:\n        return False\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    shm = libc.shmget(0x5eed, 1 << 20, 0o1000 | 0o600)\n"
        "    return [shm, made(lambda: os.memfd_create('x')), made(socket.socketpair), made(os.pipe)]\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [-1, False, False, False]
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_cannot_take_numbers_from_the_hosts_inode_counter_nor_see_a_proc(tmp_path):
    """Pipes, hugetlb mappings, userfaultfd, memfd_secret and procfs entries take their inode numbers
    from one host-wide counter: a worker sent a hidden input moved it by that input, and a later
    worker, in any sandbox, read it back and showed it in a public check. pidfd_open reads another.
    All are refused, /proc is an empty folder, and a plain mapping still works."""
    (tmp_path / "scalar_chain.py").write_text(
        "import ctypes, os\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    libc.syscall.restype = ctypes.c_long\n"
        "    libc.mmap.restype = ctypes.c_void_p\n"
        "    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]\n"
        "    def errno_of(result):\n"
        "        return ctypes.get_errno() if result in (-1, ctypes.c_void_p(-1).value) else 0\n"
        "    pipe2, userfaultfd, pidfd_open = {'x86_64': (293, 323, 434), 'aarch64': (59, 282, 434)}[os.uname().machine]\n"
        "    fds = (ctypes.c_int * 2)()\n"
        "    return [errno_of(libc.syscall(pipe2, fds, 0)), errno_of(libc.syscall(userfaultfd, 0)),\n"
        "            errno_of(libc.syscall(447, 0)),  # memfd_secret\n"
        "            errno_of(libc.syscall(pidfd_open, os.getpid(), 0)),\n"
        "            errno_of(libc.mmap(None, 2 << 20, 3, 0x22 | 0x40000, -1, 0)),  # MAP_PRIVATE|ANONYMOUS|HUGETLB\n"
        "            errno_of(libc.mmap(None, 4096, 3, 0x22, -1, 0)), os.listdir('/proc')]\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [1, 1, 1, 1, 1, 0, []]  # EPERM five times
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_reads_no_other_process_clock_no_mount_id_nor_lock_and_marks_no_device_folder(tmp_path):
    """What a red team passed from one worker to the next, or learnt of another student's run: the
    zygote's CPU time (how much sweeping the last child left it), a mount's host-wide id (statx,
    name_to_handle_at, statmount), perf counters, a thread's pidfd (a host-wide inode number), and
    the times and modes of /dev/pts and its ptmx. Its own CPU clocks still read."""
    (tmp_path / "scalar_chain.py").write_text(
        "import ctypes, os, time\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    libc.syscall.restype = ctypes.c_long\n"
        "    def errno_of(result):\n"
        "        return ctypes.get_errno() if result == -1 else 0\n"
        "    def refused(call):\n"
        "        try:\n            call()\n            return 0\n"
        "        except OSError as error:\n            return error.errno\n"
        "    statx, perf, handle, clone = {'x86_64': (332, 298, 303, 56), 'aarch64': (291, 241, 264, 220)}[os.uname().machine]\n"
        "    buffer = ctypes.create_string_buffer(4096)\n"
        "    parent_clock = (-os.getppid() - 1) * 8 + 2\n"
        "    own = time.clock_gettime(time.CLOCK_PROCESS_CPUTIME_ID) > 0 and time.clock_gettime(time.CLOCK_THREAD_CPUTIME_ID) > 0\n"
        "    return [refused(lambda: time.clock_gettime(parent_clock)), refused(lambda: time.clock_getres(parent_clock)),\n"
        "            errno_of(libc.syscall(statx, -100, b'/tmp', 0, 0x4fff, buffer)),\n"
        "            errno_of(libc.syscall(perf, buffer, 0, -1, -1, 0)),\n"
        "            errno_of(libc.syscall(handle, -100, b'/tmp', buffer, buffer, 0)),\n"
        "            errno_of(libc.syscall(457, buffer, 24, buffer, 4096, 0)),  # statmount\n"
        "            errno_of(libc.syscall(clone, 0x00010000 | 0x00000100 | 0x00000800 | 0x00001000, 0, buffer, 0, 0)),\n"
        "            refused(lambda: os.utime('/dev/pts', (1, 1))), refused(lambda: os.utime('/dev/pts/ptmx', (1, 1))),\n"
        "            refused(lambda: os.chmod('/dev/pts/ptmx', 0o600)), own]\n"
        "def residual_chain_gradient(depth, slope, residual=True):\n"
        "    import fcntl, stat, struct\n"
        "    def refused(call):\n"
        "        try:\n            call()\n            return 0\n"
        "        except OSError as error:\n            return error.errno\n"
        "    lock = struct.pack('@hhqqi4x', fcntl.F_WRLCK, 0, 424242, 7, 0)\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    libc.syscall.restype = ctypes.c_long\n"
        "    io_setup = {'x86_64': 206, 'aarch64': 0}[os.uname().machine]\n"
        "    context = ctypes.c_ulong(0)\n"
        "    tmp = os.open('/tmp', os.O_RDONLY)\n"
        "    files = [fd for fd in range(3, 256) if refused(lambda: os.fstat(fd)) == 0 and stat.S_ISREG(os.fstat(fd).st_mode)]\n"
        "    return [refused(lambda: fcntl.fcntl(0, 37, lock)), refused(lambda: fcntl.fcntl(0, fcntl.F_SETLK, lock)),\n"
        "            refused(lambda: fcntl.flock(0, fcntl.LOCK_SH)), refused(lambda: fcntl.fcntl(0, fcntl.F_GETLK, lock)),\n"
        "            refused(lambda: fcntl.ioctl(tmp, 0x40086602, struct.pack('l', 0x80))),\n"
        "            ctypes.get_errno() if libc.syscall(io_setup, 1, ctypes.byref(context)) == -1 else 0, files,\n"
        "            fcntl.fcntl(0, fcntl.F_GETFL) & os.O_APPEND]\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    eperm, enosys, eagain, erofs = 1, 38, 11, 30
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [eperm, eperm, enosys, eperm, eperm, eperm, eagain,
                                                                  erofs, erofs, erofs, True]
    module.close()
    # Locks on a file any process can see (the host's /dev/null), /tmp's inode flags, an aio
    # context (a number from the host-wide inode counter), and the arena's memfd, whose number
    # comes from the counter of every shared mapping on the host: no open descriptor is left to it.
    module = StudentModule(tmp_path / "scalar_chain.py", "residual", "bubblewrap")
    assert module.call("residual_chain_gradient", 1, 1.0).value == [eperm] * 6 + [[], 0]
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_may_start_threads_but_no_process(tmp_path):
    (tmp_path / "scalar_chain.py").write_text(
        "import os, subprocess, threading\n"
        "def tried(make):\n"
        "    try:\n        make()\n        return True\n"
        "    except OSError:\n        return False\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    thread = threading.Thread(target=lambda: None)\n"
        "    thread.start(); thread.join()\n"
        "    return [tried(os.fork), tried(lambda: subprocess.run(['true'])), tried(lambda: os.posix_spawn('/bin/true', ['true'], {}))]\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [False, False, False]
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_cannot_reach_io_uring_which_would_open_sockets_past_the_filter(tmp_path):
    (tmp_path / "scalar_chain.py").write_text(
        "import ctypes\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed\n"
        "    fd = libc.syscall(425, 8, params)  # io_uring_setup: the same number on x86_64 and aarch64\n"
        "    return [fd, ctypes.get_errno()]\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [-1, 1]  # refused: EPERM
    module.close()


@pytest.mark.skipif(not sandbox.bubblewrap_works() or jailcommand.seccomp_program(sandbox.find_bwrap().found.path) is None,
                    reason="bubblewrap with a seccomp filter is not available on this machine")
def test_student_code_cannot_hold_ipc_memory_nor_tell_or_set_which_file_pages_are_cached(tmp_path):
    """Semaphore sets and message queues held host RAM past every limit; mincore, cachestat,
    readahead, fadvise, preadv2 (RWF_NOWAIT) and madvise's COLD and PAGEOUT passed bits from one
    student to the next through the page cache of the files every sandbox reads. The allocator's
    own madvise still works."""
    (tmp_path / "scalar_chain.py").write_text(
        "import ctypes, os\n"
        "def scalar_gradient_chain(depth, scale):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    def errno_of(result):\n"
        "        return ctypes.get_errno() if result == -1 else 0\n"
        "    fd = os.open(os.__file__, os.O_RDONLY)\n"
        "    vector = ctypes.create_string_buffer(1)\n"
        "    libc.mmap.restype = ctypes.c_void_p\n"
        "    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]\n"
        "    mapped = libc.mmap(None, 4096, 1, 2, fd, 0)  # PROT_READ, MAP_PRIVATE\n"
        "    buffer = ctypes.create_string_buffer(4096)\n"
        "    iov = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 4096)\n"
        "    numbers = {'x86_64': (27, 187, 221, 327, 28), 'aarch64': (232, 213, 223, 286, 233)}[os.uname().machine]\n"
        "    mincore, readahead, fadvise, preadv2, madvise = numbers\n"
        "    libc.syscall.restype = ctypes.c_long\n"
        "    return [errno_of(libc.semget(0x5eed, 8, 0o1000 | 0o600)), errno_of(libc.msgget(0x5eee, 0o1000 | 0o600)),\n"
        "            errno_of(libc.syscall(mincore, ctypes.c_void_p(mapped), 4096, vector)),\n"
        "            errno_of(libc.syscall(451, fd, None, None, 0)),  # cachestat\n"
        "            errno_of(libc.syscall(readahead, fd, 0, 4096)),\n"
        "            errno_of(libc.syscall(fadvise, fd, 0, 4096, 4)),  # POSIX_FADV_DONTNEED\n"
        "            errno_of(libc.syscall(preadv2, fd, iov, 1, 0, 0, 8)),  # RWF_NOWAIT\n"
        "            errno_of(libc.syscall(madvise, ctypes.c_void_p(mapped), 4096, 21)),  # MADV_PAGEOUT\n"
        "            errno_of(libc.syscall(madvise, ctypes.c_void_p(mapped), 4096, 20)),  # MADV_COLD\n"
        "            errno_of(libc.syscall(madvise, ctypes.c_void_p(mapped), 4096, 4))]  # MADV_DONTNEED\n")
    module = StudentModule(tmp_path / "scalar_chain.py", "scalar_chain", "bubblewrap")
    assert module.call("scalar_gradient_chain", 1, 1.0).value == [1] * 9 + [0]  # EPERM nine times, then allowed
    module.close()
