"""What a correct student costs at the least in this design, its parts measured apart.

    python benchmarks/bench_floor.py [--students N] [--seed S]

The calls are the class's scripts (every call each check makes of the reference, recorded as
`grade` records them, :mod:`autograder.script`), and a correct student answers them as the
reference does. Four figures, each CPU per student:

0. *the functions alone*: the reference's functions called in this process on the scripts'
   arguments, decoded beforehand (a fresh plain generator where a call is given one): the
   arithmetic the checks ask for, with no worker code at all.
1. *calls in this process*: every scripted call answered by the worker's own code
   (``worker.Session``) in this process: no sandbox and no pipe. What the student's code and the
   worker protocol's encoding cost; no design that runs every check's calls can go below it.
2. *sandboxes*: a student's sandbox hatched in a warm one, and one worker forked per exercise,
   loading its file and asked nothing: what isolating one student costs.
3. *calls through the sandbox*: 2, with every scripted call sent as `grade` sends them (a check's
   calls back to back; a call that shares arrays waits for the replies before it).

2 and 3 are the CPU of every process of the sandbox (read from /proc, where reaped processes
count through their parents), and apart from it this process's own, which sent the calls. The
last lines say what a class of 1,000 correct students costs at that floor, with no grader at
all (pytest, verdicts, reports), on this machine's cores. Figures only: never asserted in a test.
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import resource
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from autograder import codec, runner, sandbox, scriptcache, worker  # noqa: E402
from autograder.hatching import Hatchery  # noqa: E402
from autograder.proctree import cpu_seconds  # noqa: E402
from autograder.script import Call, Scripts  # noqa: E402
from autograder.zygote import Zygote  # noqa: E402

ARENA_BYTES = 64 << 20
codec.np = np  # as the worker sets it


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def class_scripts(seed: int, bwrap_path: str) -> Scripts:
    chosen = runner.Settings(graders_dir=ROOT / "graders", reference_dir=ROOT / "solutions", seed=seed,
                             isolation="bubblewrap", bwrap=bwrap_path)
    path = scriptcache.scripts_for(chosen, runner.record_scripts)
    if not path:
        sys.exit("the reference could not be recorded at this seed")
    return Scripts.from_json(json.loads(Path(path).read_text())["scripts"])


def load_request(exercise: str, arena: dict) -> dict:
    return {"op": "load", "arena": arena, "filename": f"{exercise}.py", "module": exercise, "id": 0,
            "source": (ROOT / "solutions" / f"{exercise}.py").read_text()}


def place(arena: mmap.mmap, call: Call) -> None:
    for slot in call.slots:
        arena[slot.offset:slot.offset + len(slot.sent)] = slot.sent


def in_process(scripts: Scripts, arena: mmap.mmap, fd: int) -> tuple[int, float]:
    """(calls, CPU seconds) of one student's scripted calls answered in this process."""
    calls, start = 0, own_cpu()
    for exercise, checks in scripts.calls.items():
        session = worker.Session()
        session.load(load_request(exercise, {"fd": os.dup(fd), "size": ARENA_BYTES}))
        for script in checks.values():
            for call in script:
                place(arena, call)
                codec.dump_frame(session.call(codec.load_frame(call.frame[codec.HEADER_SIZE:])))
                calls += 1
    return calls, own_cpu() - start


def functions_alone(scripts: Scripts, arena: mmap.mmap, fd: int) -> float:
    """CPU seconds of one student's scripted calls made directly on the reference's functions."""
    spent = 0.0
    for exercise, checks in scripts.calls.items():
        session = worker.Session()
        session.load(load_request(exercise, {"fd": os.dup(fd), "size": ARENA_BYTES}))
        view, _views = session._shared_views()
        for script in checks.values():
            for call in script:
                place(arena, call)
                request = codec.load_frame(call.frame[codec.HEADER_SIZE:])
                args = [_plain(v) for v in codec.decode(request.get("args", []), shared=view)]
                kwargs = {k: _plain(v) for k, v in codec.decode(request.get("kwargs", {"__dict__": []}), shared=view).items()}
                function = getattr(session.module, request["function"])
                start = own_cpu()
                try:
                    function(*args, **kwargs)
                except Exception:  # noqa: BLE001 - a check that asks for an error, as the reference raises it
                    pass
                spent += own_cpu() - start
    return spent


def _plain(value):
    return np.random.Generator(np.random.PCG64(value.seed)) if isinstance(value, codec.RngSpec) else value


