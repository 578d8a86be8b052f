# Locating ../shared for tests. Source it; it sets SHARED (the folder) or
# exits: 77 (skip) when the folder is missing, 1 under CI=true, where
# missing test data must fail loudly.
SHARED="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
if [ ! -d "$SHARED/traces" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: $SHARED/traces is missing; CI needs ../shared beside the checkout" >&2
        exit 1
    fi
    echo "SKIP: $SHARED/traces not found (tests on real traces need ../shared beside the checkout)"
    exit 77
fi
SHARED=$(cd "$SHARED" && pwd)
