r"""Learning theory for finite hypothesis classes: Hoeffding, the union bound, ERM (Chapter 7).

A training error :math:`\hat e(h) = \frac1m \sum_{i=1}^m [h(x_i) \ne y_i]` is the mean of
:math:`m` Bernoulli variables with mean :math:`e(h)`, the generalisation error. Everything in
this module follows from one tail bound for such means, Hoeffding's inequality, and one
counting argument, the union bound:

.. math::

    P(|\hat\phi - \phi| > \gamma) \le 2 e^{-2\gamma^2 m}, \qquad
    P\bigl(\exists h \in \mathcal H : |\hat e(h) - e(h)| > \gamma\bigr) \le 2k\, e^{-2\gamma^2 m}.

The functions broadcast over array arguments (a grid of ``m``, ``phi``, ``gamma`` in one
call) and the simulators are vectorised over repetitions: a Monte Carlo run is one call to
``Generator.binomial`` or one ``(n_rep, m)`` array, never a Python loop over samples.

Names follow the book: ``m`` sample size, ``k`` class size, ``gamma`` deviation, ``delta``
confidence, ``phi`` a Bernoulli mean.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from mlnotes._validation import OwnsArrays, as_float_array, check_int, check_labels, check_rng, check_scalar

__all__ = [
    "ERMResult",
    "StumpClass",
    "binomial_logpmf",
    "binomial_tail",
    "chernoff_bound",
    "erm_simulation",
    "hoeffding_bound",
    "kl_bernoulli",
    "mc_interval",
    "sample_complexity",
    "simulate_deviation",
    "stump_class",
    "uniform_deviation",
    "union_bound",
]

# |phi_hat - phi| = gamma exactly (a tie) is not a deviation "> gamma"; on a computer the two
# sides of a tie differ by rounding, so ties are detected with this relative tolerance.
_TIE_RTOL = 1e-9


# -- input checks ------------------------------------------------------------------------------
def _first_bad(arr: np.ndarray, bad: np.ndarray):
    v = arr[bad].ravel()[0] if arr.ndim else arr
    return v.item() if hasattr(v, "item") else v


def _check_m(m, name: str = "m") -> np.ndarray:
    arr = np.asarray(m)
    if arr.dtype.kind not in "iuf" or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a positive integer (a sample size), got {m!r}")
    bad = (arr < 1) | (arr != np.floor(arr))
    if np.any(bad):
        raise ValueError(f"{name} must be an integer >= 1 (a sample size), got {_first_bad(arr, bad)!r}")
    # 2**63 and beyond would wrap around to a negative int64 (1e19 samples became -2**63)
    too_big = arr > np.iinfo(np.int64).max if arr.dtype.kind in "iu" else arr >= 2.0**63
    if np.any(too_big):
        raise ValueError(f"{name} must be below 2**63 (an int64 count), got {_first_bad(arr, too_big)!r}")
    return arr.astype(np.int64)


def _check_k(k) -> np.ndarray:
    return _check_m(k, "k")


def _check_values(value, name: str, ok, expected: str) -> np.ndarray:
    """``value`` as a float array whose every entry satisfies ``ok`` (NaN never does)."""
    arr = np.asarray(value, dtype=float)
    bad = ~ok(arr)
    if np.any(bad):
        raise ValueError(f"{name} must {expected}, got {_first_bad(arr, bad)!r}")
    return arr


def _check_gamma(gamma) -> np.ndarray:
    return _check_values(gamma, "gamma", lambda a: (a > 0) & np.isfinite(a),
                         "be a positive finite number (a deviation)")


def _check_delta(delta) -> np.ndarray:
    return _check_values(delta, "delta", lambda a: (a > 0) & (a < 1),
                         "lie in (0, 1) (a probability of failure)")


def _check_phi(phi) -> np.ndarray:
    return _check_values(phi, "phi", lambda a: (a >= 0) & (a <= 1), "lie in [0, 1] (a Bernoulli mean)")


# -- the bounds --------------------------------------------------------------------------------
def hoeffding_bound(m, gamma) -> np.ndarray | float:
    r"""Hoeffding's two-sided tail bound for the mean of ``m`` Bernoulli variables.

    .. math:: P(|\hat\phi - \phi| > \gamma) \le 2 \exp(-2 \gamma^2 m)

    Chapter 7, {eq}`eq-hoeffding`. The bound does not depend on :math:`\phi`; it exceeds 1
    (says nothing) when :math:`\gamma^2 m < \tfrac12 \log 2`. It is returned as is, not clipped,
    so that it can be inverted.

    Parameters
    ----------
    m : int or array_like of int
        Sample size, at least 1.
    gamma : float or array_like
        Deviation, positive. ``m`` and ``gamma`` broadcast.

    Returns
    -------
    float or ndarray
        :math:`2 e^{-2\gamma^2 m}`.

    Examples
    --------
    >>> round(hoeffding_bound(100, 0.1), 4)  # 2 exp(-2)
    0.2707
    """
    m, gamma = _check_m(m), _check_gamma(gamma)
    out = 2.0 * np.exp(-2.0 * gamma**2 * m)
    return float(out) if out.ndim == 0 else out


def union_bound(p, axis: int = -1) -> np.ndarray | float:
    r"""The union bound: :math:`P(A_1 \cup \dots \cup A_k) \le \sum_{i=1}^k P(A_i)`.

    Chapter 7, {eq}`eq-union-bound`. ``p`` holds the probabilities :math:`P(A_i)` along
    ``axis``; the sum is returned unclipped (it may exceed 1, when it says nothing).

    Examples
    --------
    >>> round(union_bound([0.1, 0.2, 0.05]), 4)
    0.35
    """
    p = np.asarray(p, dtype=float)
    bad = ~((p >= 0) & (p <= 1))
    if np.any(bad):
        raise ValueError(f"p must hold probabilities in [0, 1], got {_first_bad(p, bad)!r}")
    out = p.sum(axis=axis)
    return float(out) if np.ndim(out) == 0 else out


def uniform_deviation(m, k, delta) -> np.ndarray | float:
    r"""The deviation reached uniformly over a class of ``k`` hypotheses with probability ``1 - delta``.

    Setting the union bound :math:`2k e^{-2\gamma^2 m}` equal to :math:`\delta` and solving for
    :math:`\gamma`:

    .. math:: \gamma(m, k, \delta) = \sqrt{\frac{1}{2m} \log\frac{2k}{\delta}}

    Chapter 7, {eq}`eq-uniform-deviation`. With probability at least :math:`1 - \delta`,
    :math:`|\hat e(h) - e(h)| \le \gamma` for every :math:`h` in the class at once.

    Examples
    --------
    >>> round(uniform_deviation(1000, 10, 0.05), 4)
    0.0547
    """
    m, k, delta = _check_m(m), _check_k(k), _check_delta(delta)
    out = np.sqrt(np.log(2.0 * k / delta) / (2.0 * m))
    return float(out) if out.ndim == 0 else out


def sample_complexity(k, gamma, delta) -> np.ndarray | int:
    r"""The smallest sample size for which the uniform deviation bound reaches ``gamma``.

    Solving :math:`\gamma(m, k, \delta) \le \gamma` for :math:`m`:

    .. math:: m(k, \gamma, \delta) = \left\lceil \frac{1}{2\gamma^2} \log\frac{2k}{\delta} \right\rceil

    Chapter 7, {eq}`eq-sample-complexity`. Returns an integer (or an int64 array).

    Examples
    --------
    >>> sample_complexity(10, 0.1, 0.05)  # ceil(log(400) / 0.02)
    300
    >>> sample_complexity(10, 1e-10, 0.05)
    Traceback (most recent call last):
    ...
    ValueError: sample_complexity: the sample size m = 3e+20 exceeds 2**63 ...
    """
    k, gamma, delta = _check_k(k), _check_gamma(gamma), _check_delta(delta)
    # An x that is an integer up to rounding (e.g. 199.99999999999997) must not be
    # rounded up to the next integer: that would ask for one sample more than the bound
    # needs. Where gamma**2 underflows, x = m = inf, refused below (inf - inf was NaN,
    # an int < 0).
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        x = np.log(2.0 * k / delta) / (2.0 * gamma**2)
        m = np.maximum(np.ceil(x - 1e-12 * np.maximum(x, 1.0)), 1.0)
    m = np.where(np.isinf(x), np.inf, m)
    too_big = m >= 2.0**63
    if np.any(too_big):  # an int64 would wrap around to a negative or tiny sample size
        bad_m = _first_bad(np.broadcast_to(m, too_big.shape), too_big)
        bad_gamma = _first_bad(np.broadcast_to(gamma, too_big.shape), too_big)
        raise ValueError(
            f"sample_complexity: the sample size m = {bad_m:.3g} "
            f"exceeds 2**63 (gamma={bad_gamma!r} is too small "
            "for an int64 count); take a larger gamma"
        )
    m = m.astype(np.int64)
    return int(m) if m.ndim == 0 else m


def kl_bernoulli(p, q) -> np.ndarray | float:
    r"""Kullback-Leibler divergence between Bernoulli distributions with means ``p`` and ``q``.

    .. math:: \mathrm{KL}(p \,\|\, q) = p \log\frac{p}{q} + (1 - p) \log\frac{1 - p}{1 - q}

    with :math:`0 \log 0 = 0`; it is :math:`+\infty` where ``p`` puts mass that ``q`` does not.

    Examples
    --------
    >>> round(kl_bernoulli(0.5, 0.25), 4)
    0.1438
    >>> kl_bernoulli(1.0, 0.0)
    inf
    """
    p, q = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(q, dtype=float))
    for name, a in (("p", p), ("q", q)):
        bad = ~((a >= 0) & (a <= 1))
        if np.any(bad):
            raise ValueError(f"{name} must lie in [0, 1], got {_first_bad(a, bad)!r}")
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(p > 0, p * (np.log(p) - np.log(q)), 0.0)
        t0 = np.where(p < 1, (1 - p) * (np.log1p(-p) - np.log1p(-q)), 0.0)
    out = t1 + t0
    return float(out) if out.ndim == 0 else out


def chernoff_bound(m, phi, gamma) -> np.ndarray | float:
    r"""The Chernoff (relative-entropy) two-sided tail bound for a Bernoulli mean.

    .. math::

        P(|\hat\phi - \phi| > \gamma) \le e^{-m\,\mathrm{KL}(\phi + \gamma \| \phi)}
        + e^{-m\,\mathrm{KL}(\phi - \gamma \| \phi)}

    Chapter 7, {eq}`eq-chernoff-kl` (beyond the notes). A side whose end point
    :math:`\phi \pm \gamma` leaves :math:`[0, 1]` contributes 0: that deviation is impossible.
    By Pinsker's inequality :math:`\mathrm{KL}(p\|q) \ge 2(p - q)^2` each term is at most
    :math:`e^{-2\gamma^2 m}`, so this is never worse than :func:`hoeffding_bound`; unlike it,
    it needs :math:`\phi`.

    Examples
    --------
    >>> round(chernoff_bound(100, 0.5, 0.1), 4), round(hoeffding_bound(100, 0.1), 4)
    (0.267, 0.2707)
    """
    m, phi, gamma = _check_m(m), _check_phi(phi), _check_gamma(gamma)
    m, phi, gamma = np.broadcast_arrays(m, phi, gamma)
    out = np.zeros(m.shape)
    for sign in (1.0, -1.0):
        end = phi + sign * gamma
        inside = (end >= 0) & (end <= 1)
        kl = kl_bernoulli(np.clip(end, 0, 1), phi)
        with np.errstate(invalid="ignore"):
            out += np.where(inside, np.exp(-m * np.asarray(kl)), 0.0)
    return float(out) if out.ndim == 0 else out


# -- the exact tail ------------------------------------------------------------------------------
def _stirlerr(n: np.ndarray) -> np.ndarray:
    r"""The error of Stirling's formula, :math:`\log n! - (n + \tfrac12)\log n + n - \tfrac12\log 2\pi`.

    Its asymptotic series for n > 15 (Loader, 2000), log-gamma below: each to an ulp or so,
    where :math:`\log m!` itself (1.7e9 at m = 1e8) carries an absolute error of 2e-7.
    """
    n = np.asarray(n, dtype=float)
    big = n > 15
    out = np.empty(n.shape)
    nb = n[big]  # each branch computed where it applies only: log-gamma is the costly one
    nn = nb * nb
    out[big] = (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / 1188 / nn) / nn) / nn) / nn) / nb
    ns = np.maximum(n[~big], 1.0)
    out[~big] = gammaln(ns + 1) - (ns + 0.5) * np.log(ns) + ns - 0.5 * np.log(2 * np.pi)
    return out


def _bd0(x: np.ndarray, mu: np.ndarray) -> np.ndarray:
    r""":math:`x \log(x/\mu) + \mu - x \ge 0`, without the cancellation near :math:`x = \mu`.

    Near :math:`x = \mu` it is :math:`(x - \mu) v + 2x \sum_{j \ge 1} v^{2j+1}/(2j+1)` with
    :math:`v = (x - \mu)/(x + \mu)`, :math:`|v| < 0.1`: ten terms reach 1e-20 (Loader, 2000).
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # mu can be subnormal
        near = np.abs(x - mu) < 0.1 * (x + mu)
        v = np.where(near, (x - mu) / (x + mu), 0.0)
        out = (x - mu) * v
        ej = 2 * x * v
        for j in range(1, 11):
            ej = ej * v * v
            out = out + ej / (2 * j + 1)
        ratio = x / mu  # overflows for a subnormal mu: then log x - log mu, both finite
        log_ratio = np.where(np.isfinite(ratio), np.log(ratio), np.log(x) - np.log(mu))
        far = x * log_ratio + mu - x
    return np.where(near, out, far)


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a * b = p + e`` exactly (Dekker's product: Veltkamp's split, no fused multiply-add)."""
    p = a * b

    def split(x):
        c = 134217729.0 * x  # 2**27 + 1
        hi = c - (c - x)
        return hi, x - hi

    (ah, al), (bh, bl) = split(a), split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _bd0_exact_mean(x: np.ndarray, m: np.ndarray, phi: np.ndarray, complement: bool = False) -> np.ndarray:
    r""":func:`_bd0` at the mean :math:`\mu = m\phi` (or :math:`m(1 - \phi)`) of the float ``phi``, exactly.

    Rounding :math:`m\phi` (or :math:`1 - \phi`) to a double moves :math:`\mu` by up to half an ulp,
    and :math:`\partial\, \mathrm{bd0}/\partial\mu = 1 - x/\mu` turns that into a relative
    error of the pmf of about :math:`|x - \mu| \cdot 10^{-16}` (2e-12 at m = 1e8, five
    standard deviations out). The rounding errors are recovered exactly (Dekker's product,
    Fast2Sum for :math:`1 - \phi`) and added to first order.
    """
    if complement:
        q = 1.0 - phi
        q_lo = -phi - (q - 1.0)  # Fast2Sum: 1 - phi = q + q_lo exactly (|1| >= |phi|)
    else:
        q, q_lo = phi, 0.0
    mu, mu_lo = _two_product(m, q)
    mu_lo = mu_lo + m * q_lo
    with np.errstate(divide="ignore", invalid="ignore"):
        return _bd0(x, mu) + (mu_lo - x * (mu_lo / mu))  # (1 - x / mu) mu_lo, no inf * 0


def binomial_logpmf(s, m, phi) -> np.ndarray:
    r"""Log of the binomial probability :math:`\binom{m}{s} \phi^s (1 - \phi)^{m - s}`.

    Broadcasts over ``s``, ``m`` and ``phi``; returns :math:`-\infty` for ``s`` outside
    :math:`\{0, \dots, m\}` and for impossible counts when :math:`\phi \in \{0, 1\}`.
    Loader's saddle-point form (Stirling errors and deviances, no difference of huge log
    factorials), so it keeps about 1e-14 relative accuracy in the pmf up to m = 1e9 in O(1) per
    entry.

    Examples
    --------
    >>> round(float(np.exp(binomial_logpmf(2, 4, 0.5))), 6)
    0.375
    """
    s = np.asarray(s)
    if s.dtype.kind not in "iuf" or np.any(np.isnan(s)) or np.any(s != np.round(s)):
        raise ValueError(f"s must hold integer counts, got {s!r}")
    m_given = _check_m(m).astype(float)
    s, m, phi = np.broadcast_arrays(s.astype(float), m_given, _check_phi(phi))
    inside = (s >= 0) & (s <= m)
    s = np.clip(s, 0, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        ends = np.where(s == 0, m * np.log1p(-phi), m * np.log(phi))  # s = 0 or s = m
        mid = (_stirlerr(m_given) - _stirlerr(s) - _stirlerr(m - s) - _bd0_exact_mean(s, m, phi)
               - _bd0_exact_mean(m - s, m, phi, complement=True) + 0.5 * np.log(m / (2 * np.pi * s * (m - s))))
    interior = (s > 0) & (s < m)
    out = np.where(interior, np.where((phi > 0) & (phi < 1), mid, -np.inf), ends)
    return np.where(inside, out, -np.inf)


def _binomial_pmf_rows(n: int, p: np.ndarray) -> np.ndarray:
    """Binomial(n, p_r) pmf at s = 0..n for each entry p_r of a 1-D ``p``: shape (len(p), n + 1)."""
    return np.exp(binomial_logpmf(np.arange(n + 1), n, np.asarray(p)[:, None]))


def _exceeds(s, m, phi, gamma) -> np.ndarray:
    """``|s/m - phi| > gamma`` for counts ``s``, with rounding-level ties counted as not exceeding."""
    # dev > lim and not isclose(dev, lim, rtol=_TIE_RTOL), in one comparison (lim >= 0)
    return np.abs(s - m * phi) > (m * gamma) * (1 + _TIE_RTOL)


def _tail_width(m: int, p: np.ndarray, g: np.ndarray) -> int:
    r"""How many counts past each boundary hold all but a 1e-17 fraction of the tail.

    The pmf is log-concave: beyond the mean it falls at least as fast as a Gaussian of its
    variance (15 standard deviations leave e^-100), and past a boundary its ratio
    :math:`r = P(S = s \pm 1)/P(S = s)` only shrinks, so the terms are below a geometric series
    and :math:`k` counts with :math:`r^k / (1 - r) \le 10^{-17}` suffice. The smaller of the
    two, for the widest point of the group.
    """
    gauss = 15 * np.sqrt(m * p * (1 - p)) + 50
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hi = np.minimum(np.ceil(m * (p + g)), m)
        lo = np.maximum(np.floor(m * (p - g)), 0)
        ratios = ((m - hi) / (hi + 1) * (p / (1 - p)), lo / (m - lo + 1) * ((1 - p) / p))
        need = [np.where((r >= 0) & (r < 1), (39.2 - np.log1p(-r)) / -np.log(r), np.inf) for r in ratios]
    width = np.minimum(gauss, np.maximum(np.nan_to_num(need[0], nan=np.inf), np.nan_to_num(need[1], nan=np.inf)))
    return int(np.ceil(np.max(width))) + 2


def binomial_tail(m, phi, gamma) -> np.ndarray | float:
    r"""Exact two-sided binomial tail :math:`P(|\hat\phi - \phi| > \gamma)`.

    With :math:`S = m\hat\phi \sim \mathrm{Binomial}(m, \phi)`,

    .. math::

        P(|\hat\phi - \phi| > \gamma) = \sum_{s=0}^{m} [\,|s - m\phi| > m\gamma\,]
        \binom{m}{s} \phi^s (1 - \phi)^{m - s}

    Chapter 7, {eq}`def-binomial-tail`. The sum runs over the deviating counts only (never
    ``1 - cdf``), so tails far below machine epsilon keep their relative accuracy. Ties,
    :math:`|s/m - \phi| = \gamma` up to rounding, do not count (the inequality is strict).
    ``m``, ``phi`` and ``gamma`` broadcast; the cost is one
    ``(points, m + 1)`` array per distinct ``m``.

    Examples
    --------
    >>> round(binomial_tail(4, 0.5, 0.3), 4)  # S in {0, 4}: 2 / 16
    0.125
    >>> round(binomial_tail(100, 0.5, 0.1), 4)
    0.0352
    """
    m, phi, gamma = _check_m(m), _check_phi(phi), _check_gamma(gamma)
    m, phi, gamma = np.broadcast_arrays(m, phi, gamma)
    shape_out = m.shape
    m, phi, gamma = m.ravel(), phi.ravel(), gamma.ravel()
    out = np.zeros(m.size)  # phi in {0, 1}: S = m phi surely, no deviation
    for mi in np.unique(m):
        at = (m == mi) & (phi > 0) & (phi < 1)
        if not at.any():
            continue
        p, g = phi[at, None], gamma[at, None]
        offs = np.arange(-1, -1 + _TAIL_BLOCK * -(-(_tail_width(mi, p, g) + 2) // _TAIL_BLOCK))
        lo = np.floor(mi * (p - g)) - offs  # counts at and below the lower boundary
        hi = np.ceil(mi * (p + g)) + offs   # counts at and above the upper one
        total = 0.0
        for s, step, side in ((lo, -1, lo < mi * p), (hi, 1, hi > mi * p)):  # each count on one side only
            keep = side & (s >= 0) & (s <= mi) & _exceeds(s, mi, p, g)
            total = total + np.where(keep, _pmf_run(s, step, mi, p), 0.0).sum(axis=-1)
        out[at] = total
    out = np.minimum(out, 1.0).reshape(shape_out)  # a sum of pmfs that is 1 can round to 1 + 1e-15
    return float(out) if out.ndim == 0 else out


_TAIL_BLOCK = 16  # counts per exact pmf evaluation in binomial_tail: 15 ratios at most, 1e-14


def _pmf_run(s: np.ndarray, step: int, m: int, p: np.ndarray) -> np.ndarray:
    r"""The pmf at the counts ``s`` (rows of consecutive counts, ``step`` = +1 or -1 apart, a
    multiple of :data:`_TAIL_BLOCK` long), for :math:`0 < p < 1`; counts outside [0, m] give
    garbage for the caller to mask.

    Each block's first term is :func:`binomial_logpmf`; the others follow from the ratio
    :math:`P(s+1)/P(s) = \frac{m - s}{s + 1}\frac{p}{1 - p}` (its inverse going down), which
    costs a multiplication instead of a saddle-point evaluation. A fresh exact term every
    :data:`_TAIL_BLOCK` counts keeps the rounding to fifteen multiplications, about 1e-14.
    """
    blocks = s.reshape(s.shape[0], -1, _TAIL_BLOCK)
    pb = p[:, :, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        first = np.exp(binomial_logpmf(np.clip(blocks[:, :, 0], 0, m), m, p))
        if step > 0:
            ratio = (m - blocks[:, :, :-1]) / (blocks[:, :, :-1] + 1) * (pb / (1 - pb))
        else:
            ratio = blocks[:, :, :-1] / (m - blocks[:, :, :-1] + 1) * ((1 - pb) / pb)
        run = np.cumprod(np.concatenate([np.ones(blocks.shape[:2] + (1,)), ratio], axis=-1), axis=-1)
    return (first[:, :, None] * run).reshape(s.shape)


def mc_interval(p, n_rep: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Where a Monte Carlo frequency of ``n_rep`` repetitions of an event of probability ``p`` falls.

    Returns ``(lo, hi)``, frequencies with :math:`P(\hat p < lo) \le \alpha` and
    :math:`P(\hat p > hi) \le \alpha` for :math:`n_{rep} \hat p \sim \mathrm{Binomial}(n_{rep}, p)`,
    computed from the exact binomial distribution (no normal approximation). A claim that a
    probability is at most ``p`` is contradicted by a simulation only when the frequency
    exceeds ``hi``; this is how the chapter accounts for Monte Carlo error. ``p`` outside
    [0, 1] (a vacuous bound) is clipped.

    Examples
    --------
    >>> lo, hi = mc_interval(0.1, 1000, 0.001)
    >>> float(lo), float(hi)
    (0.072, 0.13)
    """
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    n_rep = int(_check_m(n_rep, "n_rep"))
    alpha = float(_check_delta(alpha))
    pmf = _binomial_pmf_rows(n_rep, p.ravel()).reshape(p.shape + (n_rep + 1,))
    below = np.cumsum(pmf, axis=-1) - pmf            # P(S < s)
    above = np.cumsum(pmf[..., ::-1], axis=-1)[..., ::-1] - pmf  # P(S > s)
    # largest s with P(S < s) <= alpha (all s when even P(S < n_rep) <= alpha, e.g. p = 1)
    lo = np.where((below > alpha).any(axis=-1), np.argmax(below > alpha, axis=-1) - 1, n_rep)
    hi = np.argmax(above <= alpha, axis=-1)           # smallest s with P(S > s) <= alpha
    return np.maximum(lo, 0) / n_rep, hi / n_rep


