#!/bin/sh
# core/ never includes curses or tui/ headers; tui/ never includes src/.
set -u
src="${top_srcdir:-.}"
bad=0
if grep -rlE '#include[[:space:]]*[<"](n?curses|ncursesw/|tui/|src/)' "$src/core" 2>/dev/null; then
    echo "FAIL: core/ includes the front end (files above)"
    bad=1
fi
if grep -rlE '#include[[:space:]]*"src/' "$src/tui" 2>/dev/null; then
    echo "FAIL: tui/ includes src/ (files above)"
    bad=1
fi
[ "$bad" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$bad"
