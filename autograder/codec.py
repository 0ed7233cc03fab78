"""The only format that crosses between the grader and a worker running student code.

Frames are a 4-byte big-endian length followed by UTF-8 JSON. Values are plain JSON plus a few
tagged objects; arrays travel as base64 ``.npy`` bytes read back with ``allow_pickle=False``, so
nothing a worker sends can make the grader run code. This module imports only the standard
library and numpy because the worker loads it too; numpy only when first used (:class:`Later`),
since ``check``'s quick way reads no array and numpy's import is a tenth of its wall time.
"""

from __future__ import annotations

import base64
import functools
import importlib
import io
import json
import math
import re
import struct


class Later:
    """A module imported on first use, which then takes this stand-in's place in ``namespace``."""

    def __init__(self, module: str, namespace: dict, name: str) -> None:
        self._module, self._namespace, self._name = module, namespace, name

    def __getattr__(self, attribute: str):
        loaded = importlib.import_module(self._module)
        self._namespace[self._name] = loaded
        return getattr(loaded, attribute)


np = Later("numpy", globals(), "np")

MAX_FRAME_BYTES = 64 * 1024 * 1024
# The one byte a worker writes when it is ready, before it reads a request and so before any student
# code runs: a worker that dies without it died of the host (client.py), never of the student.
READY = b"\x06"
MAX_DEPTH = 32
_HEADER = struct.Struct(">I")
_ALLOWED_KINDS = set("biufc")  # bool, int, uint, float, complex: never object or void


class CodecError(ValueError):
    """A frame or value that does not follow the protocol."""


class Unrepresentable:
    """Stands in for a value of a type the protocol cannot carry (a student's own class, say)."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<a {self.type_name} object>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unrepresentable) and other.type_name == self.type_name

    __hash__ = None  # type: ignore[assignment]


class RngSpec:
    """A request for a fresh generator seeded with ``seed``; the worker records every draw."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)

    def __repr__(self) -> str:
        return f"RngSpec({self.seed})"


def _array_to_text(array: np.ndarray) -> str:
    return base64.b64encode(_npy_bytes(array)).decode("ascii")


def _npy_bytes(array: np.ndarray) -> bytes:
    """What np.save writes for ``array``, byte for byte.

    A plain array (nearly every one) is its header, made once per dtype and shape, and its
    bytes: np.save builds the header anew every time, which cost more than the rest of a small
    array's round trip. Anything else (Fortran order, a dtype with fields) goes to np.save.
    """
    dtype = array.dtype
    if (dtype.fields is None and dtype.subdtype is None and dtype.kind in _ALLOWED_KINDS
            and (array.flags.c_contiguous or not array.flags.f_contiguous)):
        return _npy_header(dtype.str, array.shape) + array.tobytes(order="C")
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


@functools.lru_cache(maxsize=1024)
def _npy_header(descr: str, shape: tuple) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue()


# The header np.save writes for a plain C-ordered array of one of the allowed kinds. Such a
# payload (nearly every one) is read here directly: np.load parses its header with
# ast.literal_eval, which cost more than everything else about a small array. Any other payload
# goes to np.load, so what is accepted and what it reads as are np.load's.
_NPY_PREFIX = b"\x93NUMPY\x01\x00"
_NUMBER = rb"(?:0|[1-9][0-9]{0,9})"  # as Python writes it: no leading zero
_PLAIN_HEADER = re.compile(  # shapes as a tuple's repr: (), (3,), (3, 4)
    rb"\{'descr': '([<>|][biufc][0-9]{1,2})', 'fortran_order': False, 'shape': \((|" + _NUMBER + rb",|"
    + _NUMBER + rb"(?:, " + _NUMBER + rb")+)\), \} *\n")
_MAX_HEADER = 10000  # np.load's own limit (max_header_size): a longer header is np.load's to refuse


def _plain_array(raw: bytes) -> np.ndarray | None:
    """The array of a payload np.save wrote for a plain array, or None for np.load to read."""
    if not raw.startswith(_NPY_PREFIX) or len(raw) < 10:
        return None
    length = int.from_bytes(raw[8:10], "little")
    if length > _MAX_HEADER:
        return None
    match = _PLAIN_HEADER.fullmatch(raw, 10, 10 + length)
    if match is None:
        return None
    dtype = np.dtype(match[1].decode("ascii"))
    shape = tuple(int(n) for n in match[2].split(b",") if n.strip())
    count = math.prod(shape)
    if len(raw) - 10 - length != count * dtype.itemsize:
        return None
    return np.frombuffer(raw, dtype, count, 10 + length).reshape(shape).copy()


def _array_from_text(text: object) -> np.ndarray:
    if not isinstance(text, str):
        raise CodecError("an array payload must be a base64 string")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
        array = _plain_array(raw)
        if array is None:
            array = np.load(io.BytesIO(raw), allow_pickle=False)
    except Exception as exc:  # any malformed payload is the sender's fault, never ours
        raise CodecError(f"unreadable array payload ({type(exc).__name__})") from None
    if not isinstance(array, np.ndarray) or array.dtype.kind not in _ALLOWED_KINDS:
        raise CodecError("an array payload must hold numbers")
    return array


