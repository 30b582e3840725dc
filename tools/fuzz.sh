#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, clang) of the two readers of files from
# strangers: the svmlight parser and the model-file reader (with the scoring
# of the model it yields), under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   tools/fuzz.sh [SECONDS_PER_TARGET]        (default 60; .ci/run passes a short time)
#
# Seeds: a9a's first lines (from ../shared/data when present), hand-made edge
# cases, and model files of every kind written by the installed package (the
# python on PATH must import perceptron).  A crash leaves its input in
# $WORK/crash-*; the script then fails.  Findings are fixed and kept as
# regression tests (tests/io/test_svmlight.py, tests/io/test_model_file.py).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
CC=${FUZZ_CC:-clang}
if ! command -v "$CC" >/dev/null; then
    echo "fuzz.sh: $CC not found (Debian: apt-get install clang)" >&2
    exit 2
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-fuzz.XXXXXX")
FLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Icsrc"
# the files of a group of csrc/sources.txt (the one list of C sources), as paths from here
c_sources() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' csrc/sources.txt |
        awk -v group="[$1]" '/^\[/ { on = ($0 == group); next } on && NF { printf "csrc/%s ", $0 }'
}
KERNELS=$(c_sources kernels)
SVMLIGHT=$(c_sources svmlight)
MODEL_FILE=$(c_sources model_file)

echo "== building the fuzz targets in $WORK"
$CC $FLAGS tools/fuzz/fuzz_svmlight.c $SVMLIGHT -lm -o "$WORK/fuzz_svmlight"
$CC $FLAGS tools/fuzz/fuzz_model_file.c $MODEL_FILE $KERNELS -lm -o "$WORK/fuzz_model_file"

echo "== seed corpora"
mkdir -p "$WORK/svmlight" "$WORK/model_file"
if [ -f ../shared/data/a9a ]; then
    head -c 4000 ../shared/data/a9a > "$WORK/svmlight/a9a_head"
fi
printf '\x00\x00-1 1:0.5 3:2\n+1 qid:3 2:1e-3 7:-4 # c\n\n' > "$WORK/svmlight/basic"
printf '\x25\x07 1 0:1 2:3\r\n-1 5:inf 2:nan\n0 1:1 1:2\n1 99999999999:1' > "$WORK/svmlight/edges"
python - "$WORK/model_file" <<'PY'
import sys, warnings
import numpy as np
import perceptron
out = sys.argv[1]
rng = np.random.default_rng(0)
X = rng.standard_normal((30, 4))
warnings.simplefilter("ignore")
for name, model, y in [
    ("binary", perceptron.Perceptron(max_iter=3), X[:, 0] > 0),
    ("multinomial32", perceptron.Perceptron(multiclass="multinomial", max_iter=3), np.arange(30) % 3),
    ("averaged", perceptron.Perceptron(average=True, max_iter=3), np.arange(30) % 2),
    ("voted", perceptron.VotedPerceptron(max_iter=2), np.arange(30) % 2),
    ("centroid", perceptron.CentroidClassifier(), np.arange(30) % 3),
]:
    data = X.astype(np.float32) if name.endswith("32") else X
    model.fit(data, y).save(f"{out}/{name}.ptn")
PY

status=0
for target in svmlight model_file; do
    echo "== fuzzing $target for ${SECONDS_PER_TARGET}s"
    if ! (cd "$WORK" && ASAN_OPTIONS=detect_leaks=1 "./fuzz_$target" "$target" \
            -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 2>"$WORK/$target.log"); then
        status=1
        echo "FAIL: fuzz_$target found a problem; input and log in $WORK" >&2
        tail -40 "$WORK/$target.log" >&2
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$WORK/$target.log" | tail -3
done
if [ "$status" -eq 0 ]; then
    rm -rf "$WORK"
    echo "fuzz.sh: no finding"
fi
exit "$status"
