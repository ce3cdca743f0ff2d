#!/usr/bin/env bash
# PrairieLearn's entrypoint for an mlnotes question (info.json: externalGradingOptions.entrypoint
# /grade/serverFilesCourse/mlnotes_grader/run.sh): the judge of `make grade` on the notebook in
# /grade/student, results in /grade/results/results.json (tools/grading/engines/prairielearn.py).
# The image (Dockerfile beside this file) holds the pinned requirements; mlnotes is in lib/ here.
# MLNOTES_GRADE_ROOT replaces /grade and MLNOTES_PYTHON the image's python3 (for tests).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="${MLNOTES_GRADE_ROOT:-/grade}"
# Without bubblewrap (a container that forbids user namespaces) the student's code runs as an
# unprivileged uid (tools/grading/limits.py): the tests and the library stay root's alone.
[ "$(id -u)" = 0 ] && chmod go-rwx "$HERE" "$ROOT/tests"
cd "$HERE"
PYTHONPATH="$HERE/lib" exec "${MLNOTES_PYTHON:-python3}" -m tools.grading.engines.prairielearn --root "$ROOT"
