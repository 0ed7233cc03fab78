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