def encode(value: object, depth: int = 0, share=None) -> object:
    """Turn a Python value into JSON-ready data, tagging what JSON cannot say by itself.

    ``share``, when given, is asked first about every array: a tag it returns (an array in
    shared memory, say) stands for the array instead of its bytes.
    """
    if depth > MAX_DEPTH:
        raise CodecError("value is nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if share is not None and isinstance(value, np.ndarray):
        tag = share(value)
        if tag is not None:
            return tag
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _ALLOWED_KINDS:
            return {"__unrepresentable__": f"numpy array of {value.dtype}"}
        return {"__ndarray__": _array_to_text(value)}
    if isinstance(value, np.generic):
        if value.dtype.kind not in _ALLOWED_KINDS:
            return {"__unrepresentable__": type(value).__name__}
        return {"__npscalar__": _array_to_text(np.asarray(value))}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, complex):
        return {"__complex__": [value.real, value.imag]}
    if isinstance(value, list):
        return [encode(item, depth + 1, share) for item in value]
    if isinstance(value, tuple):
        return {"__tuple__": [encode(item, depth + 1, share) for item in value]}
    if isinstance(value, dict):
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1, share)] for k, v in value.items()]}
    if isinstance(value, RngSpec):
        return {"__rng__": value.seed}
    return {"__unrepresentable__": type(value).__name__}


class Tally:
    """How many more arrays one reply may hold: each costs the reader tens of microseconds, so a
    reply of a hundred thousand tiny arrays would hold the grader for seconds."""

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise CodecError("the reply holds more arrays than any answer needs")


def decode(data: object, depth: int = 0, shared=None, tally: Tally | None = None) -> object:
    """Inverse of :func:`encode`; rejects anything that is not exactly one of the known shapes.

    A ``__shared__`` tag is read only where the caller passes ``shared``, which turns its payload
    into the array it names; everywhere else it is as unknown as any other tag. With ``tally``,
    every array read is counted against it.
    """
    if depth > MAX_DEPTH:
        raise CodecError("value is nested too deeply")
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if isinstance(data, list):
        return [decode(item, depth + 1, shared, tally) for item in data]
    if not isinstance(data, dict) or len(data) != 1:
        raise CodecError("an object must carry exactly one known tag")
    (tag, payload), = data.items()
    if tag in ("__ndarray__", "__npscalar__") and tally is not None:
        tally.take()
    if tag == "__ndarray__":
        return _array_from_text(payload)
    if tag == "__npscalar__":
        array = _array_from_text(payload)
        if array.shape != ():
            raise CodecError("a numpy scalar must have shape ()")
        return array[()]
    if tag == "__tuple__" and isinstance(payload, list):
        return tuple(decode(item, depth + 1, shared, tally) for item in payload)
    if tag == "__dict__" and isinstance(payload, list):
        out = {}
        for pair in payload:
            if not isinstance(pair, list) or len(pair) != 2:
                raise CodecError("a dict entry must be a [key, value] pair")
            key = decode(pair[0], depth + 1, None, tally)
            if not isinstance(key, (str, int, float, bool, type(None), tuple)):
                raise CodecError("a dict key must be hashable plain data")
            out[key] = decode(pair[1], depth + 1, shared, tally)
        return out
    if tag == "__complex__" and isinstance(payload, list) and len(payload) == 2:
        real, imag = payload
        if not all(isinstance(part, (int, float)) and not isinstance(part, bool) for part in payload):
            raise CodecError("a complex number needs two numbers")
        return complex(real, imag)
    if tag == "__rng__" and isinstance(payload, int) and not isinstance(payload, bool):
        return RngSpec(payload)
    if tag == "__shared__" and shared is not None:
        return shared(payload)
    if tag == "__unrepresentable__" and isinstance(payload, str):
        return Unrepresentable(payload[:200])
    raise CodecError(f"unknown or malformed tag {tag[:40]!r}")


def _reject_constant(name: str) -> float:
    # json's default would accept these too; naming them keeps NaN and infinities explicit.
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


# Made once: json.dumps and json.loads with any option build a new encoder or decoder (and its
# scanner) on every call, which was half of what reading a small frame cost.
_ENCODER = json.JSONEncoder(allow_nan=True, separators=(",", ":"))
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def dump_frame(message: dict) -> bytes:
    body = _ENCODER.encode(message).encode("utf-8")
    if len(body) > MAX_FRAME_BYTES:
        raise CodecError(f"message of {len(body)} bytes is over the {MAX_FRAME_BYTES}-byte limit")
    return _HEADER.pack(len(body)) + body


def frame_length(header: bytes, limit: int = MAX_FRAME_BYTES) -> int:
    if len(header) != _HEADER.size:
        raise CodecError("truncated frame header")
    (length,) = _HEADER.unpack(header)
    if length > limit:
        raise CodecError(f"reply of {length} bytes is over the {limit}-byte limit")
    return length


MAX_FRAME_ITEMS = 500_000


def load_frame(body: bytes, max_items: int = MAX_FRAME_ITEMS) -> dict:
    # Bytes are bounded by the frame length; objects must be too: "[]," is 3 bytes of JSON but a
    # whole list in memory. Real arrays travel as base64, which holds none of these characters.
    if body.count(b"[") + body.count(b"{") + body.count(b",") > max_items:
        raise CodecError(f"a frame holds more than {max_items} values")
    try:
        message = _DECODER.decode(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise CodecError("a frame is not valid JSON") from None
    if not isinstance(message, dict):
        raise CodecError("a frame must be a JSON object")
    return message


HEADER_SIZE = _HEADER.size
