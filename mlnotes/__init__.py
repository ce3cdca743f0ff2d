"""mlnotes: the algorithms of the course, derived in the chapters and implemented in numpy.

Each topic has its own small module, named for it (``mlnotes.linear``, ``mlnotes.logistic``,
``mlnotes.online``, ``mlnotes.svm``, ``mlnotes.kernels``, ``mlnotes.boosting``,
``mlnotes.bounds``); import the one you need. This top level holds only what every module
shares: the warning raised on non-convergence, the label conversions, and ``show_source``,
which displays a library function's code in a chapter.
"""

from mlnotes._source import show_source
from mlnotes._validation import ConvergenceWarning, to_01, to_pm1

__all__ = ["ConvergenceWarning", "show_source", "to_01", "to_pm1", "__version__"]
__version__ = "0.1.0"