# -- Monte Carlo ---------------------------------------------------------------------------------
def simulate_deviation(m, phi, gamma, *, n_rep: int = 10_000, rng=0):
    r"""Monte Carlo estimate of :math:`P(|\hat\phi - \phi| > \gamma)`.

    Draws ``n_rep`` sample means of ``m`` Bernoulli(:math:`\phi`) variables for every point of
    the broadcast grid of ``m``, ``phi``, ``gamma`` at once (a sum of ``m`` Bernoulli variables
    is one binomial draw) and returns the fraction that deviate by more than :math:`\gamma`.

    Returns
    -------
    ndarray or float
        The frequencies, of the broadcast shape. Each is the mean of ``n_rep`` Bernoulli
        variables, so it is itself within :math:`\sqrt{\log(2/\alpha)/(2 n_{rep})}` of the true
        tail with probability at least :math:`1 - \alpha` (Hoeffding again).

    Examples
    --------
    >>> freq = simulate_deviation(100, 0.5, 0.1, n_rep=20_000, rng=0)
    >>> bool(abs(freq - binomial_tail(100, 0.5, 0.1)) < 0.01)
    True
    """
    m, phi, gamma = _check_m(m), _check_phi(phi), _check_gamma(gamma)
    n_rep = int(_check_m(n_rep, "n_rep"))
    rng = check_rng(rng)
    m, phi, gamma = np.broadcast_arrays(m, phi, gamma)
    S = rng.binomial(m, phi, size=(n_rep, *m.shape))
    out = _exceeds(S, m, phi, gamma).mean(axis=0)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class StumpClass:
    r"""A finite class of threshold stumps :math:`h_{t,s}(x) = s` if :math:`x > t` else :math:`-s`.

    The class holds every threshold of ``thresholds`` with both polarities
    :math:`s \in \{+1, -1\}`: :math:`k = 2 \times` ``len(thresholds)`` hypotheses, indexed
    ``j`` for :math:`(t_j, +1)` and ``len(thresholds) + j`` for :math:`(t_j, -1)`.

    Labels are :math:`\{-1, +1\}`. The data distribution is known: :math:`x \sim U[0, 1]`,
    :math:`y = \sign(x - \theta)` flipped with probability ``eta``, so every generalisation
    error is exact:

    .. math:: e(h_{t,+1}) = \eta + (1 - 2\eta) |t - \theta|, \qquad e(h_{t,-1}) = 1 - e(h_{t,+1}).
    """

    thresholds: np.ndarray
    theta: float
    eta: float

    def __post_init__(self):
        t = as_float_array(self.thresholds, "thresholds", ndim=1)
        if t.size == 0 or np.any(np.diff(t) <= 0):
            raise ValueError(f"thresholds must be a non-empty, strictly increasing 1-D array, got {t!r}")
        if t[0] < 0 or t[-1] > 1:  # e(h) = eta + (1 - 2 eta)|t - theta| holds for t in [0, 1] only
            raise ValueError(f"thresholds must lie in [0, 1], the support of x, got [{t[0]:g}, {t[-1]:g}]")
        object.__setattr__(self, "theta", check_scalar(self.theta, "theta", low=0.0, high=1.0))
        object.__setattr__(self, "eta", check_scalar(self.eta, "eta", low=0.0, high=0.5, high_open=True))
        object.__setattr__(self, "thresholds", t)

    @property
    def k(self) -> int:
        return 2 * self.thresholds.size

    @property
    def polarity(self) -> np.ndarray:
        n = self.thresholds.size
        return np.concatenate([np.ones(n), -np.ones(n)])

    @property
    def generalisation_error(self) -> np.ndarray:
        """Exact :math:`e(h)` for every hypothesis of the class, shape (k,)."""
        e_plus = self.eta + (1 - 2 * self.eta) * np.abs(self.thresholds - self.theta)
        return np.concatenate([e_plus, 1 - e_plus])

    @property
    def bayes_error(self) -> float:
        """Error of the best classifier of all, :math:`\\sign(x - \\theta)`: :math:`\\eta`."""
        return float(self.eta)

    def predict(self, j, x) -> np.ndarray:
        """Predictions of hypothesis (or hypotheses) ``j`` at points ``x``."""
        j = np.asarray(j)
        if j.dtype.kind not in "iu" or (j.size and (j.min() < 0 or j.max() >= self.k)):
            raise ValueError(f"j must be indices of hypotheses, integers in [0, k = {self.k}), got "
                             f"{np.array2string(j, threshold=6)}")
        t = self.thresholds[j % self.thresholds.size]
        return np.where(as_float_array(x, "x") > t, 1.0, -1.0) * self.polarity[j]

    def sample(self, m: int, *, n_rep: int = 1, rng=0):
        """Draw ``n_rep`` training sets of size ``m``: ``X`` and ``y`` of shape (n_rep, m)."""
        m = int(_check_m(m))
        n_rep = check_int(n_rep, "n_rep")
        rng = check_rng(rng)
        X = rng.random((n_rep, m))
        flip = rng.random((n_rep, m)) < self.eta
        y = np.where(X > self.theta, 1.0, -1.0) * np.where(flip, -1.0, 1.0)
        return X, y

    def training_errors(self, X, y) -> np.ndarray:
        r"""Training error :math:`\hat e(h)` of every hypothesis on every training set.

        ``X`` and ``y`` of shape (n_rep, m), labels ``y`` in {-1, +1}, give an array (n_rep, k). Vectorised by counting:
        each point falls in one of the ``len(thresholds) + 1`` cells between thresholds, and
        :math:`h_{t_j,+1}` errs on the positives left of :math:`t_j` and the negatives right of
        it, two cumulative sums over cells; :math:`\hat e(h_{t,-1}) = 1 - \hat e(h_{t,+1})`.
        """
        X = as_float_array(np.atleast_2d(X), "X", ndim=2)
        y = np.atleast_2d(y)
        if y.shape != X.shape:
            raise ValueError(f"X and y must have the same shape (n_rep, m), got {X.shape} and {y.shape}")
        check_labels(y.ravel(), (-1.0, 1.0))
        n_rep, m = X.shape
        n_t = self.thresholds.size
        # cell c = number of thresholds strictly below x, so x > t_j  <=>  j < c
        cell = np.searchsorted(self.thresholds, X, side="left")
        idx = (np.arange(n_rep)[:, None] * (n_t + 1) + cell).ravel()
        pos = np.bincount(idx, weights=(y > 0).ravel(), minlength=n_rep * (n_t + 1))
        neg = np.bincount(idx, weights=(y < 0).ravel(), minlength=n_rep * (n_t + 1))
        pos, neg = pos.reshape(n_rep, n_t + 1), neg.reshape(n_rep, n_t + 1)
        # h_{t_j,+1} predicts -1 on cells 0..j and +1 on cells j+1..n_t
        pos_left = np.cumsum(pos, axis=1)[:, :n_t]
        neg_right = neg.sum(axis=1, keepdims=True) - np.cumsum(neg, axis=1)[:, :n_t]
        e_plus = (pos_left + neg_right) / m
        return np.concatenate([e_plus, 1 - e_plus], axis=1)


