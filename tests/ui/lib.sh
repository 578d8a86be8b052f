# Scripted explorer sessions: shared set-up. Source it from a tests/ui/*.sh
# script run by `make check` (top_srcdir and top_builddir are exported).
#
#   need_shared                   skip (77) without ../shared, fail under CI=true
#   run_script NAME TRACE [OPT]   run the steps on stdin headless in $tmp
#   check_screen FILE             diff $tmp/FILE against tests/ui/expected/FILE
#   finish                        exit 1 if anything failed
#
# UPDATE_EXPECTED=DIR writes the screens into DIR instead of comparing.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
TORCHTOP="$(cd "$top_builddir" && pwd)/torchtop"
EXPECTED="$top_srcdir/tests/ui/expected"
SHARED="${TORCHTOP_SHARED:-$top_srcdir/../shared}"
TRACES="$SHARED/traces"
failures=0

tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-ui.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# A fixed environment: the screens must not depend on the caller's.
LC_ALL=C.UTF-8
TZ=UTC
HOME="$tmp"
TERM=xterm
# Source files along the current directory only, not this machine's python3.
TORCHTOP_SOURCE_PATH=.
export LC_ALL TZ HOME TERM TORCHTOP_SOURCE_PATH
unset NO_COLOR LINES COLUMNS LANG LC_CTYPE 2>/dev/null || true

need_shared() {
    if [ ! -d "$TRACES" ]; then
        if [ "${CI:-}" = "true" ]; then
            echo "FAIL: $TRACES is missing; CI needs ../shared beside the checkout"
            exit 1
        fi
        echo "SKIP: $TRACES not found (these sessions run on the shared traces)"
        exit 77
    fi
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run_script NAME TRACE [OPTIONS...] < steps
# TRACE may be "" for the bundled demo. Screens land in $tmp. The exit
# status must be $EXPECT_STATUS (default 0).
run_script() {
    name=$1
    trace=$2
    shift 2
    cat > "$tmp/$name.steps"
    if [ -n "$trace" ]; then
        (cd "$tmp" && timeout 300 "$TORCHTOP" --script "$name.steps" "$@" "$trace") \
            > "$tmp/$name.out" 2> "$tmp/$name.err"
    else
        (cd "$tmp" && timeout 300 "$TORCHTOP" --script "$name.steps" "$@") \
            > "$tmp/$name.out" 2> "$tmp/$name.err"
    fi
    rc=$?
    if [ $rc -ne "${EXPECT_STATUS:-0}" ]; then
        fail "$name: exit status $rc"
        cat "$tmp/$name.err"
    elif [ -s "$tmp/$name.err" ]; then
        fail "$name: wrote to stderr"
        cat "$tmp/$name.err"
    fi
    return 0
}

check_screen() {
    if [ -n "${UPDATE_EXPECTED:-}" ]; then
        cp "$tmp/$1" "$UPDATE_EXPECTED/$1"
        echo "updated $1"
        return 0
    fi
    if [ ! -f "$tmp/$1" ]; then
        fail "$1 was not written"
    elif ! diff -u "$EXPECTED/$1" "$tmp/$1"; then
        fail "$1 differs from tests/ui/expected/$1"
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures failure(s)"
        exit 1
    fi
    exit 0
}
