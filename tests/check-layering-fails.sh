#!/bin/sh
# tests/check-layering.sh fails where it should: on a copy of the tree,
# an include from the framework into a document's folder, a cycle between
# tui/ folders, and a pane calling another pane's API each make it fail.
set -u
src="${top_srcdir:-.}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-layering.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0

# expect_fail NAME FILE LINE WHY: append LINE to FILE of a fresh copy; the
# check must fail and say WHY.
expect_fail() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t"
    cp -r "$src/core" "$src/tui" "$tmp/t/"
    printf '%s\n' "$3" >>"$tmp/t/$2"
    if top_srcdir="$tmp/t" sh "$src/tests/check-layering.sh" >"$tmp/out" 2>&1; then
        echo "FAIL: $1: the layering check passed"
        failed=1
    elif ! grep -qF "$4" "$tmp/out"; then
        echo "FAIL: $1: the layering check did not say \"$4\":"
        cat "$tmp/out"
        failed=1
    else
        echo "ok: $1: $(grep -F "$4" "$tmp/out" | head -n 1)"
    fi
}

rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$src/core" "$src/tui" "$tmp/t/"
if ! top_srcdir="$tmp/t" sh "$src/tests/check-layering.sh" >"$tmp/out" 2>&1; then
    echo "FAIL: the unchanged copy does not pass"
    cat "$tmp/out"
    exit 1
fi
expect_fail "framework includes a document" tui/frame/draw.h '#include "tui/trace/knames.h"' \
    "the framework (tui/frame) includes a document's folder"
expect_fail "cycle between document folders" tui/snapshot/snapview.h '#include "tui/job/job_doc.h"' \
    "the folders of tui/ include each other in a cycle"
expect_fail "pane calls another pane" tui/trace/tree_pane.c \
    'static void f(void) { timeline_pane_lanes(0); }' "uses another pane's API: timeline_pane_lanes"
expect_fail "pane includes the app" tui/trace/timeline_pane.c '#include "tui/frame/app.h"' \
    "includes tui/frame/app.h (a pane sees its view"
expect_fail "file directly in tui/" tui/stray.h '/* stray */' "files directly in tui/"
expect_fail "cycle between core folders" core/base/xalloc.h '#include "core/trace/trace.h"' \
    "the folders of core/ include each other in a cycle"
[ "$failed" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$failed"
