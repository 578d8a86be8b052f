# Shared by the input-corpus tests (tests/bad, tests/bad-pickle). Source it
# after setting nothing; it sets tt (the program), tmp (a scratch folder,
# removed at exit), pass and fail, and defines check.
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

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