def _read_exact(stream, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            raise RuntimeError("the worker closed its pipe")
        data += chunk
    return data


def _reply(forked) -> bytes:
    header = _read_exact(forked.stdout, codec.HEADER_SIZE)
    return _read_exact(forked.stdout, codec.frame_length(header))


def _send_script(forked, script: list[Call], arena: mmap.mmap) -> None:
    """A check's calls back to back, as stream.py sends them; a call that shares arrays waits for
    every reply before it (its arrays are written then)."""
    pending: list[Call] = []

    def flush() -> None:
        writer = threading.Thread(target=lambda: [forked.stdin.write(c.frame) for c in pending])
        writer.start()
        for _ in pending:
            _reply(forked)
        writer.join()
        pending.clear()
    for call in script:
        if call.slots:
            flush()
            place(arena, call)
        pending.append(call)
    flush()


def through_sandboxes(scripts: Scripts, students: int, bwrap_path: str, with_calls: bool) -> tuple[float, float]:
    """(sandbox CPU, this process's CPU) per student, for ``students`` hatched one after another."""
    limits = sandbox.Limits.for_call_timeout(3.0, 1024 << 20)
    hatchery = Hatchery(limits, bwrap_path)
    fd = os.memfd_create("arena")
    os.ftruncate(fd, ARENA_BYTES)
    arena = mmap.mmap(fd, ARENA_BYTES)
    warm = Zygote("bubblewrap", limits, bwrap_path, hatchery=hatchery)  # the hatchery's own start, not counted
    warm.start()
    warm.fork(fd).end()
    warm.close()
    before, mine = cpu_seconds(hatchery._process), own_cpu()
    for _ in range(students):
        zygote = Zygote("bubblewrap", limits, bwrap_path, hatchery=hatchery)
        zygote.start()
        for exercise, checks in scripts.calls.items():
            forked = zygote.fork(fd)
            if forked is None or _read_exact(forked.stdout, 1) != codec.READY:
                sys.exit("no worker could be forked here")
            forked.stdin.write(codec.dump_frame(load_request(exercise, {"fd": -1, "size": ARENA_BYTES})))
            _reply(forked)
            if with_calls:
                for script in checks.values():
                    _send_script(forked, script, arena)
            forked.end()
        zygote.close()
    time.sleep(0.3)  # the last zygote reaped by the hatchery
    spent, mine = cpu_seconds(hatchery._process) - before, own_cpu() - mine
    hatchery.close()
    return spent / students, mine / students


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    found = sandbox.find_bwrap().found
    if found is None:
        sys.exit("bubblewrap does not start here: the floor is measured under bubblewrap")
    scripts = class_scripts(args.seed, found.path)
    fd = os.memfd_create("arena")
    os.ftruncate(fd, ARENA_BYTES)
    arena = mmap.mmap(fd, ARENA_BYTES)
    in_process(scripts, arena, fd)  # warm: numpy's and the worker's first calls
    runs = [in_process(scripts, arena, fd) for _ in range(5)]
    calls, here = runs[0][0], min(cpu for _calls, cpu in runs)
    alone = min(functions_alone(scripts, arena, fd) for _ in range(5))
    bare, bare_mine = through_sandboxes(scripts, args.students, found.path, with_calls=False)
    full, full_mine = through_sandboxes(scripts, args.students, found.path, with_calls=True)
    cores = len(os.sched_getaffinity(0))
    print(f"{found.describe()}, seed {args.seed}, {calls} scripted calls per correct student, {args.students} students, "
          f"{cores} cores")
    print(f"  0. the functions alone:                {alone * 1000:7.1f} ms CPU per student")
    print(f"  1. calls in this process:              {here * 1000:7.1f} ms CPU per student")
    print(f"  2. sandboxes (hatch, fork, load):      {bare * 1000:7.1f} ms CPU per student in the sandbox, "
          f"{bare_mine * 1000:.1f} ms here")
    print(f"  3. 2 with every call sent through it:  {full * 1000:7.1f} ms CPU per student in the sandbox, "
          f"{full_mine * 1000:.1f} ms here")
    floor = full + full_mine
    print(f"  floor: {floor * 1000:.0f} ms CPU per student; 1,000 correct students {floor * 1000:.0f} CPU-s, "
          f"{floor * 1000 / cores:.0f} s wall on {cores} cores at best, with no grader at all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
