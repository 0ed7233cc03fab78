"""A reply under the 32 MB frame limit that the trusted grader turns into >1 GB of Python objects.

The worker's own codec is patched so the frame is written pre-built (encoding 10M lists would hit the timeout)."""
import struct
import sys

_N = 10_400_000                      # "[]," x 10.4M = 31 MB of JSON
_VALUE = b"[" + b"[]," * (_N - 1) + b"[]]"

codec = sys.modules["codec"]
_real_dump = codec.dump_frame


def _dump(message):
    if message.get("ok") and "value" in message and message.get("value") == "BLOAT":
        head = ('{"id":%d,"ok":true,"draws":[],"warnings":[],"output":{"head":"","tail":"","cut":0,"total":0},"value":'
                % message["id"]).encode()
        body = head + _VALUE + b"}"
        return struct.pack(">I", len(body)) + body
    return _real_dump(message)


codec.dump_frame = _dump


def scalar_gradient_chain(depth, layer_scale):
    return "BLOAT"
