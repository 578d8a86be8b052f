#!/bin/sh
# Layering: core/ never includes curses, tui/ or src/; tui/ never includes
# src/; the folders of core/ depend on each other one way (no cycle in the
# graph of "folder A includes a header of folder B"). Prints the graph.
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
if ls "$src"/core/*.[ch] >/dev/null 2>&1; then
    echo "FAIL: files directly in core/ (each belongs to a feature folder):"
    ls "$src"/core/*.[ch]
    bad=1
fi

# "A B" for each include of core/B/ from a file in core/A/ (A != B).
edges=$(for f in "$src"/core/*/*.[ch]; do
    from=$(basename "$(dirname "$f")")
    sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"core/\([a-z_]*\)/.*|\1|p' "$f" |
        while read -r to; do
            [ "$to" != "$from" ] && echo "$from $to"
        done
done | sort -u)
echo "core/ folder includes (from -> to):"
echo "$edges" | sed 's/^/  /; s/ \([a-z_]*\)$/ -> \1/'
loop=$(echo "$edges" | tsort 2>&1 >/dev/null)
if [ -n "$loop" ]; then
    echo "FAIL: the folders of core/ include each other in a cycle:"
    echo "$loop"
    bad=1
fi
[ "$bad" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$bad"
