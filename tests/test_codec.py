"""The worker protocol's codec: plain data in, the same plain data out, nothing executable."""

from __future__ import annotations

import base64
import io
import json
import math
import pickle

import numpy as np
import pytest

from autograder import codec


def roundtrip(value):
    return codec.decode(json.loads(json.dumps(codec.encode(value))))


@pytest.mark.parametrize("value", [None, True, 3, -2.5, "text", [1, [2, 3]], (1, 2.0), {"a": (1,)}, 1 + 2j])
def test_plain_values_survive_a_roundtrip(value):
    assert roundtrip(value) == value
    assert type(roundtrip(value)) is type(value)


def test_floats_roundtrip_exactly_including_nan_and_infinities():
    values = [0.1 + 0.2, 1.4641000000000004, 5e-324, math.inf, -math.inf]
    assert roundtrip(values) == values
    assert math.isnan(roundtrip(math.nan))


def test_arrays_keep_dtype_shape_and_values():
    array = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    back = roundtrip(array)
    assert back.dtype == np.float32 and back.shape == (2, 3, 4)
    assert np.array_equal(back, array)


def test_numpy_scalars_stay_numpy_scalars():
    back = roundtrip(np.float64(2.5))
    assert isinstance(back, np.float64) and back == 2.5
    assert isinstance(roundtrip(np.int32(-4)), np.int32)


def test_object_arrays_and_unknown_types_cross_as_unrepresentable():
    assert roundtrip(np.array([object()], dtype=object)) == codec.Unrepresentable("numpy array of object")
    assert roundtrip(object()) == codec.Unrepresentable("object")


def test_a_pickled_array_payload_is_rejected():
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    payload = {"__ndarray__": base64.b64encode(buffer.getvalue()).decode()}
    with pytest.raises(codec.CodecError):
        codec.decode(payload)


def test_raw_pickle_bytes_are_not_an_array():
    payload = {"__ndarray__": base64.b64encode(pickle.dumps([1, 2])).decode()}
    with pytest.raises(codec.CodecError):
        codec.decode(payload)


@pytest.mark.parametrize("data", [{"__class__": "os.system"}, {"__tuple__": [], "extra": 1}, {"a": 1},
                                  {"__complex__": ["1", 2]}, {"__ndarray__": 12}])
def test_unknown_or_malformed_tags_are_rejected(data):
    with pytest.raises(codec.CodecError):
        codec.decode(data)


def test_nesting_depth_is_bounded():
    data: object = 1
    for _ in range(codec.MAX_DEPTH + 5):
        data = [data]
    with pytest.raises(codec.CodecError):
        codec.decode(data)


def test_frames_over_the_limit_are_refused_before_reading_them():
    header = codec.dump_frame({"ok": True})[: codec.HEADER_SIZE]
    assert codec.frame_length(header) > 0
    with pytest.raises(codec.CodecError):
        codec.frame_length((2**31).to_bytes(4, "big"), limit=1024)


def test_a_frame_must_be_a_json_object():
    with pytest.raises(codec.CodecError):
        codec.load_frame(b"[1, 2]")
    with pytest.raises(codec.CodecError):
        codec.load_frame(b"\xff\xfe")


def test_a_frame_of_millions_of_tiny_values_is_refused_before_parsing():
    body = b'{"value": [' + b"[]," * 600_000 + b"[]]}"
    with pytest.raises(codec.CodecError, match="more than"):
        codec.load_frame(body)
    assert codec.load_frame(b'{"value": [' + b"1," * 1000 + b"1]}")["value"][-1] == 1


# Arrays are read without np.load where np.save wrote a plain header (codec._plain_array); what
# any payload reads as must still be exactly what np.load makes of it, or an error where it fails.
from hypothesis import given, settings as hypothesis_settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

_DTYPES = st.sampled_from(["<f8", "<f4", ">f8", "<i8", "<i4", "|u1", "|i1", "<u2", "|b1", "<c16", "<c8", "<f2"])


