"""The student's side of grading: runs a submission's cells and calls its functions on request.

Threat: everything in this process is the student's. It runs inside the sandbox
(``python -I student.py COURSE``), imports nothing from the course tooling and knows no test and
no expected value; whatever the student's code does to numpy, builtins or this module here, the
grader compares the values in its own process (``judge.py``), after checking every message that
comes back (``channel.py``).

The grader sends requests on standard input, one line of JSON each, and reads one line of JSON
per request on the original standard output (the student's prints go nowhere):

- ``{"id": k, "exec": label, "source": code}``: run a cell (the chapter's definitions, an answer);
- ``{"id": k, "call": name, "args": [...], "kwargs": {...}}``: call a function the answers define;
- ``{"id": k, "get": name}``: the value of a name the answers assign.

Answers: ``{"id": k, "value": ...}`` or ``{"id": k, "error": [type, message]}``. Values travel as
data only, never as pickles: numbers, strings, ``None``, lists, tuples, dicts and numpy arrays of
numbers or booleans (``.npy`` bytes read back with ``allow_pickle=False``), by :func:`encode` and
:func:`decode`, which the grader uses too.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys

import numpy as np

MAX_LINE = 64 * 2**20  # a larger message is refused: 64 MiB of JSON is no test's data
MAX_DEPTH = 32  # nesting of lists, tuples and dicts in a value: no test needs more


def encode(value, depth: int = 0):
    """A JSON-ready form of ``value`` (plain data only, else ``TypeError``)."""
    if depth > MAX_DEPTH:
        raise TypeError(f"a value nested more than {MAX_DEPTH} deep")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)) and type(value) in (int, float, bool):
        return value
    if isinstance(value, (np.ndarray, np.generic, complex)):
        arr = np.asarray(value)
        if arr.dtype.kind not in "biufc":
            raise TypeError(f"an array of {arr.dtype} is not numbers")
        buf = io.BytesIO()
        np.save(buf, arr, allow_pickle=False)
        return {"__npy__": base64.b64encode(buf.getvalue()).decode("ascii"), "scalar": arr.ndim == 0
                and not isinstance(value, np.ndarray)}
    if type(value) in (list, tuple):
        items = [encode(v, depth + 1) for v in value]
        return items if type(value) is list else {"__tuple__": items}
    if type(value) is dict:
        if not all(type(k) in (str, int) for k in value):
            raise TypeError("dict keys must be strings or integers")
        return {"__dict__": [[k, encode(v, depth + 1)] for k, v in value.items()]}
    raise TypeError(f"{type(value).__name__} is not numbers, arrays, strings or None")


def decode(data, depth: int = 0):
    """The value :func:`encode` encoded; ``ValueError`` for anything else."""
    if depth > MAX_DEPTH:
        raise ValueError(f"a value nested more than {MAX_DEPTH} deep")
    if isinstance(data, list):
        return [decode(v, depth + 1) for v in data]
    if data is None or type(data) in (bool, int, float, str):
        return data
    if not isinstance(data, dict):
        raise ValueError("not an encoded value")
    if set(data) == {"__npy__", "scalar"} and isinstance(data["__npy__"], str):
        arr = np.load(io.BytesIO(base64.b64decode(data["__npy__"], validate=True)), allow_pickle=False)
        if arr.dtype.kind not in "biufc":
            raise ValueError(f"an array of {arr.dtype} is not numbers")
        return arr[()] if data["scalar"] is True else arr
    if set(data) == {"__tuple__"} and isinstance(data["__tuple__"], list):
        return tuple(decode(v, depth + 1) for v in data["__tuple__"])
    if set(data) == {"__dict__"} and isinstance(data["__dict__"], list):
        pairs = data["__dict__"]
        if not all(isinstance(p, list) and len(p) == 2 and type(p[0]) in (str, int) for p in pairs):
            raise ValueError("not an encoded dict")
        return {k: decode(v, depth + 1) for k, v in pairs}
    raise ValueError("not an encoded value")


def _strip_magics(source: str) -> str:
    """IPython magics and shell escapes are not Python (and no answer needs them)."""
    return "\n".join("" if line.lstrip()[:1] in ("%", "!") else line for line in source.split("\n"))


def _error(exc: BaseException) -> list[str]:
    return [type(exc).__name__, str(exc)[:500]]


def serve(course: str) -> None:
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the grader's channel
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the student's prints and warnings go nowhere
        os.dup2(devnull, fd)
    sys.path.insert(0, course)  # the course package, with the withdrawn functions
    namespace: dict = {"__name__": "__main__", "display": print}
    for line in iter(lambda: requests.readline(MAX_LINE), ""):
        request = json.loads(line)
        try:
            if "exec" in request:
                label = request["exec"]
                exec(compile(_strip_magics(request["source"]), f"<{label}>", "exec"), namespace)
                value = None
            elif "get" in request:
                value = namespace[request["get"]]
            else:
                function = namespace[request["call"]]
                value = function(*decode(request["args"]), **decode(request["kwargs"]))
            message = {"id": request["id"], "value": encode(value)}
        except BaseException as exc:  # the student's error is the answer
            message = {"id": request["id"], "error": _error(exc)}
        reply.write(json.dumps(message) + "\n")
        reply.flush()


if __name__ == "__main__":
    serve(sys.argv[1])
