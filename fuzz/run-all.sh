#!/bin/sh
# Runs every fuzz target in turn, one process at a time, each until 1,000,000 executions or
# SECONDS seconds (default 600), whichever comes first.
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
    start=$(date +%s)
    # shellcheck disable=SC2086
    cargo fuzz run $flags "$t" "fuzz/corpus/$t" -- \
        -runs=1000000 -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        >"fuzz/logs/$t.log" 2>&1
    rc=$?
    end=$(date +%s)
    last=$(grep -E '^#[0-9]+' "fuzz/logs/$t.log" | tail -n 1)
    echo "   exit $rc, $((end - start)) s wall: $last"
    [ $rc -ne 0 ] && status=1 && grep -E 'panicked|ERROR: libFuzzer|Test unit written' "fuzz/logs/$t.log"
done
exit $status
