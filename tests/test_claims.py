"""The claim ledger: every claim passes on many instances, and claims and equation labels
match one to one (every claim checks a labelled equation of its chapter; every equation
labelled ``eq-...`` in a chapter has a claim). And every check can fail: each claim rejects its
foil, a wrong statement, by a wide margin, and the vacuous versions of a claim (a quantity
compared with itself, a huge tolerance, a violation that can never be positive, a filter that
keeps nothing) are caught."""

from __future__ import annotations

import dataclasses
import inspect
import linecache
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlnotes import claims
from mlnotes.claims._ledger import claims_page, errata_page

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
# A MyST labelled display equation: "$$ ... $$ (label)" with the label right after the closing $$.
EQ_LABEL = re.compile(r"\$\$\s*\((eq-[A-Za-z0-9_-]+)\)")
ALL = claims.all_claims()


def chapter_labels() -> dict[str, set[str]]:
    return {
        py.stem: set(EQ_LABEL.findall(py.read_text())) for py in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
    }


@pytest.mark.parametrize("c", ALL, ids=[c.label for c in ALL])
def test_claim_holds_on_many_instances(c):
    result = claims.run(c.label, n_instances=c.n_test_instances, seed=12345)
    assert result.passed, str(result)
    # A residual of exactly 0 on every instance looks the same whether the claim is true or its
    # check is vacuous: such a claim says why it is exact, and its foil shows it can fail.
    assert result.max_residual > 0 or c.exact, (
        f"{c.label}: residual exactly 0 on all {result.n_instances} instances; "
        "state why with exact='...' (the foil test shows the check can fail)")


# -- every check can fail -----------------------------------------------------------------------


def problems_of(c: claims.Claim) -> list[str]:
    """Why ``c``'s check could not fail, or its tolerance means nothing; [] when neither."""
    if not c.foil.strip():
        return [f"{c.label}: no foil (a wrong statement the check must reject)"]
    if "foil" not in inspect.signature(c.func).parameters:
        return [f"{c.label}: the claim function takes no foil argument"]
    problems = []
    foil = c.run(foil=True)  # the chapter's instances: the ledger shows this very verdict
    margin = claims.foil_margin(foil)
    if not margin >= c.foil_margin:  # "not >=": a NaN margin fails too
        problems.append(f"{c.label}: the foil passes or fails narrowly: residual "
                        f"{foil.max_residual:.1e} is {margin:.1e} x the tolerance {c.tol:g}, "
                        f"needs {c.foil_margin:g} x")
    if c.tol > claims.TOL_NEEDS_REASON and not c.tol_reason:
        problems.append(f"{c.label}: tolerance {c.tol:g} > {claims.TOL_NEEDS_REASON:g} "
                        "without tol_reason")
    if c.foil_margin < claims.FOIL_MARGIN and not c.tol_reason:
        problems.append(f"{c.label}: foil margin {c.foil_margin:g} < {claims.FOIL_MARGIN:g} "
                        "without tol_reason")
    if c.foil_margin < 2:
        problems.append(f"{c.label}: a foil margin below 2 is no margin")
    return problems


@pytest.mark.parametrize("c", ALL, ids=[c.label for c in ALL])
def test_claim_rejects_its_foil_by_a_wide_margin(c):
    assert problems_of(c) == []


# The four vacuous versions of a claim that passed every test before issue 32, planted in the
# source of real claims: (label, text replaced, replacement).
VACUOUS = {
    "compares a quantity with itself": (
        "eq-grad-rss", "sign * 2 * X.T @ (y - X @ w))", "numerical_gradient(rss, w))"),
    "tolerance raised to 1e9": ("eq-grad-rss", "tol=TOL_GRAD", "tol=1e9"),
    "max(0, .) turned into min(0, .)": ("eq-sqrt-exp", "np.maximum(0.0,", "np.minimum(0.0,"),
    "a filter that keeps no instance": (
        "eq-Z-closed-form", "ok = _clean_rounds(fit)", "ok = fit.eps < 0"),
}


def planted(c: claims.Claim, old: str, new: str) -> claims.Claim:
    """The claim built from its own source with ``old`` replaced by ``new``, not registered."""
    source = inspect.getsource(c.func)
    assert source.count(old) == 1, f"{old!r} is not once in the source of {c.label}"
    made = []

    def claim(label, **kw):  # stands in for the registry's decorator
        def build(func):
            made.append(claims.Claim(label, func=func, errata=tuple(kw.pop("errata", ())), **kw))
            return func

        return build

    namespace = {**vars(sys.modules[c.func.__module__]), "claim": claim}
    text, filename = source.replace(old, new), f"<{c.label} with a planted defect>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)  # its source
    exec(compile(text, filename, "exec"), namespace)
    return made[0]


