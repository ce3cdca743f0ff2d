"""Claims: every derivation step of the course, checked numerically or symbolically.

A claim is a function registered under the label of the equation it verifies
(``eq-normal-equations``, ``eq-adaboost-bound``, ...). It builds instances (random or real),
computes both sides of the equation and returns one residual per instance; the claim holds when
the worst residual is at most its tolerance. A chapter's check cell calls :func:`verify` and
shows one line; the tests run every claim on more instances; ``python -m mlnotes.claims``
prints the whole ledger and exits non-zero if any claim fails.

Claims live next to each other by topic, one module per chapter (``mlnotes/claims/linear.py``
for Chapter 1, ...). Every module in this package is imported when the registry is first used,
so adding a claim means adding a decorated function, nothing more.

Writing a claim::

    @claim("eq-grad-linear", chapter="00_notation", tol=1e-8, per_instance=True,
           statement=r"$\\nabla_w (a^\\top w) = a$",
           foil=r"$\\nabla_w (a^\\top w) = a^\\top w\\, a$ (the function for its gradient)")
    def eq_grad_linear(rng, foil=False):
        a, w = rng.standard_normal((2, 5))
        grad = (a @ w) * a if foil else a
        return rel_error(numerical_gradient(lambda v: a @ v, w), grad)

With ``per_instance=True`` the function builds one instance from the seeded
``numpy.random.Generator`` it receives and returns its residual; the registry calls it once per
instance, with the same generator. A claim whose instances share work (one data set, one run
reused) takes ``(rng, n, foil=False)`` instead and returns the residuals (any sequence of
floats, one per instance).

Every claim has a **foil**: a wrong version of its statement, the mistake a student or the
notes would make (a sign, a factor, a transpose, a missing term, the other inequality; for a
claim with errata, the notes' own version). Called with ``foil=True`` the function builds the
same instances and runs the same check on the foil's side of the equation instead of the
right one; the check must reject it by a wide margin (:data:`FOIL_MARGIN` times the
tolerance). A check that cannot reject its foil proves nothing, whatever its residual.

Name the function after its label, so a traceback says which claim failed. Symbolic
claims return a single residual: 0 when sympy proves the identity; they import sympy inside the
function, so that numerical claims (and ``import mlnotes``) never load it.
"""

from __future__ import annotations

import html
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "FOIL_MARGIN", "Claim", "ClaimFailed", "ClaimResult", "Erratum", "all_claims", "claim",
    "foil_margin", "run", "verify",
]

# A foil must fail by this factor: its worst residual at least FOIL_MARGIN * tol. For a claim
# with tol = 0 (an inequality whose violation is exactly 0 when it holds) the foil must exceed
# FOIL_MARGIN * ZERO_TOL_SCALE: a violation of rounding size would be no rejection at all.
FOIL_MARGIN = 100.0
ZERO_TOL_SCALE = 1e-12
# A tolerance above this needs a stated reason (``tol_reason``).
TOL_NEEDS_REASON = 1e-3


ERRATUM_KINDS = ("error", "as extracted", "clarification")


@dataclass(frozen=True)
class Erratum:
    """A place where the source lecture notes are wrong or misleading, and the claim to run.

    Attributes
    ----------
    where : str
        Which note and where in it, e.g. ``"notes 000, section 2.3, eq. (2.12)"``.
    says : str
        What the notes state (MyST markdown, math allowed).
    correct : str
        The corrected statement and a sentence on why.
    kind : str
        ``"error"``: the notes state something false, and the claim's check fails on the notes'
        version. ``"as extracted"``: the text we have is corrupted (OCR, extraction), so the
        source may be right; ``raw`` quotes the extraction. ``"clarification"``: the notes
        are right under a convention a student could misread; ``correct`` states it.
    raw : str
        The extracted text verbatim (required for ``"as extracted"``), shown as code.
    foil : bool or str
        For an ``"error"``: what the claim's function takes as ``foil=`` to check the notes'
        version instead of the correct one. ``True`` (the default) is the claim's own foil,
        which must then be the notes' statement; a name selects another wrong version the
        function computes, for a claim with more than one error of the notes. The tests run
        every error's check this way and require it to fail by the claim's foil margin.
    """

    where: str
    says: str
    correct: str
    kind: str = "error"
    raw: str = ""
    foil: bool | str = True

    def __post_init__(self):
        if self.kind not in ERRATUM_KINDS:
            raise ValueError(f"Erratum kind must be one of {ERRATUM_KINDS}, got {self.kind!r}")
        if self.kind == "as extracted" and not self.raw.strip():
            raise ValueError(f"an 'as extracted' erratum quotes the extraction in raw: {self.where}")
        if self.kind != "error" and self.foil is not True:
            raise ValueError(f"only an error of the notes names a foil: {self.where}")


