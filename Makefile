# mlnotes: every target bootstraps .venv from the pinned versions in constraints.txt.
#   make book   build the HTML book into book/_build/html (executes every chapter)
#   make test   everything CI proves: lint, tests (claims, pairing), nbval twice, book, browser
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP_FLAGS := -q --disable-pip-version-check -c constraints.txt
NOTEBOOKS := $(sort $(wildcard notebooks/*.py))
JB_BUILD = $(BIN)/jupyter-book build . --config $(BOOK_CONFIG) --toc book/_toc.yml --path-output book
BOOK_CONFIG := book/_config.yml
# Jupyter refuses to run as root unless told; these tools are run by CI as root.
export JUPYTER_ALLOW_ROOT := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: all venv book book-check pdf test lint unit claims pairing nbval nbval-perturbed browser axe \
        notebooks plain preamble lab \
        bench assignments lock clean mutants

all: test

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP_FLAGS) pip setuptools wheel
	$(BIN)/python -m pip install $(PIP_FLAGS) -e ".[test,book,dev]"
	touch $@

venv: $(STAMP)

# -- the book --------------------------------------------------------------------------------
book/generated: $(STAMP) FORCE
	$(BIN)/python -m mlnotes.claims --markdown book/generated

# make book: refresh each .ipynb's inputs from its .py (keeping outputs), then build and
# execute every chapter from those sources.
book: $(STAMP) book/generated
	$(BIN)/jupytext --quiet --update --to ipynb $(NOTEBOOKS)
	$(JB_BUILD) --all
	@echo "The book is in book/_build/html/index.html"

# The book's config with execution off, beside it (its local_extensions paths are relative to
# the config file): the test builds render the outputs committed in notebooks/*.ipynb.
book/_config_noexec.yml: book/_config.yml $(STAMP)
	$(BIN)/python -c 'import sys, yaml; c = yaml.safe_load(open("book/_config.yml")); \
	  c["execute"]["execute_notebooks"] = "off"; yaml.safe_dump(c, sys.stdout, sort_keys=False)' > $@

# The strict build of the test suite: any warning or broken reference fails. It renders the
# committed outputs without executing anything: in make test, nbval has just re-executed every
# chapter and verified those very outputs, and executing each chapter a second time would prove
# nothing more. Run make notebooks first if you changed a chapter; make book still executes.
book-check: BOOK_CONFIG := book/_config_noexec.yml
book-check: $(STAMP) book/generated book/_config_noexec.yml
	rm -rf book/_build
	$(JB_BUILD) --all -W -n --keep-going

# The whole book as one PDF, book/_build/html/mlnotes.pdf (then linked from every page's
# download menu): a single-page build from the committed outputs, laid out as a book and printed twice by
# headless Chromium once MathJax has typeset it (the second print with the contents' and index's
# page numbers), running heads stamped on with qpdf; book/pdf.py says why this route. Run after
# the HTML build, which starts by clearing book/_build.
pdf: $(STAMP) book/generated book/_config_noexec.yml
	rm -rf book/_build/pdf
	$(BIN)/jupyter-book build . --config book/_config_noexec.yml --toc book/_toc.yml \
	  --path-output book/_build/pdf --builder singlehtml --all -W -n --keep-going
	mkdir -p book/_build/html
	$(BIN)/python book/pdf.py book/_build/pdf/_build/singlehtml book/_build/html/mlnotes.pdf
	mkdir -p book/_build/html/_static  # the pages' download menu offers the PDF once this exists
	echo '// written by make pdf: book/_build/html/mlnotes.pdf exists' > book/_build/html/_static/mlnotes-pdf.js

# -- the tests -------------------------------------------------------------------------------
# The claims run once, at their test instance counts, in tests/test_claims.py (part of unit).
test: lint unit nbval nbval-perturbed book-check pdf browser

# The chapters' code cells at most 88 columns (ruff reads the code cells of each .ipynb; the
# paired .py also holds the Markdown cells as long comment lines, so it keeps the 120 of the rest),
# and the claim modules, whose functions each check cell shows folded under its verdict
CLAIM_MODULES := $(filter-out mlnotes/claims/_%,$(wildcard mlnotes/claims/*.py))
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff check --select E501 --line-length 88 notebooks/*.ipynb $(CLAIM_MODULES)

# The claim ledger as a table with every residual, each claim at its test instance count (make
# test does not run it: tests/test_claims.py runs every claim at that count already).
claims: $(STAMP)
	$(BIN)/python -m mlnotes.claims

# unit, oracle, property, pairing and consistency tests (not the browser test: it needs the book)
unit: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not browser" tests

# nbval in strict mode on the committed notebooks: every output must be reproduced, first as the
# machine is, then in a perturbed floating-point environment (one BLAS thread, numpy's SIMD
# dispatch off; see .ci/perturbed_env.py): outputs that pass both are properties of the
# mathematics, not of this machine's rounding. NB=notebooks/NN_x.py checks one chapter.
NBVAL := $(BIN)/python -m pytest -n 2 --dist loadfile -p no:cacheprovider --nbval \
	  --nbval-sanitize-with .ci/nbval_sanitize.cfg --nbval-current-env \
	  $(if $(NB),$(NB:.py=.ipynb),notebooks/*.ipynb)
nbval: $(STAMP)
	$(NBVAL)

nbval-perturbed: $(STAMP)
	perturbed="$$($(BIN)/python .ci/perturbed_env.py)"; \
	  echo "nbval in a perturbed floating-point environment: $$perturbed"; \
	  env $$perturbed $(NBVAL)

# The browser tests survey every page with axe-core (the accessibility engine of browser
# devtools), injected over DevTools; it comes from npm, pinned, into the git-ignored .axe/ (used
# by the tests only, never shipped in the book).
AXE_VERSION := 4.10.3
AXE := .axe/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --prefix .axe --no-audit --no-fund --no-save --silent axe-core@$(AXE_VERSION)
	test -s $@

axe: $(AXE)

# Two workers, a test file each at a time: the page survey (test_browser.py) runs beside the
# JupyterLab and PDF tests. Each worker starts its own Chromium on a free port.
browser: $(STAMP) $(AXE)
	$(BIN)/python -m pytest -n 2 --dist loadfile -m browser tests

# Mutation testing (issue 32): mutmut mutates the library ([tool.mutmut] in pyproject.toml says
# which files and which unit tests) and runs, on each mutant, the unit tests that reach the
# mutated function; then the score per module (tools/mutation_score.py), with the equivalent
# mutants of tests/mutation_triage/ left out. Not part of make test: see CONTRIBUTING for the
# time it takes. MODULE=losses runs the mutants of one module (mutmut's name glob); results
# accumulate in mutants/ (git-ignored), so a second run only redoes what changed. _source's tests
# read the library's source, which mutmut rewrites: tools/mutants_outside.py then judges its
# mutants (bare or MODULE=_source) on a plain copy of the library, with tests/test_source.py.
MUTMUT := mutmut==3.8.1
mutants: $(STAMP)
	$(BIN)/python -m pip install $(PIP_FLAGS) $(MUTMUT)
	$(BIN)/mutmut run $(if $(MODULE),"mlnotes.$(MODULE).*")
	$(if $(filter-out _source,$(MODULE)),,$(BIN)/python -m tools.mutants_outside mlnotes/_source.py tests/test_source.py)
	$(BIN)/python -m tools.mutation_score

# -- working on chapters -----------------------------------------------------------------------
# Regenerate each .ipynb from its .py (the source) and execute it in place, no timing metadata;
# --update keeps the cell ids of an existing .ipynb (without it every cell got a new random id,
# and every regeneration rewrote every cell of the diff).
notebooks: $(STAMP)
	for py in $(or $(NB),$(NOTEBOOKS)); do \
	  nb=$${py%.py}.ipynb; \
	  $(BIN)/jupytext --quiet --update --to ipynb --output $$nb $$py; \
	  $(BIN)/jupyter nbconvert --log-level=WARN --to notebook --execute --inplace \
	    --ExecutePreprocessor.record_timing=False --ExecutePreprocessor.timeout=120 $$nb; \
	done
	$(MAKE) --no-print-directory plain

# The chapters in plain Markdown, notebooks/plain/*.ipynb, for Colab, nbviewer, GitHub and VS Code
# (no MyST there): written from the committed notebooks by tools/plain.py, which make notebooks
# runs; tests/test_plain.py checks that they are current and carry the book's numbers.
plain: $(STAMP)
	$(BIN)/python -m tools.plain

# The first two cells of every chapter (the maths macros for notebook viewers, the install cell
# for Colab and downloads), written from book/preamble.py; tests/test_preamble.py checks them.
preamble: $(STAMP)
	$(BIN)/python book/preamble.py $(NOTEBOOKS)

# JupyterLab in the course environment; a double-click on notebooks/*.py opens it as a
# notebook (jupytext's viewer made the default for Python files), and saving keeps the pair.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
lab: $(STAMP)
	mkdir -p $(dir $(LAB_OVERRIDES))
	echo '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"python": "Jupytext Notebook"}}}' \
	  > $(LAB_OVERRIDES)
	PYTHONPATH=$(CURDIR) $(BIN)/jupyter lab --allow-root --notebook-dir=notebooks \
	  --ServerApp.contents_manager_class=tools.lab.LabContentsManager  # opens a chapter unmodified

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH)

# Rewrite constraints.txt from a fresh resolution of pyproject.toml's dependencies.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install -q -e ".[test,book,dev]"
	{ head -2 constraints.txt; .lock-venv/bin/pip freeze --all --exclude-editable | sort -f; } > constraints.new
	mv constraints.new constraints.txt && rm -rf .lock-venv

clean:
	rm -rf book/_build book/generated dist .pytest_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +

FORCE:

# Assignment targets (make assignments, make grade) live in their own file.
-include assignments.mk
