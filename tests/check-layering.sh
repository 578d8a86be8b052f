#!/bin/sh
# Layering: core/ never includes curses, tui/ or src/; tui/ never includes
# src/; the folders of core/ depend on each other one way (no cycle in the
# graph of "folder A includes a header of folder B"). Prints the graph.
# tui/'s folders likewise, the framework (tui/frame) including none of the
# others. The explorer's panes (tui/*/*_pane.c) know the pane interface,
# the app's state and core, never each other: a pane file includes no
# other pane's header, names no other pane's functions, and does not
# re-enter the dispatcher (it returns a request that the app routes).
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
# folders TOP: the folders of TOP/ (core, tui) and their includes of each
# other, "A B" for each include of TOP/B/ from a file in TOP/A/ (A != B),
# printed; fails on a file directly in TOP/ and on a cycle. The edges are
# left in $edges.
folders() {
    top=$1
    if ls "$src/$top"/*.[ch] >/dev/null 2>&1; then
        echo "FAIL: files directly in $top/ (each belongs to a folder):"
        ls "$src/$top"/*.[ch]
        bad=1
    fi
    edges=$(for f in "$src/$top"/*/*.[ch]; do
        from=$(basename "$(dirname "$f")")
        sed -n "s|^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$top/\([a-z_]*\)/.*|\1|p" "$f" |
            while read -r to; do
                [ "$to" != "$from" ] && echo "$from $to"
            done
    done | sort -u)
    echo "$top/ folder includes (from -> to):"
    echo "$edges" | sed 's/^/  /; s/ \([a-z_]*\)$/ -> \1/'
    loop=$(echo "$edges" | tsort 2>&1 >/dev/null)
    if [ -n "$loop" ]; then
        echo "FAIL: the folders of $top/ include each other in a cycle:"
        echo "$loop"
        bad=1
    fi
}
folders core
# tui/ likewise: the framework (frame/) and one folder per kind of
# document (trace/, snapshot/, diff/, job/); the framework includes none
# of the others.
folders tui
up=$(echo "$edges" | grep '^frame ' || true)
if [ -n "$up" ]; then
    echo "FAIL: the framework (tui/frame) includes a document's folder:"
    echo "$up" | sed 's/^/  /'
    bad=1
fi
# Pane files: X_pane.c owns the prefix X_pane_ (functions, its ops) and
# its header. Comments are left out of the search.
panes=$(cd "$src/tui" && ls */*_pane.c 2>/dev/null | sed 's/\.c$//')
for f in $panes; do
    code=$(sed 's|/\*.*\*/||g; s|//.*||' "$src/tui/$f.c" | grep -avE '^[[:space:]]*(\*|/\*)')
    for other in $panes; do
        [ "$other" = "$f" ] && continue
        oname=$(basename "$other")
        if echo "$code" | grep -aqE "#include[[:space:]]*\"tui/$other\.h\""; then
            echo "FAIL: tui/$f.c includes tui/$other.h (panes know the pane interface, not each other)"
            bad=1
        fi
        used=$(echo "$code" | grep -aoE "\b${oname}_[a-z0-9_]+" | sort -u | tr '\n' ' ')
        if [ -n "$used" ]; then
            echo "FAIL: tui/$f.c uses another pane's API: $used"
            bad=1
        fi
    done
    if echo "$code" | grep -aqE '#include[[:space:]]*"tui/frame/app\.h"'; then
        echo "FAIL: tui/$f.c includes tui/frame/app.h (a pane sees its view, tui/frame/view.h, not the app)"
        bad=1
    fi
    reenter=$(echo "$code" | grep -aoE "\bapp_(action|key|mouse|focus|open_menu|react|tick|render|resize|route|back|selection_changed)[[:space:]]*\(|->panes\[" |
        sort -u | tr '\n' ' ')
    if [ -n "$reenter" ]; then
        echo "FAIL: tui/$f.c drives the app or other panes ($reenter): return a request instead"
        bad=1
    fi
done
# A pane's own API is its document's to call (a file that defines a
# struct doc_ops) and, for the framework's generic panes, the app's: no
# other tui/ file includes a pane's header.
for c in "$src"/tui/*/*.c "$src"/tui/*/*.h; do
    base=$(basename "$c" | sed 's/\.[ch]$//')
    [ "$base" = app ] && continue
    grep -qE 'const struct doc_ops [a-z_]+ = ' "$c" && continue
    for h in $(grep -aoE '#include[[:space:]]*"tui/[a-z_]+/[a-z_]+_pane\.h"' "$c" | sed 's|.*"tui/[a-z_]*/||; s|\.h"||'); do
        [ "$h" = "$base" ] && continue
        echo "FAIL: $(basename "$c") includes the header of $h (only a document and the app call a pane's API)"
        bad=1
    done
done
echo "tui/ pane files (each knows tui/frame/pane.h and its view, tui/frame/view.h, no other pane):"
echo "$panes" | tr '\n' ' ' | sed 's/^/  /; s/ $//'
echo

[ "$bad" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$bad"