@pytest.mark.parametrize("defect", VACUOUS)
def test_a_vacuous_claim_passes_its_check_but_not_the_foil_test(defect):
    label, old, new = VACUOUS[defect]
    real = claims.get(label)
    assert real.run().passed and problems_of(real) == []
    mutant = planted(real, old, new)
    assert mutant.run().passed, "the planted defect should leave the check line green"
    assert problems_of(mutant), f"a claim that {defect} went unnoticed"


def test_foil_margin_counts_a_zero_tolerance_as_rounding():
    # tol = 0: a foil failing by rounding (1e-15) is no rejection; by 1e-6 it is
    r = claims.ClaimResult("eq-x", 20, 1e-15, 0.0, "violation")
    assert claims.foil_margin(r) < claims.FOIL_MARGIN
    assert claims.foil_margin(dataclasses.replace(r, max_residual=1e-6)) >= claims.FOIL_MARGIN
    assert claims.foil_margin(dataclasses.replace(r, tol=1e-8, max_residual=1e-6)) == 100


@pytest.mark.parametrize("c", ALL, ids=[c.label for c in ALL])
def test_claim_label_is_an_equation_of_its_chapter(c):
    labels = chapter_labels()
    assert c.chapter in labels, f"claim {c.label} names chapter {c.chapter}, which has no notebook"
    assert c.label in labels[c.chapter], f"{c.label} is not a labelled equation in {c.chapter}.py"


def test_every_derivation_equation_has_a_claim():
    registered = {c.label for c in ALL}
    missing = sorted(f"{ch}: {lab}" for ch, labs in chapter_labels().items() for lab in labs - registered)
    assert not missing, "equations labelled eq-... without a claim (label definitions def-...):\n" + "\n".join(
        missing
    )


def test_equation_labels_are_unique_across_chapters():
    seen: dict[str, str] = {}
    for ch, labs in chapter_labels().items():
        for lab in labs:
            assert lab not in seen, f"{lab} is defined in both {seen[lab]} and {ch}"
            seen[lab] = ch


def test_verify_raises_on_a_false_claim():
    @claims.claim("eq-test-false", chapter="none", tol=1e-12, statement="1 = 2")
    def _(rng, n, foil=False):
        return [1.0] * n

    try:
        with pytest.raises(claims.ClaimFailed, match="eq-test-false  FAILED"):
            claims.verify("eq-test-false")
        assert not claims.run("eq-test-false").passed
    finally:
        del claims._REGISTRY["eq-test-false"]


def test_check_line_is_a_verdict_without_rounding_digits():
    """A chapter shows the verdict against the tolerance, never the residual itself: the residual
    is rounding noise that differs between CPUs, BLAS builds and thread counts, and nbval compares
    committed outputs exactly. The residual stays available on the result."""
    ok = claims.ClaimResult("eq-x", 20, 3.1234e-15, 1e-10, "rel. residual")
    assert str(ok) == "eq-x  verified on 20 instances: max rel. residual <= 1e-10"
    assert repr(ok) == str(ok)
    assert ok.max_residual == 3.1234e-15
    symbolic = claims.ClaimResult("eq-x", 0, 0.0, 0.0, "sympy residual")
    assert str(symbolic) == "eq-x  verified symbolically"
    failed = claims.ClaimResult("eq-x", 20, 3.2e-5, 1e-10, "rel. residual")
    assert str(failed) == "eq-x  FAILED on 20 instances: max rel. residual 3.2e-05 > 1e-10"


def test_check_lines_of_every_claim_hide_the_residual():
    for c in ALL:
        result = claims.run(c.label, n_instances=2)
        line = str(result)
        assert "\n" not in line
        if result.passed and result.n_instances:
            assert line == f"{c.label}  verified on {result.n_instances} instances: max {c.measure} <= {c.tol:g}"


def test_the_code_a_check_cell_shows_fits_88_columns():
    """Under each verdict a chapter folds the claim's code ("Show the check"), which must read
    like the book's other code: at most 88 columns, since on screen a longer line scrolls and
    on paper it wraps into false indentation. ``make lint`` keeps the claim modules there."""
    for c in ALL:
        shown = inspect.getsource(c.func)  # what Claim.run attaches to its result
        long = [line for line in shown.splitlines() if len(line) > 88]
        assert not long, f"{c.label}: {len(long)} lines over 88 columns, e.g. {long[0]!r}"


