"""The book's index: the main terms of the course, each pointing at the section that introduces it.

One table, here, instead of ``{index}`` roles scattered through the chapters: a chapter opened in
JupyterLab or Colab shows no index markup, and the whole index can be read and reviewed at once.
Each term is attached to its section's label (``(sec-...)=`` in the chapter); a label that no
longer exists fails the build, so the index cannot point nowhere.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform

# section label -> the index terms it introduces ("main; sub" makes a sub-entry)
TERMS: dict[str, list[str]] = {
    "sec-gradients": ["gradient", "matrix calculus"],
    "sec-matrix-gradients": ["gradient; with respect to a matrix", "Frobenius norm", "trace"],
    "sec-hessian": ["Hessian"],
    "sec-logsumexp": ["log-sum-exp", "softmax; function"],
    "sec-checking-gradients": ["finite differences", "gradient; numerical check"],
    "sec-linear-ls": ["least squares", "normal equations"],
    "sec-linear-projection": ["hat matrix", "projection, orthogonal"],
    "sec-linear-conditioning": ["condition number", "QR decomposition"],
    "sec-linear-nist": ["NIST StRD"],
    "sec-linear-ridge": ["ridge regression", "regularisation; L2"],
    "sec-linear-shrinkage": ["shrinkage", "degrees of freedom, effective"],
    "sec-linear-lasso": ["lasso", "soft-thresholding", "regularisation; L1", "coordinate descent; lasso"],
    "sec-linear-multi-output": ["multi-output regression", "ridge regression; several outputs"],
    "sec-linear-elastic-net": ["elastic net", "regularisation; elastic net", "grouping effect"],
    "sec-linear-map": ["MAP estimate"],
    "sec-linear-bias-variance": ["bias-variance decomposition", "cross-validation"],
    "sec-logistic-likelihood": ["logistic regression", "likelihood; Bernoulli", "maximum likelihood"],
    "sec-sigmoid": ["sigmoid"],
    "sec-newton": ["Newton's method"],
    "sec-irls": ["IRLS (iteratively reweighted least squares)"],
    "sec-logloss": ["log-loss", "cross-entropy"],
    "sec-separation": ["separation; complete and quasi-complete"],
    "sec-probit": ["probit", "Fisher scoring"],
    "sec-softmax": ["softmax; regression"],
    "sec-online-perceptron": ["perceptron", "mistake bound; perceptron"],
    "sec-online-winnow": ["winnow", "mistake bound; winnow"],
    "sec-online-losses": ["surrogate loss", "hinge loss"],
    "sec-online-sgd": ["stochastic gradient descent (SGD)", "step size"],
    "sec-online-subgradients": ["subgradient", "subgradient method"],
    "sec-svm-margins": ["margin", "support vector machine (SVM)"],
    "sec-svm-duality": ["Lagrange duality", "KKT conditions", "weak duality", "strong duality",
                        "Slater's condition"],
    "sec-svm-hard-dual": ["hard margin", "support vectors"],
    "sec-svm-soft": ["soft margin", "slack variables"],
    "sec-svm-solvers": ["Pegasos"],
    "sec-svm-smo": ["SMO (sequential minimal optimisation)", "working-set selection"],
    "sec-svm-multiclass": ["one-vs-rest", "one-vs-one"],
    "sec-svm-crammer-singer": ["Crammer-Singer machine", "duality gap"],
    "sec-feature-maps": ["feature map"],
    "sec-kernel-trick": ["kernel trick", "Gram matrix"],
    "sec-pd-kernels": ["kernel; positive-definite", "Mercer's condition"],
    "sec-common-kernels": ["kernel; RBF (Gaussian)", "kernel; polynomial", "kernel; sigmoid"],
    "sec-rkhs": ["reproducing kernel Hilbert space (RKHS)"],
    "sec-kernel-machines": ["kernel ridge regression", "representer theorem"],
    "sec-adaboost-algorithm": ["AdaBoost", "boosting", "weak learner"],
    "sec-stumps": ["decision stump"],
    "sec-training-bound": ["AdaBoost; training error bound"],
    "sec-coordinate-descent": ["exponential loss", "coordinate descent; AdaBoost"],
    "sec-hoeffding": ["Hoeffding's inequality"],
    "sec-union-bound": ["union bound"],
    "sec-uniform-deviation": ["uniform convergence"],
    "sec-erm": ["empirical risk minimisation (ERM)", "generalisation error"],
    "sec-tradeoff": ["approximation-estimation trade-off"],
    "sec-beyond": ["VC dimension"],
}


class AddIndexTerms(SphinxTransform):
    """Insert each section's index entries after its title, before Sphinx's domains collect
    the index (SphinxDomains, priority 850) and after labels became section ids (260)."""

    default_priority = 800

    def apply(self, **kwargs) -> None:
        if not hasattr(self.env, "mlnotes_index_seen"):
            self.env.mlnotes_index_seen = set()
        module_entries(self.app, self.document)
        for section in self.document.findall(nodes.section):
            for label in section["ids"]:
                if label in TERMS:
                    entries = [("single", term, label, "", None) for term in TERMS[label]]
                    section.insert(1, addnodes.index(entries=entries))
                    self.env.mlnotes_index_seen.add(label)


def check_all_placed(app, env) -> None:
    missing = sorted(set(TERMS) - env.mlnotes_index_seen)
    if missing and "notebooks/07_learning_theory" in env.found_docs:  # a whole-book build
        raise ExtensionError(f"index terms attached to section labels that do not exist: {missing}")


def check_all_placed_(app, env) -> None:
    env.mlnotes_index_seen = getattr(env, "mlnotes_index_seen", set())
    check_all_placed(app, env)


def module_entries(app, doctree) -> None:
    """autodoc indexes each module as the pair "module; mlnotes.x", which makes a bare "module"
    entry with the eleven modules under it; one entry per module, "mlnotes.x (module)", instead
    (before SphinxDomains collects the index: called from AddIndexTerms). The private steps the
    chapters list (``_halving_step``) have reference entries for the listings' links, but they
    are not terms of the course: they get no index entry."""
    for node in doctree.findall(addnodes.index):
        node["entries"] = [
            ("single", f"{entry[1].split(';', 1)[1].strip()} (module)", *entry[2:])
            if entry[0] == "pair" and entry[1].startswith("module;") else entry
            for entry in node["entries"] if not entry[1].startswith("_")]


def proof_titles(app, doctree) -> None:
    """Each sphinx-proof directive's title, by label, for the proof index."""
    titles = app.env.__dict__.setdefault("mlnotes_proof_titles", {})
    for node in doctree.findall(lambda n: isinstance(n, nodes.Element) and "countertype" in n.attributes):
        if node.get("label"):
            titles[node["label"]] = node.get("title", "")


