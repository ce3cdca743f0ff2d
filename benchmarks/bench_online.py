"""SGD on hinge and log loss against scikit-learn's SGDClassifier (n = 10^5, d = 100).

Both run 5 epochs on the same data (standard normal features, labels from a logistic model
whose Bayes accuracy is about 0.87). Ours: mini-batches of 256, constant step. scikit-learn:
one sample per update with its default ``"optimal"`` schedule and ``average=True``; without
averaging its 5-epoch iterate is 2-3 points less accurate on this data (it stops after
epochs with its default ``tol``: 39 for hinge, 22 for log loss), so averaging is what makes the
accuracies match. "Agreement" is the difference of test accuracies (the issue asks for <= 1
point); the ratio is our time over theirs.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import SGDClassifier

from benchmarks import Comparison, compare
from mlnotes import online

N, D, EPOCHS, LAM = 100_000, 100, 5, 1e-4


def _data(seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((2 * N, D))
    w = rng.standard_normal(D) / np.sqrt(D)
    p = 1 / (1 + np.exp(-4 * (X @ w + 0.1)))
    y = np.where(rng.uniform(size=2 * N) < p, 1.0, -1.0)
    return X[:N], y[:N], X[N:], y[N:]


def _bench(loss: str, sk_loss: str, eta: float) -> Comparison:
    X, y, Xt, yt = _data()

    def ours():
        return online.sgd(X, y, loss=loss, eta=eta, lam=LAM, batch_size=256, n_epochs=EPOCHS, rng=0)

    def ref():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SkConvergenceWarning)
            return SGDClassifier(loss=sk_loss, alpha=LAM, max_iter=EPOCHS, tol=None, average=True,
                                 random_state=0).fit(X, y)

    t_o, t_r, r_o, r_r = compare(ours, ref)
    acc_o = float(np.mean(r_o.predict(Xt) == yt))
    acc_r = float(np.mean(r_r.predict(Xt) == yt))
    print(f"# {loss}: test accuracy ours {acc_o:.4f}, SGDClassifier {acc_r:.4f}")
    return Comparison(f"sgd {loss} n=1e5 d=100 batch 256, 5 epochs", t_o, t_r, "sklearn SGDClassifier",
                      abs(acc_o - acc_r), "test acc. diff", target=3.0)


def bench_sgd_hinge() -> Comparison:
    return _bench("hinge", "hinge", 0.1)


def bench_sgd_log() -> Comparison:
    return _bench("log", "log_loss", 0.5)