def _payload(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _read(raw: bytes):
    """What the codec makes of these bytes: the array, or the CodecError it raises."""
    try:
        return codec.decode({"__ndarray__": base64.b64encode(raw).decode("ascii")})
    except codec.CodecError as error:
        return error


def _loaded(raw: bytes):
    try:
        return np.load(io.BytesIO(raw), allow_pickle=False)
    except Exception as error:  # noqa: BLE001
        return error


def _same(got, expected) -> bool:
    if isinstance(expected, Exception) or (isinstance(expected, np.ndarray) and expected.dtype.kind not in "biufc"):
        return isinstance(got, codec.CodecError)
    return (isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape
            and np.array_equal(got, expected, equal_nan=True) and got.flags.writeable)


@hypothesis_settings(max_examples=300, deadline=None)
@given(hnp.arrays(_DTYPES, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)), st.booleans())
def test_every_array_reads_back_as_np_load_reads_it(array, fortran):
    array = np.asfortranarray(array) if fortran else array
    raw = _payload(array)
    assert _same(_read(raw), _loaded(raw))
    assert np.array_equal(_read(raw), array, equal_nan=True)


@pytest.mark.parametrize("edit", [
    lambda raw: raw[:-1],                                      # one byte short
    lambda raw: raw + b"\x00" * 8,                             # one float too many
    lambda raw: raw.replace(b"(3, 4)", b"(3, 5)"),             # a shape the data does not fill
    lambda raw: raw.replace(b"(3, 4)", b"(9999999999, 9999999999)"),  # a shape no memory holds
    lambda raw: raw.replace(b"(3, 4)", b"(3, -4)"),
    lambda raw: raw.replace(b"'<f8'", b"'|O8'"),               # objects
    lambda raw: raw.replace(b"'<f8'", b"'<V8'"),               # raw bytes
    lambda raw: raw.replace(b"'<f8'", b"'<f0'"),
    lambda raw: raw.replace(b"False", b"True "),               # Fortran order: np.load's own reading
    lambda raw: raw.replace(b"False", b"0    "),
    lambda raw: raw.replace(b"\x01\x00", b"\x02\x00", 1),       # another format version
    lambda raw: raw[:8] + (int.from_bytes(raw[8:10], "little") + 8).to_bytes(2, "little") + raw[10:],
    lambda raw: raw[:8] + b"\xff\xff" + raw[10:],              # a header longer than the payload
    lambda raw: raw.replace(b"}", b", 'extra': 1}"),
    lambda raw: raw.replace(b"\n", b" "),
    lambda raw: raw.replace(b"(3, 4)", b"(12)  "),             # not a tuple
    lambda raw: raw.replace(b"(3, 4)", b"(03, 4)"),            # a leading zero Python does not read
    lambda raw: raw.replace(b"(3, 4)", b"(3, 4,)"),
    lambda raw: raw[:8] + (int.from_bytes(raw[8:10], "little") + 10240).to_bytes(2, "little")
    + raw[10:].replace(b"}", b"}" + b" " * 10240, 1),          # padded past np.load's header limit
])
def test_an_edited_payload_reads_as_np_load_reads_it_or_is_refused(edit):
    raw = edit(_payload(np.arange(12, dtype="<f8").reshape(3, 4)))
    assert _same(_read(raw), _loaded(raw))


# Arrays are written without np.save where they are plain (codec._npy_bytes): the bytes must be
# np.save's own, so a payload reads back the same on either side, whatever the layout.
@hypothesis_settings(max_examples=300, deadline=None)
@given(hnp.arrays(_DTYPES, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)),
       st.sampled_from(["c", "fortran", "strided", "transposed"]))
def test_every_array_is_written_as_np_save_writes_it(array, layout):
    if layout == "fortran":
        array = np.asfortranarray(array)
    elif layout == "strided":
        array = array[..., ::2] if array.ndim else array
    elif layout == "transposed":
        array = array.T
    assert codec._npy_bytes(array) == _payload(array)


def test_a_later_module_is_imported_at_first_use_and_then_takes_its_stand_ins_place():
    namespace: dict = {}
    namespace["json_module"] = codec.Later("json", namespace, "json_module")
    assert isinstance(namespace["json_module"], codec.Later)
    assert namespace["json_module"].dumps([1]) == "[1]"
    assert namespace["json_module"] is json


def test_a_later_module_that_does_not_exist_fails_at_first_use_with_the_import_error():
    stand_in = codec.Later("no_such_module_here", {}, "missing")
    with pytest.raises(ModuleNotFoundError, match="no_such_module_here"):
        stand_in.anything
