"""The student's side of grading: runs the answers of one submission and calls them on request.

This file runs inside the sandbox (``python -I student.py``), in a process of its own, and
imports nothing from the course tooling. It knows no test and no expected value. The grader
sends it, as one line of JSON each, on its standard input:

1. ``{"course": dir, "context": source, "answers": [[question, source], ...]}``: the folder that
   holds the course package (with the assignment's withdrawn functions replaced, see
   ``grade.py``), the chapter's imports and definitions, and the submission's answer cells;
   (of the chapter, only the imports and definitions the answers name: :func:`needed_context`);
2. then requests ``{"id": k, "call": name, "args": [...], "kwargs": {...}}`` (call a function
   the answers defined) or ``{"id": k, "get": name}`` (the value of a name they assigned).

It answers each on its original standard output, one line of JSON: ``{"id": k, "value": ...}``
or ``{"id": k, "error": [type, message]}``. Values travel as data only, never as pickles:
numbers, strings, ``None``, lists, tuples, dicts and numpy arrays of numbers or booleans
(``.npy`` bytes read back with ``allow_pickle=False``), by :func:`encode` and :func:`decode`,
which the grader uses too. Whatever the student's code does to numpy, builtins or this module
in this process, the grader compares the values in its own process.
"""

from __future__ import annotations

import ast
import base64
import io
import json
import os
import re
import sys

import numpy as np

MAX_LINE = 256 * 2**20  # a larger answer is refused: 256 MiB of JSON is no test's output


def encode(value):
    """A JSON-ready form of ``value`` (plain data only, else ``TypeError``)."""
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
        items = [encode(v) for v in value]
        return items if type(value) is list else {"__tuple__": items}
    if type(value) is dict:
        if not all(type(k) in (str, int) for k in value):
            raise TypeError("dict keys must be strings or integers")
        return {"__dict__": [[k, encode(v)] for k, v in value.items()]}
    raise TypeError(f"{type(value).__name__} is not numbers, arrays, strings or None")


def decode(data):
    """The value :func:`encode` encoded."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__npy__" in data:
        arr = np.load(io.BytesIO(base64.b64decode(data["__npy__"])), allow_pickle=False)
        return arr[()] if data.get("scalar") else arr
    if "__tuple__" in data:
        return tuple(decode(v) for v in data["__tuple__"])
    if "__dict__" in data:
        return {k: decode(v) for k, v in data["__dict__"]}
    raise ValueError("not an encoded value")


def _strip_magics(source: str) -> str:
    """IPython magics and shell escapes are not Python (and no answer needs them)."""
    return "\n".join("" if line.lstrip()[:1] in ("%", "!") else line for line in source.split("\n"))


def needed_context(context: str, answers: str) -> str:
    """The chapter's imports and definitions that the answers may use: each imported name and
    each definition whose name occurs in the answers' text (or in a kept definition). A chapter
    imports plotting and symbolic libraries the answers never touch; importing them for every
    submission would cost more than the grading."""
    statements = []  # one import per name: ``from mlnotes import claims, svm`` -> two
    for node in ast.parse(context).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and len(node.names) > 1:
            for alias in node.names:
                one = ast.Import(names=[alias]) if isinstance(node, ast.Import) else \
                    ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                statements.append(ast.unparse(one))
        else:
            statements.append(ast.get_source_segment(context, node))
    tree = ast.parse("\n".join(statements))
    context = "\n".join(statements)
    kept, text, changed = set(), answers, True
    while changed:  # definitions may use other definitions and imports
        changed = False
        for k, node in enumerate(tree.body):
            if k in kept:
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [(a.asname or a.name).split(".")[0] for a in node.names]
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            else:
                names = []
            if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names) or not names:
                kept.add(k)
                text += "\n" + ast.get_source_segment(context, node)
                changed = True
    return "\n".join(ast.get_source_segment(context, node) for k, node in enumerate(tree.body) if k in kept)


def _error(exc: BaseException) -> list[str]:
    return [type(exc).__name__, str(exc)[:500]]


def serve() -> None:
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the grader's channel
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the student's prints and warnings go nowhere
        os.dup2(devnull, fd)

    def send(message: dict) -> None:
        reply.write(json.dumps(message) + "\n")
        reply.flush()

    setup = json.loads(requests.readline(MAX_LINE))
    sys.path.insert(0, setup["course"])  # the course package, with the withdrawn functions
    namespace: dict = {"__name__": "__main__", "display": print}
    errors = {}
    try:
        answers = "\n".join(source for _, source in setup["answers"])
        context = needed_context(_strip_magics(setup["context"]), answers)
        exec(compile(context, "<chapter>", "exec"), namespace)
    except BaseException as exc:  # reported, the answers may still run
        errors["(chapter)"] = _error(exc)
    for question, source in setup["answers"]:
        try:
            exec(compile(_strip_magics(source), f"<answer {question}>", "exec"), namespace)
        except BaseException as exc:  # an answer cell that fails loses its own points
            errors[question] = _error(exc)
    send({"ready": True, "errors": errors})
    for line in iter(lambda: requests.readline(MAX_LINE), ""):
        request = json.loads(line)
        try:
            if "get" in request:
                value = namespace[request["get"]]
            else:
                function = namespace[request["call"]]
                value = function(*decode(request["args"]), **decode(request["kwargs"]))
            message = {"id": request["id"], "value": encode(value)}
        except BaseException as exc:  # the student's error is the answer
            message = {"id": request["id"], "error": _error(exc)}
        send(message)


if __name__ == "__main__":
    serve()
