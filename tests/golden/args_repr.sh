#!/bin/sh
# The unique-args table's argument columns against Python's own repr of the
# same values (args_repr.py). Needs no shared data.
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/args_repr.py" --torchtop "${top_builddir:-.}/torchtop"
