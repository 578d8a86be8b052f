#!/bin/sh
# docs/metrics.md defines torchtop's numbers: it exists, README.md links it,
# and every "docs/metrics.md §N" cited in the tree (and every §N inside the
# file itself) names one of its sections ("## N." or "### N.M").
set -u
LC_ALL=C
export LC_ALL
src="${top_srcdir:-.}"
doc="$src/docs/metrics.md"
if [ ! -f "$doc" ]; then
    echo "FAIL: docs/metrics.md is missing"
    exit 1
fi
bad=0
if ! grep -q '(docs/metrics\.md)' "$src/README.md"; then
    echo "FAIL: README.md does not link docs/metrics.md"
    bad=1
fi

sections=$(sed -nE 's/^## ([0-9]+)\. .*/\1/p; s/^### ([0-9]+\.[0-9]+) .*/\1/p' "$doc")

# "file:line:text" of every line that cites the file, and of the file's own
# cross-references.
cites=$( (grep -rnE 'metrics\.md' "$src/core" "$src/tui" "$src/src" "$src/tests" "$src/man" \
              "$src/README.md" 2>/dev/null | grep -v 'tests/check-docs\.sh:'
          grep -nE '§[0-9]' "$doc" | sed "s|^|$doc:|") )

old=$(printf '%s\n' "$cites" | grep -E 'metrics\.md section' || true)
if [ -n "$old" ]; then
    printf '%s\n' "$old"
    echo "FAIL: cite sections as 'docs/metrics.md §N' (lines above)"
    bad=1
fi

nrefs=0
tmp=$(printf '%s\n' "$cites" | while IFS= read -r line; do
    [ -n "$line" ] || continue
    where=$(printf '%s\n' "$line" | cut -d: -f1,2)
    for ref in $(printf '%s\n' "$line" | cut -d: -f3- | grep -oE '§[0-9]+(\.[0-9]+)?' |
                 sed 's/^§//'); do
        echo "ref"
        if ! printf '%s\n' "$sections" | grep -qx "$ref"; then
            echo "FAIL: $where cites §$ref, which docs/metrics.md does not have"
        fi
    done
done)
nrefs=$(printf '%s\n' "$tmp" | grep -c '^ref$' || true)
if printf '%s\n' "$tmp" | grep -q '^FAIL'; then
    printf '%s\n' "$tmp" | grep '^FAIL'
    bad=1
fi
echo "docs/metrics.md: $(printf '%s\n' "$sections" | grep -c .) sections, $nrefs citations checked"
exit $bad
