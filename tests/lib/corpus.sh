# Shared by the input-corpus tests (tests/bad, tests/bad-pickle). Source it
# after setting nothing; it sets tt (the program), tmp (a scratch folder,
# removed at exit), pass and fail, and defines ok and check.
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# ok STATUS NAME: a check passed when STATUS is 0, else it failed (named).
ok() {
    if [ "$1" = 0 ]; then
        pass=$((pass + 1))
    else
        echo "FAIL: $2"
        fail=$((fail + 1))
    fi
}

# check NAME WANT-STATUS WANT-MESSAGE STATUS STDERR-FILE STDOUT-FILE
# The first stderr line ("-" for none) and the status must be as wanted, and
# no C0 control byte but tab, newline and CR may come through from the
# input on either stream.
check() {
    msg=$(head -n 1 "$5")
    [ -n "$msg" ] || msg=-
    if [ "$4" != "$2" ] || [ "$msg" != "$3" ]; then
        echo "FAIL: $1: status $4 (want $2), message:"
        echo "  got:  $msg"
        echo "  want: $3"
        fail=$((fail + 1))
        return
    fi
    if LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037]')" "$5" "$6"; then
        echo "FAIL: $1: control bytes in the output"
        fail=$((fail + 1))
        return
    fi
    pass=$((pass + 1))
}

# capped MB ARGS...: run "$tt" ARGS with at most MB MiB of memory, so that a
# regression on a memory bomb fails (out of memory, exit 134) instead of
# taking the machine's memory. The sanitizer build reserves terabytes of
# address space, so there the limit is on resident memory instead, with
# AddressSanitizer's quarantine of freed blocks held to a quarter of it: at
# its default (256 MiB) the quarantine alone filled most of a 384 MiB cap
# on inputs whose run frees that much (a job of 1,000 ranks: 42 MiB
# resident in the plain build, 395 MiB under the sanitizers).
if grep -q '^#define TORCHTOP_SANITIZED' "${top_builddir:-.}/config.h" 2>/dev/null; then
    capped() {
        cap_mb=$1
        shift
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$cap_mb:quarantine_size_mb=$((cap_mb / 4))" \
            "$tt" "$@"
    }
else
    capped() {
        cap_mb=$1
        shift
        (ulimit -v $((cap_mb * 1024)) && exec "$tt" "$@")
    }
fi
