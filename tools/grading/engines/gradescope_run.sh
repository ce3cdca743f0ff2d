#!/usr/bin/env bash
# Gradescope runs this for each submission (tools/grading/engines/bundle.py puts it in the zip
# as run_autograder): the judge of `make grade` on the notebook in /autograder/submission, results
# in /autograder/results/results.json (tools/grading/engines/gradescope.py).
# MLNOTES_AUTOGRADER_ROOT replaces /autograder (for tests).
set -euo pipefail
ROOT="${MLNOTES_AUTOGRADER_ROOT:-/autograder}"
# Without bubblewrap (a container that forbids user namespaces) the student's code runs as an
# unprivileged uid (tools/grading/limits.py): the tests and the library stay root's alone.
[ "$(id -u)" = 0 ] && chmod go-rwx "$ROOT/source"
cd "$ROOT/source"
PYTHONPATH="$ROOT/source/lib" exec "$ROOT/venv/bin/python" -m tools.grading.engines.gradescope --root "$ROOT"