def test_nan_residual_fails():
    @claims.claim("eq-test-nan", chapter="none", tol=1.0, statement="nan")
    def _(rng, n, foil=False):
        return [float("nan")]

    try:
        assert not claims.run("eq-test-nan").passed
    finally:
        del claims._REGISTRY["eq-test-nan"]


def test_labels_must_be_equation_labels():
    with pytest.raises(ValueError, match="eq-"):
        claims.claim("normal-equations", chapter="x", tol=1, statement="")


def test_book_pages_list_every_claim_and_erratum():
    page = claims_page()
    for c in ALL:
        assert f"{{eq}}`{c.label}`" in page
    errata = errata_page()
    for c in ALL:
        for e in c.errata:
            assert e.where in errata


def test_ledger_verdicts_come_from_running_the_claims(monkeypatch):
    """The ledger's verdict column is this build's: a claim that fails when the page is written
    says FAILED in its row."""
    import mlnotes.claims._ledger as ledger

    page = claims_page()
    assert page.count("| verified: ") == len(ALL) and "FAILED" not in page
    broken = ALL[0].label

    def run(label, **kw):
        r = claims.run(label, **kw)
        return dataclasses.replace(r, max_residual=2 * r.tol + 1) if label == broken else r

    monkeypatch.setattr(ledger, "run", run)
    row = next(line for line in ledger.claims_page().splitlines() if f"{{eq}}`{broken}`" in line)
    assert "| **FAILED**: " in row


def test_ledger_cli_exits_zero_and_prints_every_claim(capsys):
    from mlnotes.claims.__main__ import main

    assert main(["--instances", "3"]) == 0
    out = capsys.readouterr().out
    for c in ALL:
        assert c.label in out


def test_per_instance_claim_runs_once_per_instance_on_one_generator():
    # the per-instance form must consume the generator exactly as the (rng, n) loop it replaces
    def draw(rng, foil=False):
        return float(rng.uniform())

    claims.claim("eq-test-one", chapter="none", tol=1.0, statement="u <= 1", per_instance=True)(draw)
    claims.claim("eq-test-loop", chapter="none", tol=1.0, statement="u <= 1")(
        lambda rng, n, foil=False: [draw(rng) for _ in range(n)])
    try:
        one, loop = claims.get("eq-test-one"), claims.get("eq-test-loop")
        a = one.residuals(np.random.default_rng(3), 7)
        b = loop.residuals(np.random.default_rng(3), 7)
        assert a.shape == (7,) and np.array_equal(a, b)
        assert claims.run("eq-test-one", n_instances=7).n_instances == 7
    finally:
        del claims._REGISTRY["eq-test-one"], claims._REGISTRY["eq-test-loop"]


def test_claim_functions_are_named_after_their_labels():
    # a traceback from a failing claim names the equation it checks
    for c in ALL:
        assert c.func.__code__.co_name == c.label.replace("-", "_"), c.label


