# Course assignments (issue 10): included from the Makefile, after $(STAMP) and $(BIN) are set.
#   make assignments                                build dist/assignments/<chapter>/ for every chapter
#                                                   with coding questions (CHAPTERS=... to pick some)
#   make grade CHAPTER=01 SUBMISSIONS=dir [TIMEOUT=60] [JOBS=n] [MEMORY=2048] [UNSAFE=1]
#                                                   grade every .ipynb in dir, each in a bubblewrap
#                                                   sandbox: scores in dir/scores.csv, one feedback
#                                                   file per student in dir/feedback/
# Teachers' guide: book/teaching.md. Soundness proofs: tests/test_assignments.py (part of make test).
ASSIGNMENTS_OUT ?= dist/assignments
TIMEOUT ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
MEMORY ?= 2048
# CHAPTER may be the number (01) or the full stem (01_linear_regression).
GRADE_STEM = $(basename $(notdir $(firstword $(wildcard notebooks/$(CHAPTER)*.py))))
GRADE_ZIP = $(ASSIGNMENTS_OUT)/$(GRADE_STEM)/autograder/autograder.zip

.PHONY: assignments grade

assignments: $(STAMP)
	$(BIN)/python -m tools.assignments build --out $(ASSIGNMENTS_OUT) $(CHAPTERS)

grade: $(STAMP)
	@if [ -z "$(CHAPTER)" ] || [ -z "$(SUBMISSIONS)" ] || [ -z "$(GRADE_STEM)" ]; then \
	  echo "usage: make grade CHAPTER=<NN or NN_slug> SUBMISSIONS=<folder of .ipynb> [TIMEOUT=60] [JOBS=n] [MEMORY=2048] [UNSAFE=1]" >&2; \
	  exit 2; fi
	test -f $(GRADE_ZIP) || $(BIN)/python -m tools.assignments build --out $(ASSIGNMENTS_OUT) \
	  notebooks/$(GRADE_STEM).py
	$(BIN)/python -m tools.assignments grade $(GRADE_ZIP) $(SUBMISSIONS) --timeout $(TIMEOUT) \
	  --jobs $(JOBS) --memory $(MEMORY) $(if $(UNSAFE),--unsafe)