@dataclass(frozen=True)
class Claim:
    """A registered claim; see the module docstring."""

    label: str
    chapter: str
    statement: str
    tol: float
    func: Callable[..., Sequence[float] | float]
    n_instances: int = 20
    n_test_instances: int = 200
    measure: str = "rel. residual"
    symbolic: bool = False
    errata: tuple[Erratum, ...] = field(default_factory=tuple)
    per_instance: bool = False
    foil: str = ""
    exact: str = ""
    tol_reason: str = ""
    foil_margin: float = FOIL_MARGIN

    def residuals(self, rng: np.random.Generator, n: int, *, foil: bool | str = False) -> np.ndarray:
        """The residuals of ``n`` instances built from ``rng`` (one for a symbolic claim);
        with ``foil=True`` the same instances checked against the foil (with a name, against
        the wrong version of that name, see :attr:`Erratum.foil`)."""
        if self.per_instance:
            return np.array([self.func(rng, foil=foil) for _ in range(n)], dtype=float)
        return np.atleast_1d(np.asarray(self.func(rng, n, foil=foil), dtype=float))

    def run(self, *, n_instances: int | None = None, seed: int = 0,
            foil: bool | str = False) -> ClaimResult:
        """Check the claim (or, with ``foil=True``, its foil) on instances from ``seed``."""
        n = 1 if self.symbolic else (self.n_instances if n_instances is None else int(n_instances))
        residuals = self.residuals(np.random.default_rng(seed), n, foil=foil)
        if residuals.size == 0:
            raise RuntimeError(f"claim {self.label!r} returned no residuals")
        worst = float(np.max(np.where(np.isnan(residuals), np.inf, residuals)))
        return ClaimResult(self.label, 0 if self.symbolic else residuals.size, worst, self.tol,
                           self.measure, source=inspect.getsource(self.func))


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of running one claim: worst residual against tolerance.

    In a notebook or the book the line comes with the claim's code under it, folded
    (``_repr_html_``). Printed (as a chapter's check cell shows it), a passing result is a verdict against the
    tolerance and nothing more, e.g. ``eq-ridge-solution  verified on 20 instances: max rel.
    residual <= 1e-10``. The worst residual itself is rounding noise that changes with the CPU,
    the BLAS and the thread count, so a committed notebook must not show it; it stays available
    as :attr:`max_residual` (the ledger, ``python -m mlnotes.claims``, prints it). A failure
    prints the residual, since then it is the news.
    """

    label: str
    n_instances: int
    max_residual: float
    tol: float
    measure: str
    source: str = field(default="", repr=False, compare=False)

    @property
    def passed(self) -> bool:
        return bool(self.max_residual <= self.tol)

    def __str__(self) -> str:
        n = "symbolically" if self.n_instances == 0 else f"on {self.n_instances} instances"
        if self.passed:
            if self.n_instances == 0:
                return f"{self.label}  verified symbolically"
            return f"{self.label}  verified {n}: max {self.measure} <= {self.tol:g}"
        return f"{self.label}  FAILED {n}: max {self.measure} {self.max_residual:.1e} > {self.tol:g}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        """The check line, and under it the claim's own code, folded (Jupyter and the book).

        The line is the text/plain one, unchanged; the code is the registered function's source
        (decorator included: statement, tolerance, instance count), so a reader can see what
        the line checked without opening mlnotes/claims. Plain escaped text, no highlighting,
        so the output is the same wherever it is produced.
        """
        line = f'<pre class="mlnotes-claim-line">{html.escape(str(self))}</pre>'
        if not self.source:
            return f'<div class="mlnotes-claim">{line}</div>'
        return (
            f'<div class="mlnotes-claim">{line}<details class="mlnotes-claim-source">'
            "<summary>Show the check</summary>"
            f'<pre><code class="language-python">{html.escape(self.source)}</code></pre>'
            "</details></div>"
        )


class ClaimFailed(AssertionError):
    """Raised by :func:`verify` when a claim's worst residual exceeds its tolerance."""


_REGISTRY: dict[str, Claim] = {}
_LOADED = False


def claim(
    label: str,
    *,
    chapter: str,
    statement: str,
    tol: float,
    n_instances: int = 20,
    n_test_instances: int = 200,
    measure: str = "rel. residual",
    symbolic: bool = False,
    errata: Sequence[Erratum] = (),
    per_instance: bool = False,
    foil: str = "",
    exact: str = "",
    tol_reason: str = "",
    foil_margin: float = FOIL_MARGIN,
) -> Callable:
    """Register the decorated function as the claim for equation ``label``.

    ``symbolic=True`` marks a claim proved by sympy: it runs once and reports 0 instances.
    ``per_instance=True`` marks a function ``(rng, foil=False) -> float`` that builds and
    checks one instance; otherwise the function is ``(rng, n, foil=False) -> residuals``.
    ``foil`` states the wrong statement the function checks when called with ``foil=True``.
    ``exact`` says why the residual is exactly 0 on every instance, for a claim where it is
    (an inequality's violation, a count, a symbolic proof): there a 0 cannot tell a true claim
    from a vacuous one, and only the foil shows the check can fail. ``tol_reason`` justifies a
    tolerance above ``TOL_NEEDS_REASON`` and a ``foil_margin`` below ``FOIL_MARGIN`` (a Monte
    Carlo check, whose residual is in standard errors, cannot reach 100 times 5 of them).
    A symbolic claim is exact by construction: sympy's answer is 0 or 1.
    """
    if symbolic and not exact:
        exact = "symbolic: sympy proves the identity (residual 0) or does not (1)"
    if not label.startswith("eq-"):
        raise ValueError(f"claim labels are equation labels starting with 'eq-', got {label!r}")

    def register(func):
        if label in _REGISTRY:
            raise ValueError(f"claim {label!r} is registered twice")
        _REGISTRY[label] = Claim(
            label, chapter, statement, float(tol), func, n_instances, n_test_instances,
            measure, symbolic, tuple(errata), per_instance, foil, exact, tol_reason,
            float(foil_margin),
        )
        return func

    return register


def _load() -> None:
    global _LOADED
    if not _LOADED:
        for mod in pkgutil.iter_modules(__path__):
            if not mod.name.startswith("_"):
                importlib.import_module(f"{__name__}.{mod.name}")
        _LOADED = True


def all_claims() -> list[Claim]:
    """Every registered claim, in chapter order then label order."""
    _load()
    return sorted(_REGISTRY.values(), key=lambda c: (c.chapter, c.label))


def get(label: str) -> Claim:
    _load()
    try:
        return _REGISTRY[label]
    except KeyError:
        raise KeyError(f"no claim is registered under {label!r}") from None


def run(
    label: str, *, n_instances: int | None = None, seed: int = 0, foil: bool | str = False
) -> ClaimResult:
    """Run one claim and return its result (never raises on failure); with ``foil=True``,
    check the claim's foil instead, on the same instances (its result should fail)."""
    return get(label).run(n_instances=n_instances, seed=seed, foil=foil)


def foil_margin(result: ClaimResult) -> float:
    """How many times over its tolerance a foil's result fails (a tolerance of 0 counts as
    ``ZERO_TOL_SCALE``); a foil is rejected by a wide margin when this is at least the claim's
    ``foil_margin`` (``FOIL_MARGIN`` unless the claim states why not)."""
    return result.max_residual / max(result.tol, ZERO_TOL_SCALE)


def verify(label: str, *, n_instances: int | None = None, seed: int = 0) -> ClaimResult:
    """Run one claim; return its one-line result, or raise :class:`ClaimFailed`.

    This is what a chapter's check cell calls, so a wrong derivation stops the notebook (and
    nbval, and the book build) instead of printing a number nobody reads.
    """
    result = run(label, n_instances=n_instances, seed=seed)
    if not result.passed:
        raise ClaimFailed(str(result))
    return result