def stump_class(n_thresholds: int, *, theta: float = 0.3, eta: float = 0.1) -> StumpClass:
    r"""Stumps with thresholds :math:`t_j = j/(n + 1)`, :math:`j = 1, \dots, n`, both polarities.

    :math:`k = 2n`. With :math:`n + 1` a power of two the classes are nested
    (:math:`n = 1, 3, 7, 15, \dots`), so their best errors :math:`e(h^*)` can only fall as
    :math:`k` grows. ``theta`` is the threshold of the clean labels and ``eta`` the label-noise
    rate of the distribution the class is judged on (see :class:`StumpClass`).

    Examples
    --------
    >>> H = stump_class(3)
    >>> H.k, H.thresholds.tolist()
    (6, [0.25, 0.5, 0.75])
    >>> H.generalisation_error.round(3).tolist()
    [0.14, 0.26, 0.46, 0.86, 0.74, 0.54]
    """
    n = int(_check_m(n_thresholds, "n_thresholds"))
    return StumpClass(np.arange(1, n + 1) / (n + 1), theta, eta)


@dataclass(frozen=True)
class ERMResult(OwnsArrays):
    r"""Outcome of :func:`erm_simulation`, one entry per repetition.

    Attributes
    ----------
    chosen : ndarray of int, (n_rep,)
        Index of the ERM hypothesis :math:`\hat h` (first minimiser of the training error).
    train_error : ndarray, (n_rep,)
        :math:`\hat e(\hat h)`.
    gen_error : ndarray, (n_rep,)
        :math:`e(\hat h)`, exact.
    best_error : float
        :math:`e(h^*) = \min_{h \in \mathcal H} e(h)`.
    sup_deviation : ndarray, (n_rep,)
        :math:`\max_{h \in \mathcal H} |\hat e(h) - e(h)|`.
    gamma : float
        :math:`\gamma(m, k, \delta)`.
    delta : float
    """

    chosen: np.ndarray
    train_error: np.ndarray
    gen_error: np.ndarray
    best_error: float
    sup_deviation: np.ndarray
    gamma: float
    delta: float

    @property
    def failure_rate(self) -> float:
        r"""Fraction of repetitions with :math:`e(\hat h) > e(h^*) + 2\gamma`."""
        return float(np.mean(self.gen_error > self.best_error + 2 * self.gamma))

    @property
    def uniform_failure_rate(self) -> float:
        r"""Fraction of repetitions with some :math:`|\hat e(h) - e(h)| > \gamma`."""
        return float(np.mean(self.sup_deviation > self.gamma))


