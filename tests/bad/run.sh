#!/bin/sh
# The malformed-input corpus: every file in expected.txt gives exactly the
# listed exit status and first line on stderr (with FILE for its path),
# never a crash, and nothing from the input reaches stdout unescaped.
set -u
src="${top_srcdir:-.}/tests/bad"
. "${top_srcdir:-.}/tests/lib/corpus.sh"

tab=$(printf '\t')
while IFS="$tab" read -r name status message; do
    case "$name" in ''|'#'*) continue ;; esac
    "$tt" report -q "$src/$name" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    sed "s|^torchtop: $src/$name|FILE|" "$tmp/err" >"$tmp/err2"
    check "$name" "$status" "$message" "$rc" "$tmp/err2" "$tmp/out"
    # The same input through stdin reads the same way.
    "$tt" report -q -t timeline - <"$src/$name" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    sed "s|^torchtop: -|FILE|" "$tmp/err" >"$tmp/err2"
    check "$name (stdin)" "$status" "$message" "$rc" "$tmp/err2" "$tmp/out"
done <"$src/expected.txt"

# Faults that leave events before them (or lose none) still print the
# report of those events: FILE:EVENTS.
for kept in gzip-bad-crc.json.gz:200 gzip-no-trailer.json.gz:200 junk-after-document.json:2 \
            junk-after-array.json:1 truncated-mid-event.json:2 invalid-utf8.json:2 \
            name-number.json:2 dur-string.json:2 ts-number-string.json:2 \
            device-properties-number.json:1 two-trace-events.json:2 byte-order-mark.json:1 \
            gzip-bad-length.json.gz:200 gzip-header-fields.json.gz:200 nul-in-top-key.json:1 \
            number-leading-zero.json:1 number-leading-zero-top.json:1 lone-surrogate.json:1 \
            deep-nesting-valid.json:1; do
    name=${kept%:*} events=${kept##*:}
    "$tt" report -q "$src/$name" >"$tmp/out" 2>/dev/null
    if grep -q "^events: *$events," "$tmp/out"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $name: the report of its $events events is missing"
        fail=$((fail + 1))
    fi
done

# Counts of one are singular in messages and notes.
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 1}, {' \
    >"$tmp/one.json"
"$tt" report -q -t kernels,timeline "$tmp/one.json" >"$tmp/out" 2>"$tmp/err"
"$tt" report -q "$src/junk-after-array.json" >/dev/null 2>>"$tmp/err"
for want in "err:1 byte lost" "err:reporting the 1 event read before the fault" \
            "err:reporting its one event; the fault dropped none" "out:1 GPU event, 0 linked" \
            "out:1 kernel is not linked to a launch: its category" \
            "out:1 of 1 GPU event is not linked to a launch; --linked-only leaves it out"; do
    if grep -qF -- "${want#*:}" "$tmp/${want%%:*}"; then
        pass=$((pass + 1))
    else
        echo "FAIL: singular counts: '${want#*:}' missing from std${want%%:*}"
        fail=$((fail + 1))
    fi
done

# Inputs that cannot be files in the corpus.
# A directory is a multi-rank job (core/job): one without traces is bad input.
mkdir "$tmp/empty"
"$tt" report -q "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "a directory without traces" 2 "torchtop: $tmp/empty: the directory holds no trace (*.json, *.json.gz) or rank summary (*.summary)" $? "$tmp/err" "$tmp/out"
"$tt" report -q "$tmp/does-not-exist.json" >"$tmp/out" 2>"$tmp/err"
check "a missing file" 2 "torchtop: $tmp/does-not-exist.json: cannot open: No such file or directory" $? "$tmp/err" "$tmp/out"
# The explorer says the same, before it needs a terminal.
"$tt" "$tmp/does-not-exist.json" >"$tmp/out" 2>"$tmp/err"
check "a missing file (explorer)" 2 "torchtop: $tmp/does-not-exist.json: cannot open: No such file or directory" $? "$tmp/err" "$tmp/out"
if [ "$(id -u)" != 0 ]; then
    printf '{"traceEvents": []}' >"$tmp/locked.json"
    chmod 000 "$tmp/locked.json"
    "$tt" report -q "$tmp/locked.json" >"$tmp/out" 2>"$tmp/err"
    check "an unreadable file" 2 "torchtop: $tmp/locked.json: cannot open: Permission denied" $? "$tmp/err" "$tmp/out"
fi
# symbolize -e reads only regular files: a FIFO would block it forever.
if mkfifo "$tmp/fifo" 2>/dev/null; then
    timeout 20 "$tt" symbolize -e "$tmp/fifo" 0x10 >"$tmp/out" 2>"$tmp/err"
    check "symbolize -e FIFO" 1 \
        "torchtop symbolize: $tmp/fifo: not a regular file (a FIFO): only regular ELF files are read" \
        $? "$tmp/err" "$tmp/out"
    rm -f "$tmp/fifo"
fi
# Names with escape sequences are shown escaped in every format.
for fmt in text csv json md; do
    "$tt" report -q -f "$fmt" -t key-averages "$src/escapes-in-name.json" >"$tmp/out" 2>"$tmp/err"
    check "escapes in names ($fmt)" 0 - $? "$tmp/err" "$tmp/out"
done

# Names a spreadsheet would run as formulas get a leading ' in CSV text
# cells (numbers stay as they are); --csv-raw writes them as they are.
"$tt" report -q -f csv -t key-averages "$src/formula-names.json" >"$tmp/out" 2>"$tmp/err"
"$tt" report -q -f csv --csv-raw -t key-averages "$src/formula-names.json" >"$tmp/raw" 2>>"$tmp/err"
for want in "out:\"'=HYPERLINK(\"\"http://example.invalid\"\",\"\"x\"\")\"" "out:'+cmd|' /C calc'!A0" \
            "out:'-2+3" "out:\"'@SUM(1,2)\"" "out:-5," "out:+1.5e3," \
            "raw:\"=HYPERLINK(" "raw:+cmd|" "raw:-2+3" "raw:\"@SUM(1,2)\""; do
    if grep -qF -- "${want#*:}" "$tmp/${want%%:*}"; then
        pass=$((pass + 1))
    else
        echo "FAIL: formula-like CSV cells: '${want#*:}' missing from the ${want%%:*} CSV"
        fail=$((fail + 1))
    fi
done
if grep -v -e '^-5,' -e '^+1\.5e3,' "$tmp/out" | grep -q -e '^[=+@-]' -e '^"[=+@-]'; then
    echo "FAIL: formula-like CSV cells: a cell starts with = + - @ without a leading '"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# Memory bombs, made at test time (make-bombs.py): an event or top-level
# value longer than 16 MiB, or one that needs more than 128 MiB to parse, is
# refused within a memory cap, and the events before it are reported.
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if "$PYTHON3" "$src/make-bombs.py" "$tmp"; then
    while IFS="$tab" read -r name message; do
        capped 384 report -q -t timeline "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        sed "s|^torchtop: $tmp/$name|FILE|" "$tmp/err" >"$tmp/err2"
        check "$name" 2 "$message" "$rc" "$tmp/err2" "$tmp/out"
        if ! grep -q "^torchtop: reporting the 1 event read before the fault" "$tmp/err"; then
            echo "FAIL: $name: the event before the fault is not reported"
            fail=$((fail + 1))
        fi
    done <<EOF
event-20mb.json.gz${tab}FILE: byte (uncompressed) 99: a trace event longer than 16 MiB: torchtop holds one whole to parse it and refuses larger ones
event-parse-memory.json.gz${tab}FILE: byte (uncompressed) 99: a trace event that needs more than 128 MiB of memory to parse (it holds millions of values): torchtop refuses it
name-1gb.json.gz${tab}FILE: byte (uncompressed) 99: a trace event longer than 16 MiB: torchtop holds one whole to parse it and refuses larger ones
top-value-20mb.json.gz${tab}FILE: byte (uncompressed) 108: a top-level value longer than 16 MiB: torchtop holds one whole to parse it and refuses larger ones
EOF
else
    echo "FAIL: make-bombs.py did not write the memory bombs"
    fail=$((fail + 1))
fi

# Values that fit one by one but not added up are added up right, never
# wrapped: [memory] Bytes past 2^63 clamp to the int64 limit, three 4e15 us
# kernels make 1.2e16 us of device time; a convolution's negative padding
# gives no roofline model; the events past the time range are refused (in
# expected.txt).
"$tt" report -q -f csv -t key-averages "$src/sums-past-int64.json" >"$tmp/out" 2>"$tmp/err"
"$tt" report -q -f csv -t roofline "$src/sums-past-int64.json" >"$tmp/roof" 2>>"$tmp/err"
for want in "out:aten::empty,25,10,25,10,10,,,,,9223372036854775807,9223372036854775807,0,0,1," \
            "out:aten::mm,17.5,7,25,10,10,1.2e+16,99.999999999999972,1.2e+16,1.2e+16," \
            "out:gemm,,,,,,1.2e+16," "out:aten::conv2d,25,10,25,10,10,,,,,0,0,0,0,1,1.8375247813730676e+25" \
            "roof:aten::convolution,CONV_fwd,\"convolution parameters no convolution has"; do
    if grep -qF -- "${want#*:}" "$tmp/${want%%:*}"; then
        pass=$((pass + 1))
    else
        echo "FAIL: sums-past-int64.json: '${want#*:}' missing from the ${want%%:*} CSV"
        fail=$((fail + 1))
    fi
done
if [ -s "$tmp/err" ]; then
    echo "FAIL: sums-past-int64.json: wrote to stderr:"
    cat "$tmp/err"
    fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
