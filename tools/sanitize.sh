#!/usr/bin/env bash
# The compiled extensions built with AddressSanitizer and UndefinedBehavior-
# Sanitizer (gcc), and the test suite run against that build.
#
#   tools/sanitize.sh [PYTEST ARGS...]      (default: the whole suite)
#
# The build goes to a temporary copy of the source tree (the working tree's
# own build is left alone) and is imported from there; the ASan runtime is
# preloaded into the interpreter.  Python's own allocations are not leak-
# checked (CPython keeps memory until exit by design); UBSan stops at the
# first finding.  Exit status: pytest's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python}
CC=${SANITIZE_CC:-gcc}
LIBASAN=$($CC -print-file-name=libasan.so)
LIBUBSAN=$($CC -print-file-name=libubsan.so)
if [ ! -e "$LIBASAN" ]; then
    echo "sanitize.sh: $CC has no libasan ($LIBASAN)" >&2
    exit 2
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-asan.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "== copying the sources to $WORK and building with -fsanitize=address,undefined"
git ls-files -z | xargs -0 -I{} cp --parents {} "$WORK"/
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
(cd "$WORK" && CC=$CC CFLAGS="$SAN -O1 -g" LDFLAGS="$SAN" \
    "$PYTHON" setup.py -q build_ext --inplace --parallel 2 > "$WORK/build.log" 2>&1) || {
    tail -30 "$WORK/build.log" >&2
    exit 1
}
echo "== the test suite against the sanitized build"
cd "$WORK"
export LD_PRELOAD="$LIBASAN $LIBUBSAN"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export PYTHONPATH="$WORK${PYTHONPATH:+:$PYTHONPATH}"
export PERCEPTRON_A9A=${PERCEPTRON_A9A:-$ROOT/../shared/data/a9a}
"$PYTHON" -c "import perceptron, sys; assert perceptron.__file__.startswith('$WORK'), perceptron.__file__; print('sanitized build:', perceptron.__file__)"
"$PYTHON" -m pytest -q -p no:cacheprovider "${@:-tests}"
