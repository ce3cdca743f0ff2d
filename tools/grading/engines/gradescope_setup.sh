#!/usr/bin/env bash
# Gradescope runs this once, as root with network, when it builds the autograder's image
# (tools/grading/engines/bundle.py puts it in the zip as setup.sh). It installs, from PyPI and
# Debian/Ubuntu only: a Python >= 3.11, bubblewrap (the sandbox, used when the container allows
# it), a venv with the pinned requirements.txt, and the mlnotes wheel into source/lib, outside
# the venv that the sandbox shows. MLNOTES_AUTOGRADER_ROOT replaces /autograder (for tests).
set -euo pipefail
ROOT="${MLNOTES_AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
export DEBIAN_FRONTEND=noninteractive

recent() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
PY=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null && recent "$candidate"; then PY="$candidate"; break; fi
done
if [ -z "$PY" ] || ! command -v bwrap >/dev/null; then
  apt-get update -q || true
fi
if [ -z "$PY" ]; then  # Ubuntu 22.04 ships 3.10; its universe has 3.11
  apt-get install -y -q python3.11 python3.11-venv
  PY=python3.11
fi
command -v bwrap >/dev/null || apt-get install -y -q bubblewrap \
  || echo "bubblewrap could not be installed: submissions will be graded without the sandbox"
if ! "$PY" -m venv "$ROOT/venv"; then  # Debian and Ubuntu split ensurepip out
  apt-get install -y -q "$(basename "$PY")-venv"
  "$PY" -m venv "$ROOT/venv"
fi
"$ROOT/venv/bin/python" -m pip install -q --disable-pip-version-check -r "$SRC/requirements.txt"
"$ROOT/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --target "$SRC/lib" \
  "$SRC"/mlnotes-*.whl
cd "$SRC"
PYTHONPATH="$SRC/lib" "$ROOT/venv/bin/python" -c \
  'from tools.grading import sandbox_problem; print("sandbox:", sandbox_problem() or "works")'
