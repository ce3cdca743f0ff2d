"""Loaders for the small real data sets shipped in ``mlnotes/data/``.

Every data set here has results published by someone else, so the chapters and tests can
compare with numbers nobody on this project produced. Sources and licences are in
``mlnotes/data/README.md``. Loaders return plain numpy arrays in a frozen dataclass.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from mlnotes._validation import OwnsArrays

__all__ = [
    "Dataset",
    "NistDataset",
    "NIST_NAMES",
    "load_breast_cancer",
    "load_digits",
    "load_heart_scale",
    "load_iris",
    "load_linnerud",
    "load_nist",
    "load_prostate",
    "load_saheart",
    "load_spam_tiny",
    "load_spector",
    "TextDataset",
]


@dataclass(frozen=True)
class Dataset(OwnsArrays):
    """A data set: ``X`` (n, d), ``y`` (n,), and what the columns are.

    Its arrays are read-only and ``extra`` is a read-only mapping, like every result of the
    library (CONTRIBUTING.md's contract): data are read, never changed in place; copy to modify.
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    target_name: str
    description: str
    extra: dict = field(default_factory=dict)


def _path(*parts: str):
    return resources.files("mlnotes").joinpath("data", *parts)


def _read_text(*parts: str) -> str:
    return _path(*parts).read_text()


# -- NIST StRD linear least squares ---------------------------------------------------------

NIST_NAMES = (
    "Norris", "Pontius", "NoInt1", "NoInt2", "Filip", "Longley",
    "Wampler1", "Wampler2", "Wampler3", "Wampler4", "Wampler5",
)  # in NIST's order of difficulty: lower, average, higher


@dataclass(frozen=True)
class NistDataset(OwnsArrays):
    """A NIST StRD linear least-squares problem with its certified values (read-only arrays).

    Attributes
    ----------
    name : str
    X : ndarray of shape (n, p)
        The design matrix of the certified model (intercept column, powers of x, or the
        predictors as given), so that ``y ~ X @ certified``.
    y : ndarray of shape (n,)
    x : ndarray of shape (n,) or (n, k)
        The raw predictor column(s) as in the file.
    certified : ndarray of shape (p,)
        Certified coefficients B0, B1, ... (15 significant digits).
    certified_sd : ndarray of shape (p,)
        Certified standard deviations of the estimates.
    residual_sd : float
        Certified residual standard deviation.
    difficulty : str
        NIST's level: "Lower", "Average" or "Higher".
    model : str
        The model line from the file header.
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    x: np.ndarray
    certified: np.ndarray
    certified_sd: np.ndarray
    residual_sd: float
    difficulty: str
    model: str


def load_nist(name: str) -> NistDataset:
    """Load one of the 11 NIST StRD linear least-squares data sets (see ``NIST_NAMES``).

    Examples
    --------
    >>> D = load_nist("Norris")
    >>> D.X.shape, D.certified.round(6).tolist()  # NIST's certified intercept and slope
    ((36, 2), [-0.262323, 1.002117])
    """
    if name not in NIST_NAMES:
        raise ValueError(f"name must be one of {', '.join(NIST_NAMES)}; got {name!r}")
    lines = _read_text("nist", f"{name}.dat").splitlines()
    number = r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?"
    coef = [
        m for m in (re.match(rf"\s*B(\d+)\s+({number})\s+({number})\s*$", ln) for ln in lines) if m
    ]
    certified = np.array([float(m.group(2)) for m in coef])
    certified_sd = np.array([float(m.group(3)) for m in coef])
    first_b = min(int(m.group(1)) for m in coef)  # B0 if there is an intercept, B1 if not
    residual_sd = next(  # "Residual" and "Standard Deviation  <value>" are on two lines
        float(re.findall(number, ln)[-1])
        for prev, ln in zip(lines, lines[1:], strict=False)
        if prev.strip() == "Residual" and "Standard Deviation" in ln
    )
    difficulty = next(ln.split()[0] for ln in lines if "Level of Difficulty" in ln)
    model = next(ln.strip() for ln in lines if re.match(r"\s*y\s*=", ln))
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Data:") and "y" in ln.split()) + 1
    data = np.array([[float(v) for v in ln.split()] for ln in lines[start:] if ln.strip()])
    y, x = data[:, 0], data[:, 1:]
    p = certified.size
    if x.shape[1] > 1:  # Longley: the predictors as given, plus an intercept
        X = np.column_stack([np.ones(len(y)), x])
    else:  # polynomial in x of degree p - 1 (or p with no intercept)
        x = x[:, 0]
        X = np.column_stack([x**k for k in range(first_b, first_b + p)])
    return NistDataset(name, X, y, x, certified, certified_sd, residual_sd, difficulty, model)


# -- ESL, Stata/Greene, LIBSVM and UCI data ---------------------------------------------------

def load_prostate() -> Dataset:
    """Prostate cancer data (Stamey et al. 1989; ESL section 3.2), 97 rows.

    ``X`` holds the 8 predictors unstandardised, ``y`` is ``lpsa``; ``extra["train"]`` is the
    boolean mask of ESL's 67 training rows.

    Examples
    --------
    >>> D = load_prostate()
    >>> D.X.shape, D.target_name  # 97 men, 8 clinical measures, log PSA
    ((97, 8), 'lpsa')
    """
    # the header line starts with a tab (the row-number column has no name): keep it
    rows = [ln.split("\t") for ln in _read_text("prostate.data").splitlines() if ln.strip()]
    header = rows[0][1:]
    body = np.array([[float(v) for v in r[1:-1]] + [r[-1].strip() in ("T", "1")] for r in rows[1:]])
    names = tuple(header[:8])
    return Dataset(
        body[:, :8], body[:, 8], names, "lpsa",
        "Prostate cancer (Stamey et al. 1989), as in Hastie, Tibshirani and Friedman, ESL 2nd ed.",
        {"train": body[:, 9].astype(bool)},
    )


def load_saheart() -> Dataset:
    """South African heart disease data (Rousseauw et al. 1983; ESL section 4.4.2), 462 rows.

    All 9 predictors (``famhist`` coded 1 = Present); ``y`` is ``chd`` in {0, 1}.

    Examples
    --------
    >>> D = load_saheart()
    >>> D.X.shape, D.target_name  # 462 men, coronary heart disease in {0, 1}
    ((462, 9), 'chd')
    """
    lines = _read_text("SAheart.data").strip().splitlines()
    header = lines[0].split(",")[1:]
    body = np.array([[float(v) for v in ln.split(",")[1:]] for ln in lines[1:]])
    return Dataset(
        body[:, :-1], body[:, -1], tuple(header[:-1]), header[-1],
        "South African heart disease (Rousseauw et al. 1983), as in ESL section 4.4.2",
    )


def load_spector() -> Dataset:
    """Spector and Mazzeo (1980) grade data, 32 rows: GPA, TUCE, PSI; ``y`` = GRADE in {0, 1}.

    Examples
    --------
    >>> D = load_spector()
    >>> D.X.shape, D.target_name  # Spector and Mazzeo's 32 students
    ((32, 3), 'GRADE')
    """
    lines = _read_text("spector.csv").strip().splitlines()
    header = lines[0].split(",")
    body = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
    return Dataset(
        body[:, :3], body[:, 3], tuple(header[:3]), header[3],
        "Spector and Mazzeo (1980), the logit example of Greene, Econometric Analysis",
    )


def load_heart_scale() -> Dataset:
    """LIBSVM's heart_scale (Statlog heart, features scaled to [-1, 1]): 270 rows, labels +-1.

    Examples
    --------
    >>> D = load_heart_scale()
    >>> D.X.shape, sorted(set(D.y.tolist()))  # LIBSVM's heart_scale, labels in {-1, +1}
    ((270, 13), [-1.0, 1.0])
    """
    lines = _read_text("heart_scale").strip().splitlines()
    X = np.zeros((len(lines), 13))
    y = np.empty(len(lines))
    for i, ln in enumerate(lines):
        label, *pairs = ln.split()
        y[i] = float(label)
        for pair in pairs:
            j, v = pair.split(":")
            X[i, int(j) - 1] = float(v)  # sparse format: absent features are 0
    return Dataset(
        X, y, tuple(f"x{j}" for j in range(1, 14)), "label",
        "Statlog heart as shipped with LIBSVM (heart_scale)",
    )


def _load_sklearn_csv(name: str, description: str, feature_names: tuple[str, ...]) -> Dataset:
    lines = _read_text(name).strip().splitlines()
    head = lines[0].split(",")
    n_features = int(head[1])
    body = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
    return Dataset(body[:, :n_features], body[:, -1], feature_names, "class", description,
                   {"class_names": tuple(head[2:])})


def load_iris() -> Dataset:
    """Fisher's iris data: 150 rows, 4 features, classes 0 setosa, 1 versicolor, 2 virginica.

    Examples
    --------
    >>> D = load_iris()
    >>> D.X.shape, sorted(set(D.y.tolist()))  # Fisher's 150 irises, three species
    ((150, 4), [0.0, 1.0, 2.0])
    """
    return _load_sklearn_csv(
        "iris.csv", "Iris (Fisher 1936), UCI Machine Learning Repository",
        ("sepal length", "sepal width", "petal length", "petal width"),
    )


def load_breast_cancer() -> Dataset:
    """Breast Cancer Wisconsin (Diagnostic): 569 rows, 30 features, 0 malignant / 1 benign.

    Examples
    --------
    >>> D = load_breast_cancer()
    >>> # Wisconsin diagnostic: 569 tumours, 30 features
    >>> D.X.shape, sorted(set(D.y.tolist()))
    ((569, 30), [0.0, 1.0])
    """
    return _load_sklearn_csv(
        "breast_cancer.csv", "Breast Cancer Wisconsin (Diagnostic), UCI Machine Learning Repository",
        tuple(
            f"{stat} {feature}"
            for stat in ("mean", "error", "worst")
            for feature in (
                "radius", "texture", "perimeter", "area", "smoothness", "compactness",
                "concavity", "concave points", "symmetry", "fractal dimension",
            )
        ),
    )


def load_digits() -> Dataset:
    """UCI optical handwritten digits, 8x8 images: 1797 rows, 64 pixel counts in 0..16.

    ``y`` is the digit 0..9.

    Examples
    --------
    >>> D = load_digits()
    >>> D.X.shape, int(D.y.max()) + 1  # 8 x 8 images of the ten digits
    ((1797, 64), 10)
    """
    text = gzip.decompress(_path("digits.csv.gz").read_bytes()).decode()
    body = np.array([[float(v) for v in ln.split(",")] for ln in text.strip().splitlines()])
    return Dataset(
        body[:, :64], body[:, 64], tuple(f"pixel_{r}_{c}" for r in range(8) for c in range(8)),
        "digit", "Optical Recognition of Handwritten Digits (Alpaydin and Kaynak), UCI",
    )


def load_linnerud() -> Dataset:
    """Linnerud's fitness-club data (Tenenhaus 1998), 20 men: a multi-output regression.

    ``X`` holds three exercises (Chins, Situps, Jumps), ``y`` of shape (20, 3) three
    physiological measurements (Weight, Waist, Pulse), one column per output; their names are
    in ``extra["target_names"]``.

    Examples
    --------
    >>> D = load_linnerud()
    >>> D.X.shape, D.y.shape, D.extra["target_names"]
    ((20, 3), (20, 3), ('Weight', 'Waist', 'Pulse'))
    """
    lines = _read_text("linnerud.csv").strip().splitlines()
    header = tuple(lines[0].split(","))
    body = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
    return Dataset(
        body[:, :3], body[:, 3:], header[:3], "physiological measurements",
        "Linnerud (Tenenhaus 1998, La regression PLS), as shipped with scikit-learn",
        {"target_names": header[3:]},
    )


@dataclass(frozen=True)
class TextDataset(OwnsArrays):
    """Short texts and their labels: ``texts`` (a tuple of n strings), ``y`` (n,)."""

    texts: tuple[str, ...]
    y: np.ndarray
    description: str


def load_spam_tiny() -> TextDataset:
    """Sixty short messages written for Chapter 3, 24 spam (``y = +1``) and 36 ham (``-1``).

    A corpus for the bag-of-words representation, small enough to read in full: no
    published results (see ``mlnotes/data/README.md``).

    Examples
    --------
    >>> D = load_spam_tiny()
    >>> len(D.texts), int((D.y == 1).sum())  # 60 messages, 24 of them spam
    (60, 24)
    """
    lines = _read_text("spam_tiny.tsv").strip().splitlines()[1:]
    labels, texts = zip(*(ln.split("\t") for ln in lines), strict=True)
    y = np.array([1.0 if lab == "spam" else -1.0 for lab in labels])
    return TextDataset(tuple(texts), y, "Sixty short messages written for mlnotes, Chapter 3")
