"""The process that runs student code. Nothing here is trusted by the grader.

It reads framed requests on its stdin and answers on its stdout, both duplicated to private
descriptors before any student code runs; descriptors 0, 1 and 2 then point at /dev/null and
``print`` goes to a capped buffer, so student output can neither block the worker nor forge a
reply by accident. Requests: ``load`` (compile and run a student's source as a module, and map
the grader's shared memory), ``call`` (call one of its functions; a call that fails also reports a KeyError of the worker's
own, raised right after it, so the grader can tell whether error reports were rewritten).
Requests may arrive back to back: each is read, answered and replied to in turn.
Only the standard library, numpy, :mod:`codec`, :mod:`confinement`, :mod:`draws`, :mod:`forkserver`,
:mod:`tmpstate` and :mod:`hatchery` are imported: the grader's own package is not on this side.
"""

from __future__ import annotations

import ctypes
import fcntl
import io
import linecache
import mmap
import os
import sys
import traceback
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Where the grader found numpy (PYTHONPATH or the user site, which -I leaves out): the same here.
if os.environ.get("GRADER_NUMPY_PATH") and os.environ["GRADER_NUMPY_PATH"] not in sys.path:
    sys.path.append(os.environ["GRADER_NUMPY_PATH"])
import codec  # noqa: E402  (the sibling modules, mounted next to this file in the sandbox)
import confinement  # noqa: E402
import draws  # noqa: E402
import forkserver  # noqa: E402  (imported before a chroot, like everything the worker needs)
import hatchery  # noqa: E402
import numpy as np  # noqa: E402

codec.np = np  # numpy is loaded here before any student code runs: the codec uses this one

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.mmap.restype = ctypes.c_void_p
_LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]

HEAD_CHARS = 4000
TAIL_CHARS = 4000
TAIL_SLACK = 1 << 16  # characters the tail may hold before it is cut back to TAIL_CHARS


class CappedOutput(io.TextIOBase):
    """Keeps the head and tail of what the student prints and counts the rest.

    A student who prints inside a loop calls ``write`` millions of times: past the head, a write
    only appends (the tail is cut back to its size once it holds ``TAIL_SLACK`` characters), so
    that the capture costs the student little more than printing to a file would.
    """

    def __init__(self) -> None:
        self._head: list[str] = []
        self._head_len = 0
        self._tail: list[str] = []
        self._tail_len = 0
        self._total = 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        if type(text) is not str:
            text = str(text)
        written = len(text)
        self._total += written
        if self._head_len < HEAD_CHARS:
            room = HEAD_CHARS - self._head_len
            self._head.append(text[:room])
            self._head_len += min(room, written)
            text = text[room:]
            if not text:
                return written
        self._tail.append(text)
        self._tail_len += len(text)
        if self._tail_len > TAIL_SLACK:
            self._tail = ["".join(self._tail)[-TAIL_CHARS:]]
            self._tail_len = len(self._tail[0])
        return written

    def take(self) -> dict:
        head = "".join(self._head)
        tail = "".join(self._tail)[-TAIL_CHARS:]
        cut = self._total - len(head) - len(tail)
        taken = {"head": head, "tail": tail, "cut": max(cut, 0), "total": self._total}
        self.__init__()
        return taken


def _student_traceback(exc: BaseException, filename: str) -> str:
    # The student's frames are picked before any is summarized: extract_tb would work out every
    # frame's column positions (and stat the worker's own files for their lines) first, which
    # made a call that raises cost several times one that returns.
    frames = [(frame, line) for frame, line in traceback.walk_tb(exc.__traceback__)
              if frame.f_code.co_filename == filename]
    lines = traceback.format_list(traceback.StackSummary.extract(iter(frames[-5:])))
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)[-3000:]


