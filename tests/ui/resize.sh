#!/bin/sh
# Resizing (KEY_RESIZE through the pure layout), the "too small" screen,
# terminal types, a non-UTF-8 locale (ASCII glyphs) and --no-color.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
trace="$TRACES/tracelens-h100-bert-small-infer.json.gz"
run_script resize "$trace" <<'STEPS'
focus-tree
hot-path
resize 120x40
save-display resize-120x40.txt
resize 80x24
save-display resize-80x24.txt
resize 59x15
save-display resize-too-small.txt
resize 30x8
expect too small: 30x8, need 60x16
j
resize 100x30
expect tree
M
resize 70x20
save-display resize-maximized-70x20.txt
STEPS
check_screen resize-120x40.txt
check_screen resize-80x24.txt
check_screen resize-too-small.txt
check_screen resize-maximized-70x20.txt

# The same session on every terminal type shows the same text; colours
# off changes only attributes.
printf 'focus-tree\nhot-path\nsave-display term.txt\n' > "$tmp/term.steps-in"
for term in xterm-256color screen tmux-256color linux vt100; do
    TERM=$term
    run_script "term-$term" "$trace" < "$tmp/term.steps-in"
    mv "$tmp/term.txt" "$tmp/term-$term.txt" 2>/dev/null || fail "$term: no screen"
    cmp -s "$tmp/term-xterm-256color.txt" "$tmp/term-$term.txt" ||
        fail "TERM=$term shows different text"
done
TERM=xterm
run_script term-mono "$trace" --no-color < "$tmp/term.steps-in"
cmp -s "$tmp/term-xterm-256color.txt" "$tmp/term.txt" || fail "--no-color shows different text"
NO_COLOR=1
export NO_COLOR
run_script term-nocolor "$trace" < "$tmp/term.steps-in"
cmp -s "$tmp/term-xterm-256color.txt" "$tmp/term.txt" || fail "NO_COLOR shows different text"
unset NO_COLOR

# A non-UTF-8 locale: ASCII only, the same layout.
LC_ALL=C
run_script ascii "$trace" < "$tmp/term.steps-in"
LC_ALL=C.UTF-8
mv "$tmp/term.txt" "$tmp/resize-ascii.txt"
check_screen resize-ascii.txt
if LC_ALL=C grep -q '[^ -~]' "$tmp/resize-ascii.txt"; then
    fail "non-ASCII bytes on the C-locale screen"
fi
run_script ascii-opt "$trace" --ascii < "$tmp/term.steps-in"
cmp -s "$tmp/resize-ascii.txt" "$tmp/term.txt" || fail "--ascii differs from the C locale"
finish
