#!/bin/sh
# Runs every fuzz target in turn, one process at a time, each until 1,000,000 executions or
# SECONDS seconds (default 600), whichever comes first.
#
# Text targets whose bugs need long inputs (preprocess, harness) run with -max_len=65536 (and
# -len_control=0, so long inputs come at once rather than after hours); every
# target runs with -timeout=$TIMEOUT (default 2 s) and reports units slower than $SLOW seconds
# (default 1): a slow unit fails the run like a crash (its input lands in fuzz/artifacts/<target>/
# as slow-unit-*), because a 64 KiB input must be processed in well under a second.
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]
#
# Corpora grow in fuzz/corpus/<target> (ignored by git), seeded first with
# `cargo run --example fuzz_seeds` (corpus files named in src/fuzzing/seeds.rs, and fuzz/seeds/);
# crashes land in fuzz/artifacts/<target>/; each run's libFuzzer output in
# fuzz/logs/<target>.log (also ignored). Needs cargo-fuzz; on a stable toolchain the nightly
# flags come from RUSTC_BOOTSTRAP=1.
set -u
cd "$(dirname "$0")/.." || exit 1
secs=${1:-600}
timeout=${TIMEOUT:-2}
slow=${SLOW:-1}
[ $# -gt 0 ] && shift
targets=${*:-$(cargo fuzz list --fuzz-dir fuzz)}
mkdir -p fuzz/logs
cargo run -q --example fuzz_seeds -- fuzz/corpus || exit 1
export RUSTC_BOOTSTRAP=1
# Safe Rust throughout (the crates forbid unsafe): no sanitizer, but debug assertions so
# arithmetic overflow panics as it does in `cargo test`.
flags="-O -a -s none"
status=0
for t in $targets; do
    mkdir -p "fuzz/corpus/$t"
    echo "== $t ($secs s)"
    case $t in
        preprocess | harness) len="-max_len=65536 -len_control=0" ;;
        *) len= ;;
    esac
    start=$(date +%s)
    # shellcheck disable=SC2086
    cargo fuzz run $flags "$t" "fuzz/corpus/$t" -- \
        -runs=1000000 -max_total_time="$secs" -rss_limit_mb=2048 -timeout="$timeout" \
        -report_slow_units="$slow" $len >"fuzz/logs/$t.log" 2>&1
    rc=$?
    if grep -q 'Slowest unit:' "fuzz/logs/$t.log"; then
        grep 'Slowest unit:' "fuzz/logs/$t.log" | tail -n 3
        rc=1
    fi
    end=$(date +%s)
    last=$(grep -E '^#[0-9]+' "fuzz/logs/$t.log" | tail -n 1)
    echo "   exit $rc, $((end - start)) s wall: $last"
    [ $rc -ne 0 ] && status=1 && grep -E 'panicked|ERROR: libFuzzer|Test unit written' "fuzz/logs/$t.log"
done
exit $status