def _error(exc: BaseException, filename: str) -> dict:
    if isinstance(exc, SystemExit):
        return {"kind": "exit", "type": "SystemExit", "message": f"exit code {exc.code!r}"[:200],
                "traceback": _student_traceback(exc, filename)}
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return {"kind": "syntax", "type": type(exc).__name__, "message": str(exc.msg)[:500],
                "line": exc.lineno, "traceback": "".join(traceback.format_exception_only(type(exc), exc))[-2000:]}
    return {"kind": "exception", "type": type(exc).__name__, "message": str(exc)[:2000],
            "mro": [f"{cls.__module__}.{cls.__qualname__}" for cls in type(exc).__mro__][:20],
            "traceback": _student_traceback(exc, filename)}


class Session:
    def __init__(self, arena_fd: int | None = None) -> None:
        self.module: types.ModuleType | None = None
        self.filename = "<student>"
        self.arena: ctypes.Array | None = None
        self.arena_fd = arena_fd  # a zygote's child got its arena passed, at a number the grader does not know

    def _map_arena(self, spec: object) -> None:
        """The grader's shared memory, where it puts the arrays it wants to look at after a call.

        Mapped, then its descriptor closed, before any student code runs: the memfd's inode number
        comes from a counter every shared mapping on the host moves, which a worker could move by a
        hidden input for the next to read back (Python's own mmap would keep a copy of it open)."""
        if self.arena is not None or not (isinstance(spec, dict) and isinstance(spec.get("fd"), int)
                                          and isinstance(spec.get("size"), int) and spec["size"] > 0):
            return
        fd = self.arena_fd if self.arena_fd is not None and spec["fd"] < 0 else spec["fd"]
        address = _LIBC.mmap(None, spec["size"], mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
        if address not in (None, ctypes.c_void_p(-1).value):
            self.arena = (ctypes.c_char * spec["size"]).from_address(address)
        try:
            os.close(fd)
        except OSError:
            pass
        self.arena_fd = None

    def _shared_views(self):
        """A decoder for ``__shared__`` tags (arrays living in the arena) and the views it made."""
        views: list[np.ndarray] = []

        def view(payload):
            if self.arena is None or not isinstance(payload, list) or len(payload) not in (3, 4):
                raise codec.CodecError("a shared array needs the arena and [offset, dtype, shape, order]")
            offset, dtype, shape, order = [*payload, "C"][:4]
            array = np.ndarray(tuple(shape), dtype=np.dtype(str(dtype)), buffer=self.arena, offset=int(offset),
                               order="F" if order == "F" else "C")
            views.append(array)
            return array
        return view, views

    def probe(self, request: dict) -> dict:
        """A KeyError raised here and reported the way a student's exceptions are."""
        try:
            {}[str(request.get("key"))]
        except KeyError as exc:
            return {"ok": False, "error": _error(exc, self.filename)}
        return {"ok": True}

    def load(self, request: dict) -> dict:
        self._map_arena(request.get("arena"))
        self.filename = str(request.get("filename", "student.py"))
        name = str(request.get("module", "student"))
        module = types.ModuleType(name)
        module.__file__ = self.filename
        sys.modules[name] = module
        # The file is not on this side's disk: without an entry, every traceback of a failed call
        # would look for it in each folder of sys.path (a dozen stats per frame, per call).
        linecache.cache[self.filename] = (0, None, [], self.filename)
        try:
            code = compile(str(request["source"]), self.filename, "exec", dont_inherit=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(code, module.__dict__)
        except BaseException as exc:  # the student's import may raise anything, SystemExit included
            return {"ok": False, "error": _error(exc, self.filename)}
        self.module = module
        return {"ok": True, "functions": sorted(k for k, v in vars(module).items() if callable(v))}

    def call(self, request: dict) -> dict:
        if self.module is None:
            return {"ok": False, "error": {"kind": "protocol", "type": "NotLoaded", "message": "no module"}}
        function = getattr(self.module, str(request["function"]), None)
        if not callable(function):
            return {"ok": False, "error": {"kind": "missing", "type": "AttributeError",
                                           "message": f"no function named {request['function']}"}}
        logs: list[list[dict]] = []
        generators: list = []

        def materialize(value):
            if isinstance(value, codec.RngSpec):
                generator, log = draws.recording_generator(value.seed)
                logs.append(log)
                generators.append(generator)
                return generator
            return value

        view, views = self._shared_views()
        args = [materialize(v) for v in codec.decode(request.get("args", []), shared=view)]
        kwargs = {k: materialize(v) for k, v in codec.decode(request.get("kwargs", {"__dict__": []}), shared=view).items()}
        # `gamma.shape = (1, -1)` changes the caller's array without touching its bytes: an arena
        # array whose shape, dtype or strides changed is reported by value, never by name.
        layouts = [(v.shape, v.dtype.str, v.strides) for v in views]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = function(*args, **kwargs)
            except BaseException as exc:
                return {"ok": False, "error": _error(exc, self.filename), "draws": logs}
        reply = {"ok": True, "value": codec.encode(value), "draws": logs,
                 "warnings": [f"{w.category.__name__}: {w.message}"[:300] for w in caught[:20]]}
        if generators:  # where each stream was left: a rewind or an advance is in no log
            reply["rng_states"] = [draws.state_of(generator) for generator in generators]
        if request.get("return_args"):
            # An arena array still in its place is named, not copied: the grader reads it itself.
            placed = {id(v): k for k, v in enumerate(views) if (v.shape, v.dtype.str, v.strides) == layouts[k]}

            def share(array):
                return {"__shared__": placed[id(array)]} if id(array) in placed else None
            reply["args_after"] = codec.encode([a for a in args], share=share)
            reply["kwargs_after"] = codec.encode({k: v for k, v in kwargs.items()
                                                  if not isinstance(v, np.random.Generator)}, share=share)
            read_only = [k for k, v in enumerate(views) if not v.flags.writeable]
            if read_only:  # the caller could no longer update them in place: a change no byte shows
                reply["read_only"] = read_only
            handed_back = _placed_in(value, placed)
            if handed_back:  # absent, not empty, so that the usual reply's bytes stay as they were
                reply["handed_back"] = handed_back
        return reply


def _placed_in(value: object, placed: dict[int, int], budget: int = 10_000) -> list[int]:
    """The placed arrays the returned value holds as they are, the very objects: a result that hands
    an input back (walking only plain lists, tuples and dicts, and at most ``budget`` items)."""
    found, pending = set(), [value]
    while pending and budget > 0:
        item = pending.pop()
        budget -= 1
        if id(item) in placed:
            found.add(placed[id(item)])
        elif type(item) in (list, tuple):
            pending.extend(item)
        elif type(item) is dict:
            pending.extend(item.values())
    return sorted(found)


def _read_exact(stream, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


# Imported before a privilege drop, while the runtime is still readable (process mode as root):
# what a student's numpy solution may reasonably import.
PRELOAD = ("numpy.random", "numpy.linalg", "numpy.fft", "math", "cmath", "typing", "functools",
           "itertools", "collections", "dataclasses", "statistics", "random", "operator", "numbers",
           "decimal", "fractions", "copy", "enum", "abc", "contextlib", "signal", "threading", "time", "re",
           "string", "json", "warnings")


def main() -> int:
    import importlib

    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    # stderr stays open until student code may run: a failure of the worker's own start (numpy
    # cannot load within the memory limit, say) is the host's, and the grader shows it to the operator.
    parent = os.getppid()
    for name in PRELOAD:
        importlib.import_module(name)
    if os.environ.pop("GRADER_LOCK_DEVICES", None):  # bubblewrap gave us CAP_SYS_ADMIN for this alone
        confinement.cap_tasks()  # it reads /proc, which lock_down covers
        hatchery.lock_down(cover_proc=True)
    if os.environ.get("GRADER_DROP_PRIVILEGES"):
        confinement.drop_privileges(os.environ.pop("GRADER_DROP_PRIVILEGES"))
    elif os.environ.pop("GRADER_LEAVE_NETWORK", None):
        confinement.leave_network()
    confinement.die_with(parent)
    confinement.cap_tasks()
    seccomp_hex = os.environ.pop("GRADER_SECCOMP", "")
    if os.environ.get("GRADER_HATCHERY"):
        os.dup2(devnull, 2)
        hatched = hatchery.serve(int(os.environ.pop("GRADER_HATCHERY")), int(os.environ.pop("GRADER_TMP_BYTES")),
                                 (proto_in, proto_out), kept=(devnull,))
        if hatched is None:
            return 0
        # In a student's new sandbox: from here on its zygote, as in a sandbox of its own.
        os.environ.update(GRADER_ZYGOTE=str(hatched), GRADER_ZYGOTE_SWEEP="1")
    if os.environ.get("GRADER_ZYGOTE"):
        control = int(os.environ.pop("GRADER_ZYGOTE"))
        sweep = bool(os.environ.pop("GRADER_ZYGOTE_SWEEP", ""))
        os.dup2(devnull, 2)
        child = forkserver.serve(control, sweep, (proto_in, proto_out))
        if child is None:
            return 0
        # In a fresh child: its own pipes and arena; from here on it is a worker like any other.
        proto_in, proto_out, arena_fd = child
        _own_devnull(devnull)
        np.random.seed()  # numpy's global generator, seeded afresh as a new interpreter's is (random reseeds itself)
        confinement.die_with(os.getppid())
        if seccomp_hex:
            confinement.refuse_calls(seccomp_hex)
        return _serve(proto_in, proto_out, devnull, arena_fd)
    if seccomp_hex:
        confinement.refuse_calls(seccomp_hex)
    return _serve(proto_in, proto_out, devnull)


def _own_devnull(shared: int) -> None:
    """This worker's own /dev/null on 0, 1, 2 and ``shared``'s number: the zygote's is an open
    file every child of it shares, whose flags, owner and signal a child could set for the next
    to read (a red team passed a hidden depth through its O_APPEND and F_SETSIG). Where there is
    no /dev/null to open (a process-mode jail), the shared one's settings are put back instead."""
    try:
        fresh = os.open(os.devnull, os.O_RDWR)
    except OSError:
        fcntl.fcntl(shared, fcntl.F_SETFL, 0)  # O_APPEND, O_NONBLOCK, O_ASYNC, O_NOATIME off
        fcntl.fcntl(shared, 10, 0)  # F_SETSIG: the default, SIGIO
        fcntl.fcntl(shared, fcntl.F_SETOWN, 0)
        return
    for fd in (0, 1, 2, shared):
        os.dup2(fresh, fd)
    os.close(fresh)


def _serve(proto_in, proto_out, devnull: int, arena_fd: int | None = None) -> int:
    """Answer the grader's requests until it says exit or closes the pipe: student code runs here."""
    os.dup2(devnull, 2)
    capture = CappedOutput()
    sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = capture
    session = Session(arena_fd)
    proto_out.write(codec.READY)  # nothing of the student's has run in this process yet
    while True:
        header = _read_exact(proto_in, codec.HEADER_SIZE)
        if header is None:
            return 0
        request = codec.load_frame(_read_exact(proto_in, codec.frame_length(header)) or b"")
        op = request.get("op")
        if op == "exit":
            return 0
        try:
            handler = session.load if op == "load" else session.call
            reply = handler(request)
        except codec.CodecError as exc:
            reply = {"ok": False, "error": {"kind": "protocol", "type": "CodecError", "message": str(exc)}}
        except BaseException as exc:  # encoding a hostile return value can raise anything
            reply = {"ok": False, "error": _error(exc, session.filename)}
        if op == "call" and not reply.get("ok"):
            # Right after the call, before anything else of the student's runs: the grader's honesty probe.
            reply["probe"] = session.probe({"key": request.get("probe")})
        reply["id"] = request.get("id")
        reply["output"] = capture.take()
        try:
            frame = codec.dump_frame(reply)
        except (codec.CodecError, ValueError, TypeError) as exc:
            frame = codec.dump_frame({"id": request.get("id"), "ok": False, "output": reply["output"],
                                      "error": {"kind": "exception", "type": "ReplyTooLarge", "message": str(exc)},
                                      "probe": session.probe({"key": request.get("probe")})})
        proto_out.write(frame)


if __name__ == "__main__":
    sys.exit(main())
