"""Hidden test cases: generators of instances seeded by a secret the teacher holds.

Threat: students clone the repository (``make lab``) and open the chapters, so anything written
in a chapter's tests cell is public. A hidden case therefore holds no instance and no expected
value, only a generator and a property (CONTRIBUTING.md, "Exercises")::

    # HIDDEN TEST: the gradient vanishes at the least-squares solution
    rng_h = np.random.default_rng(list(b"development secret"))
    n, d = rng_h.integers(20, 60), rng_h.integers(2, 6)
    ...                                   # every input drawn from rng_h, sizes included

The first line, :data:`HIDDEN_RNG_LINE`, is the *development* generator: the chapter runs its
tests cell with it (nbval), and its instances are as public as the chapter. ``make assignments
SECRET=...`` replaces that line in each hidden case of the autograder by a generator seeded with
``HMAC-SHA256(secret, "<chapter>/<question>/<case>")`` (:func:`case_seed`): a student who reads
the chapter knows what is checked, not on which instances. Without a secret the build uses
:data:`DEVELOPMENT_SECRET` and says that the hidden instances are then public
(:func:`read_secret`).

:func:`literal_instances` refuses a hidden case that would still carry an instance: another seed
or generator, a literal array or tuple of numbers, a fixed grid (``np.linspace(-10, 10, 41)``).
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import os
from pathlib import Path

HIDDEN_RNG_LINE = 'rng_h = np.random.default_rng(list(b"development secret"))'
DEVELOPMENT_SECRET = "development secret"  # public: the instances it draws are public too
SECRET_ENV = "MLNOTES_SECRET"  # `make assignments SECRET=...` passes it this way, not in argv
DEVELOPMENT_WARNING = (
    "warning: no SECRET given, so the hidden tests draw their instances from the development "
    "secret, which is public: anyone can rebuild them from the repository. To grade for credit, "
    "build with `make assignments SECRET=<phrase>` or `SECRET_FILE=<file>` and keep it private.")

# What seeds a generator, or is one: only rng_h, drawn by the build, may feed a hidden case.
_SEEDING = {"default_rng", "RandomState", "seed", "Generator", "SeedSequence", "PCG64",
            "MT19937", "Philox", "SFC64"}
# numpy constructors that, called with numbers only, are a fixed instance (np.linspace(0, 1, 5));
# np.ones(2) or np.eye(3) carry a shape, not data
_CONSTRUCTORS = {"array", "asarray", "linspace", "arange", "diag", "geomspace", "logspace",
                 "vander"}


def case_seed(secret: str, chapter: str, question: str, case: int) -> int:
    """The seed of hidden case ``case`` (0-based among all the question's cases) of
    ``question`` in ``chapter``: 128 bits of HMAC-SHA256 keyed by the secret."""
    message = f"{chapter}/{question}/{case}".encode()
    return int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:16], "big")


def seeded_line(seed: int) -> str:
    """The line that replaces :data:`HIDDEN_RNG_LINE` in the autograder's copy of a case."""
    return f"rng_h = np.random.default_rng({seed:#x})"


def read_secret(secret_file: Path | None = None, environ=os.environ) -> tuple[str, bool]:
    """(secret, is_development): the contents of ``secret_file`` (stripped) if given, else
    ``$MLNOTES_SECRET``, else :data:`DEVELOPMENT_SECRET`. An empty secret is refused."""
    if secret_file is not None:
        secret = Path(secret_file).read_text().strip()
        if not secret:
            raise ValueError(f"secret file {secret_file}: it is empty")
        return secret, False
    secret = environ.get(SECRET_ENV, "")
    if secret.strip():
        return secret.strip(), False
    return DEVELOPMENT_SECRET, True


def _number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex))
            and not isinstance(node.value, bool))


def _literal_data(node: ast.AST) -> bool:
    """A list or set of two numbers or more, or a tuple of them with a float among them: data,
    where a tuple of ints, (200, 1), is a shape."""
    if isinstance(node, (ast.List, ast.Set)):
        return sum(map(_number, node.elts)) >= 2
    if isinstance(node, ast.Tuple):
        numbers = [e for e in node.elts if _number(e)]
        return len(numbers) >= 2 and any(not isinstance(ast.literal_eval(e), int) for e in numbers)
    return False


def literal_instances(code: str) -> list[str]:
    """Why the code of a hidden case (after its marker line) would make its instance public;
    empty if it draws everything from ``rng_h``."""
    lines = [line.strip() for line in code.split("\n")
             if line.strip() and not line.lstrip().startswith(("#", "import ", "from "))]
    if not lines or lines[0] != HIDDEN_RNG_LINE:
        return [f"its first line after imports must be {HIDDEN_RNG_LINE!r} (the build seeds it "
                "from the secret)"]
    problems = []
    body = code.replace(HIDDEN_RNG_LINE, "", 1)
    for node in ast.walk(ast.parse(body)):
        if isinstance(node, ast.Attribute) and (node.attr in _SEEDING or (
                node.attr == "random" and isinstance(node.value, ast.Name)
                and node.value.id in {"np", "numpy"})):  # np.random's global state
            problems.append(f"line {node.lineno}: a generator or seed of its own "
                            f"({ast.unparse(node)}); draw from rng_h")
        elif isinstance(node, ast.Name) and node.id in {"default_rng", "RandomState"}:
            problems.append(f"line {node.lineno}: a generator of its own ({node.id}); draw from rng_h")
        elif _literal_data(node):
            problems.append(f"line {node.lineno}: a literal instance {ast.unparse(node)[:40]}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _CONSTRUCTORS and node.args and all(map(_number, node.args))):
            problems.append(f"line {node.lineno}: a fixed instance {ast.unparse(node)[:40]}")
    return problems