def test_numerical_claims_do_not_import_sympy():
    # sympy is only for the symbolic claims; import mlnotes and a numerical check stay without it
    code = ("import sys, mlnotes; assert 'sympy' not in sys.modules and 'scipy' not in sys.modules; "
            "from mlnotes import claims; claims.verify('eq-ridge-solution'); "
            "assert 'sympy' not in sys.modules, 'a numerical claim loaded sympy'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_erratum_kind_is_one_of_three_and_as_extracted_quotes_the_extraction():
    with pytest.raises(ValueError, match="kind must be one of"):
        claims.Erratum(where="w", says="s", correct="c", kind="typo")
    with pytest.raises(ValueError, match="quotes the extraction"):
        claims.Erratum(where="w", says="s", correct="c", kind="as extracted")
    for c in ALL:
        for e in c.errata:
            assert e.kind in claims.ERRATUM_KINDS
            assert bool(e.raw) == (e.kind == "as extracted"), e.where


def test_errata_page_shows_each_entry_under_its_class_with_its_check():
    page = errata_page()
    entries = [(c, e) for c in ALL for e in c.errata]
    for kind, heading in (("error", "## Errors"), ("as extracted", "## As extracted"),
                          ("clarification", "## Clarifications")):
        mine = [(c, e) for c, e in entries if e.kind == kind]
        assert (heading in page) == bool(mine)
        for c, e in mine:
            at = page.index(f". {e.where}\n\n*Class: {kind}.*")
            assert page.index(heading) < at
            assert f"claim `{c.label}`" in page[at:at + 4000]
            if e.raw:  # quoted word for word, folded at spaces to 88 columns
                assert " ".join(e.raw.split()) in " ".join(page[at:at + 4000].split())
    n = {k: sum(e.kind == k for _, e in entries) for k in claims.ERRATUM_KINDS}
    assert (f"**{len(entries)}** entries: {n['error']} errors, {n['as extracted']} as extracted "
            f"and {n['clarification']} clarifications") in page
    assert "**How entries are found.**" in page and "**How they are checked.**" in page


ERRORS = [(c, e) for c in ALL for e in c.errata if e.kind == "error"]


def notes_version_problems(c: claims.Claim, e: claims.Erratum) -> list[str]:
    """Why the check of ``c`` does not expose the error ``e`` of the notes; [] when it does:
    run on the notes' version (the claim's foil, or the named one), it must fail by the
    claim's foil margin, the margin every foil is held to."""
    problems = []
    if e.foil is True:
        if not c.foil.startswith("the notes'"):
            problems.append(f"{c.label}: the erratum uses the claim's foil, which is not "
                            f"the notes' version: {c.foil[:60]!r}")
    else:
        source = inspect.getsource(c.func)
        if f'"{e.foil}"' not in source:
            problems.append(f"{c.label}: the function never looks at the foil {e.foil!r}")
    result = c.run(foil=e.foil)
    if not claims.foil_margin(result) >= c.foil_margin:
        problems.append(f"{c.label}: the notes' version ({e.where}) passes or fails narrowly: "
                        f"residual {result.max_residual:.1e}, tolerance {c.tol:g}")
    return problems


@pytest.mark.parametrize("c, e", ERRORS, ids=[f"{c.label}-{i}" for i, (c, e) in enumerate(ERRORS)])
def test_every_error_of_the_notes_fails_its_check_on_the_notes_version(c, e):
    """Issue 30: an entry of class "error" accuses the notes only where the claim's check,
    run on the notes' own statement, fails."""
    assert notes_version_problems(c, e) == []


def test_two_errors_of_one_claim_are_two_different_foils():
    seen = {}
    for c, e in ERRORS:
        assert (c.label, e.foil) not in seen, (
            f"{c.label}: two errors checked on one foil ({seen[(c.label, e.foil)]}, {e.where})")
        seen[(c.label, e.foil)] = e.where


def test_an_error_whose_notes_version_is_the_correct_one_is_caught():
    """The test above can fail: make the notes' version of eq-grad-rss the correct gradient
    and the claim, still green, no longer exposes the error."""
    real = claims.get("eq-grad-rss")
    (e,) = real.errata
    assert real.run().passed and notes_version_problems(real, e) == []
    mutant = planted(real, "sign = 1 if foil else -1", "sign = -1")
    assert mutant.run().passed
    assert notes_version_problems(mutant, e)
    named = dataclasses.replace(e, foil="unknown")  # a name the function does not know
    assert notes_version_problems(real, named)


@pytest.mark.filterwarnings("ignore:Inconsistent values")
def test_l1_logistic_of_the_lasso_clarification_matches_sklearn():
    """The proximal-gradient fit behind eq-lasso-lambda-max's logistic check (notes 002's
    condition 1/C > sup |dL/dw_i|) agrees with scikit-learn's liblinear L1 fit, w_2 = 0."""
    sk = pytest.importorskip("sklearn.linear_model")
    from mlnotes.claims.linear import _l1_logistic

    rng = np.random.default_rng(3)
    for _ in range(5):
        m = int(rng.integers(20, 60))
        X = rng.standard_normal((m, 3)) * np.array([1.0, 1.0, 0.1])
        y = np.where(rng.random(m) < 1 / (1 + np.exp(-X @ np.array([2.0, -2.0, 20.0]))),
                     1.0, -1.0)
        lam = 1.1 * np.abs(X[:, 2]).sum()
        w, kkt = _l1_logistic(X, y, lam, rng.standard_normal(3))
        ref = sk.LogisticRegression(penalty="l1", C=1 / lam, fit_intercept=False,
                                    solver="liblinear", tol=1e-12, max_iter=10_000).fit(X, y)
        assert w[2] == 0 and ref.coef_[0, 2] == 0 and kkt < 1e-9
        np.testing.assert_allclose(w, ref.coef_[0], atol=1e-6)
