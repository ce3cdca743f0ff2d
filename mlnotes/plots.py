"""Plotting helpers shared by the chapters (the only module that imports matplotlib).

One style for the whole book: fixed figure size, vector (SVG) output drawn in the book's serif,
Latin Modern (Debian's ``fonts-lmodern``; DejaVu Serif where it is missing) with Computer Modern
maths, so that figures print as sharply as the text beside them and in its typeface; colours that
stay distinguishable in print. nbval does not compare the SVG text (``.ci/nbval_sanitize.cfg``
replaces it: its bytes depend on the fonts installed), only the text outputs.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
import numpy as np

__all__ = ["decision_regions", "setup"]

FIGSIZE = (6.4, 4.0)
SERIF = ["Latin Modern Roman", "LM Roman 10", "DejaVu Serif"]


def _register_latin_modern() -> None:
    """Make Latin Modern known to matplotlib when its font cache predates the font's install."""
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    if known & set(SERIF[:2]):
        return
    for path in font_manager.findSystemFonts(fontext="otf"):
        if Path(path).name.startswith("lmroman10-"):
            font_manager.fontManager.addfont(path)


def setup() -> None:
    """Apply the course style; call once at the top of a chapter.

    Examples
    --------
    >>> setup()
    >>> mpl.rcParams["axes.grid"]
    True
    """
    mpl.rcParams.update(
        {
            "figure.figsize": FIGSIZE,
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "font.family": "serif",
            "font.serif": SERIF,
            "mathtext.fontset": "cm",
            "axes.unicode_minus": True,
            "svg.fonttype": "path",  # glyphs as outlines: the SVG needs no font to display
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
            "image.cmap": "RdBu",
            "svg.hashsalt": "mlnotes",  # the same ids in the SVG at every run
        }
    )
    _register_latin_modern()
    try:  # inline figures as SVG only: vector figures on screen and in the PDF
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        # without a date, a figure's SVG changes only when the figure does
        set_matplotlib_formats("svg", metadata={"Date": None})
    except ImportError:  # outside Jupyter
        pass


def decision_regions(ax, score, X, y, *, levels=(0.0,), resolution: int = 200, pad: float = 0.5):
    """Shade the sign of ``score`` (a function of an (m, 2) array) over the range of ``X``.

    Draws the contour(s) ``score = level`` and the points coloured by their label; returns the
    grid values so a chapter can add probability contours or margins.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> X, y = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([-1, 1])
    >>> G0, G1, S = decision_regions(ax, lambda Z: Z.sum(axis=1) - 1.0, X, y, resolution=50)
    >>> # score x1 + x2 - 1 on a 50 x 50 grid
    >>> S.shape, float(np.sign(S[0, 0])), float(np.sign(S[-1, -1]))
    ((50, 50), -1.0, 1.0)
    >>> plt.close(fig)
    """
    x0 = np.linspace(X[:, 0].min() - pad, X[:, 0].max() + pad, resolution)
    x1 = np.linspace(X[:, 1].min() - pad, X[:, 1].max() + pad, resolution)
    G0, G1 = np.meshgrid(x0, x1)
    S = np.asarray(score(np.column_stack([G0.ravel(), G1.ravel()]))).reshape(G0.shape)
    ax.contourf(G0, G1, np.sign(S), levels=[-2, 0, 2], colors=["#f4c7c3", "#c6dbef"], alpha=0.6)
    ax.contour(G0, G1, S, levels=list(levels), colors="k", linewidths=1)
    for label, marker, colour in ((-1, "o", "#b2182b"), (0, "o", "#b2182b"), (1, "s", "#2166ac")):
        m = y == label
        if m.any():
            ax.scatter(X[m, 0], X[m, 1], marker=marker, c=colour, s=18, edgecolor="k", linewidth=0.3)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return G0, G1, S
