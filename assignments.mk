# Course assignments (issue 10): included from the Makefile, after $(STAMP) and $(BIN) are set.
#   make assignments [SECRET=phrase | SECRET_FILE=file]
#                                                   build dist/assignments/<chapter>/ for every chapter
#                                                   with coding questions (CHAPTERS=... to pick some);
#                                                   the hidden tests draw their instances from the
#                                                   secret (never commit it); without one, from the
#                                                   public development secret, with a warning
#   make grade CHAPTER=01 SUBMISSIONS=dir [TIMEOUT=60] [JOBS=n] [MEMORY=2048] [UNSAFE=1]
#                                                   grade every .ipynb in dir, each in a bubblewrap
#                                                   sandbox: scores in dir/scores.csv, one feedback
#                                                   file per student in dir/feedback/
#   make student-edition                            the book and the chapter notebooks without
#                                                   solutions (conceptual or coding) or hidden
#                                                   tests, for a course that grades them for credit:
#                                                   dist/student-edition/{src,html}
# Teachers' guide: book/teaching.md. Soundness proofs: tests/test_assignments.py (part of make test).
ASSIGNMENTS_OUT ?= dist/assignments
TIMEOUT ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
MEMORY ?= 2048
# CHAPTER may be the number (01) or the full stem (01_linear_regression).
GRADE_STEM = $(basename $(notdir $(firstword $(wildcard notebooks/$(CHAPTER)*.py))))
GRADE_ZIP = $(ASSIGNMENTS_OUT)/$(GRADE_STEM)/autograder/autograder.zip

.PHONY: assignments grade student-edition

# The secret reaches the build through the environment ($${SECRET-}, not $(SECRET)): make echoes
# each command, and a value in argv is visible to every user of the machine (ps).
BUILD_ASSIGNMENTS = MLNOTES_SECRET="$${SECRET-}" $(BIN)/python -m tools.assignments build \
  --out $(ASSIGNMENTS_OUT) $(if $(SECRET_FILE),--secret-file $(SECRET_FILE))

assignments: $(STAMP)
	$(BUILD_ASSIGNMENTS) $(CHAPTERS)

grade: $(STAMP)
	@if [ -z "$(CHAPTER)" ] || [ -z "$(SUBMISSIONS)" ] || [ -z "$(GRADE_STEM)" ]; then \
	  echo "usage: make grade CHAPTER=<NN or NN_slug> SUBMISSIONS=<folder of .ipynb> [TIMEOUT=60] [JOBS=n] [MEMORY=2048] [UNSAFE=1]" >&2; \
	  exit 2; fi
	test -f $(GRADE_ZIP) || $(BUILD_ASSIGNMENTS) notebooks/$(GRADE_STEM).py
	$(BIN)/python -m tools.assignments grade $(GRADE_ZIP) $(SUBMISSIONS) --timeout $(TIMEOUT) \
	  --jobs $(JOBS) --memory $(MEMORY) $(if $(UNSAFE),--unsafe)

student-edition: $(STAMP) book/generated
	$(BIN)/python -m tools.assignments edition --out dist/student-edition
