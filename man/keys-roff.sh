#!/bin/sh
# Turns `torchtop --keys` into the man page's key section (roff): one .SS
# per group, one .TP per action with its keys (and its action name, for
# scripts), other lines as text. Reads stdin, writes stdout.
awk '
function esc(s) { gsub(/\\/, "\\e", s); if (s ~ /^[.'"'"']/) s = "\\&" s; return s }
NR <= 2 { next }
/^[^ ]/ { printf ".SS %s\n", esc($0); text = 0; next }
/^  / {
    line = substr($0, 3)
    n = split(line, part, /  +/)
    if (n >= 3) {
        help = part[3]
        for (i = 4; i <= n; i++) help = help "  " part[i]
        printf ".TP\n.B %s\n%s (\\fI%s\\fR)\n", esc(part[1]), esc(help), esc(part[2])
        text = 0
    } else if (n == 2) {
        printf ".TP\n.B %s\n%s\n", esc(part[1]), esc(part[2])
        text = 0
    } else {
        if (!text) printf ".PP\n"
        printf "%s\n", esc(part[1])
        text = 1
    }
}'
