#!/bin/sh
# Every C file of the tree is formatted as .clang-format says. The tree is
# kept formatted with clang-format 14 (Debian 12's); other versions format
# some constructs differently, so with another one the check is skipped.
# `make format` rewrites the files in place.
set -u
src="${top_srcdir:-.}"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
want=14
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: clang-format is needed (tools/setup installs it)"; exit 1; }
    echo "SKIP: clang-format not found"
    exit 77
fi
ver=$("$CLANG_FORMAT" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$ver" != "$want" ]; then
    echo "SKIP: clang-format $ver, the tree is formatted with $want"
    exit 77
fi
bad=0
for f in $(cd "$src" && ls core/*/*.[ch] tui/*/*.[ch] src/*.[ch] tests/unit/*.[ch] tests/fuzz/*.[ch] tests/lib/*.[ch]); do
    if ! "$CLANG_FORMAT" --style=file "$src/$f" | cmp -s - "$src/$f"; then
        echo "not formatted: $f"
        bad=$((bad + 1))
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "$bad file(s) differ from clang-format's output: run make format"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