def erm_simulation(H: StumpClass, m: int, *, delta: float = 0.05, n_rep: int = 2000,
                   rng=0) -> ERMResult:
    r"""Run empirical risk minimisation over ``H`` on ``n_rep`` independent training sets of size ``m``.

    Chapter 7, {eq}`eq-erm-guarantee`: with probability at least :math:`1 - \delta`,

    .. math:: e(\hat h) \le e(h^*) + 2\gamma, \qquad \gamma = \sqrt{\tfrac{1}{2m}\log\tfrac{2k}{\delta}}.

    Examples
    --------
    >>> res = erm_simulation(stump_class(7), 200, n_rep=500, rng=0)
    >>> res.uniform_failure_rate <= res.delta
    True
    """
    if not isinstance(H, StumpClass):
        raise TypeError(f"H must be a StumpClass (stump_class), got {type(H).__name__}")
    m, delta = int(_check_m(m)), float(_check_delta(delta))
    rng = check_rng(rng)
    X, y = H.sample(m, n_rep=int(_check_m(n_rep, "n_rep")), rng=rng)
    E_hat = H.training_errors(X, y)
    e = H.generalisation_error
    chosen = np.argmin(E_hat, axis=1)
    rows = np.arange(chosen.size)
    return ERMResult(
        chosen=chosen,
        train_error=E_hat[rows, chosen],
        gen_error=e[chosen],
        best_error=float(e.min()),
        sup_deviation=np.abs(E_hat - e).max(axis=1),
        gamma=float(uniform_deviation(m, H.k, delta)),
        delta=delta,
    )