def proof_index(self, docnames=None):
    """sphinx-proof's index lists the labels ("thm-adaboost-train (notebooks/06_adaboost)"); this
    one lists what the text prints, "Theorem 6.1 (Training error of AdaBoost)", by kind and number."""
    env = self.domain.env
    titles = getattr(env, "mlnotes_proof_titles", {})
    content: dict[str, list] = {}
    for label, values in getattr(env, "proof_list", {}).items():
        kind = values["realtype"].title()
        number = env.toc_fignumbers.get(values["docname"], {}).get(values["countertype"], {}).get(label, ())
        name = f"{kind} {'.'.join(map(str, number))}".strip()
        title = titles.get(label, "").strip()
        if title.startswith("(") and title.endswith(")"):  # sphinx-proof keeps the parentheses
            title = title[1:-1].strip()
        if title and "$" not in title and "\\" not in title:  # (a title with maths: the number alone)
            name += f" ({title})"
        key = tuple(number) or (10**6,)
        content.setdefault(kind + "s", []).append((key, (name, 0, values["docname"], label, "", "", "")))
    return [(kind, [entry for _, entry in sorted(entries)]) for kind, entries in sorted(content.items())], True


def setup(app):
    from sphinx_proof.domain import ProofIndex

    ProofIndex.generate = proof_index
    app.add_transform(AddIndexTerms)
    app.connect("doctree-read", proof_titles)
    app.connect("env-updated", check_all_placed_)
    return {"parallel_read_safe": False, "parallel_write_safe": True, "env_version": 1}
