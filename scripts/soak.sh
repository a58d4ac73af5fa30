#!/usr/bin/env bash
# The generation soak (issue 12): generates 10,000,000 puzzles with mixed options and checks
# every one with an independent checker (crates/tools/examples/soak_check.rs: its own plain
# backtracking solver, cross-checked against the test suite's oracle; not shudu's solver).
# Not a CI test: it takes about an hour on one core. Results go in BENCHMARKS.md.
#
#   scripts/soak.sh [SCALE]      # SCALE divides every count (e.g. 1000 for a quick run)
#
# Prints one line a run (options, puzzles checked, faults, seconds) and a total; exits 1 if any
# puzzle failed a check or any run made fewer puzzles than asked.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
cargo build --release --quiet -p shudu -p shudu-tools --example soak_check
shudu=target/release/shudu
check=target/release/examples/soak_check

# count | options (one thread each: the checker runs beside it in the pipe)
runs=(
    "3000000|"
    "2000000|--minimal"
    "1500000|--givens 26..32 --symmetry rot180"
    "1000000|--givens 24..30 --symmetry mirror-v"
    "500000|--symmetry dihedral"
    "1000000|--givens 24..27"
    "300000|--minimal --symmetry rot180"
    "500000|--difficulty hard"
    "200000|--difficulty fiendish"
    "50000|--difficulty diabolical --givens 22..28"
)
total=0 faults=0 seed=20261124 status=0
start_all=$(date +%s)
for run in "${runs[@]}"; do
    count=$(( ${run%%|*} / scale ))
    opts=${run#*|}
    minimal=()
    [[ $opts == *--minimal* ]] && minimal=(--minimal-every 1000)
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    if ! out=$($shudu generate -n "$count" --seed "$seed" $opts --threads 1 --timeout none \
            --format json | $check "${minimal[@]}"); then
        status=1
    fi
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    checked=$(sed -E 's/checked ([0-9]+),.*/\1/' <<<"$out")
    bad=$(sed -E 's/.*faults ([0-9]+),.*/\1/' <<<"$out")
    [[ $checked == "$count" ]] || { echo "soak: asked $count, checked $checked" >&2; status=1; }
    printf '%9d  %-45s  %s  %7.1f s\n' "$count" "${opts:-(default)}" "$out" "$secs"
    total=$((total + checked)) faults=$((faults + bad)) seed=$((seed + 1))
done
echo "total: $total puzzles checked, $faults faults, $(( $(date +%s) - start_all )) s"
exit $status
