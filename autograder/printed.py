"""What a student's code printed during a check, as shown: its start and its end, and how much was cut.

Each reply carries the head and tail of what its call printed (the worker keeps no more); a check's
output is the head of the first calls and the tail of the last ones, never showing a part twice.
"""

from __future__ import annotations

from . import sanitize

HEAD_CHARS = TAIL_CHARS = sanitize.OUTPUT_CHARS


def assemble_output(outputs: list[dict]) -> dict | None:
    """One check's printed output from its calls' (each a dict of head, tail, total and cut)."""
    if not outputs:
        return None
    total = sum(o["total"] for o in outputs)
    head = ""
    for o in outputs:  # the start, from the calls whose text is known from their beginning
        head += o["head"] + ("" if o["cut"] else o["tail"])
        if o["cut"] or len(head) >= HEAD_CHARS:
            break
    head = head[:HEAD_CHARS]
    tail = ""
    for o in reversed(outputs):  # the end, from the calls whose text is known up to their end
        tail = (o["tail"] if o["cut"] else o["head"] + o["tail"]) + tail
        if o["cut"] or len(tail) >= TAIL_CHARS:
            break
    tail = tail[-TAIL_CHARS:]
    if len(head) + len(tail) >= total:  # nothing was cut: do not show the overlap twice
        return {"head": (head + tail)[:total] if len(head) >= total else head + tail[len(head) + len(tail) - total:],
                "tail": "", "cut": 0}
    return {"head": head, "tail": tail, "cut": total - len(head) - len(tail)}
