#!/usr/bin/env bash
# Host instructions per emulated instruction (or per system call), measured with valgrind's
# callgrind by the run-length difference (issue 17): the workload runs twice, with N and 2N
# iterations (or system calls), and the difference of the two host-instruction totals is divided
# by the difference of the emulated work. Start-up (parsing, assembling, loading, predecoding)
# cancels out, so the figure is the steady-state cost of one more emulated instruction.
#
# Usage:
#   scripts/callgrind-per-insn.sh [options] loop CORE WORKLOAD on|off N
#       CORE WORKLOAD as `acctemu bench` names them, e.g. `ia64 loop/alu on 20000`; prints host
#       instructions per emulated instruction (the bench's instruction counter, nops included).
#   scripts/callgrind-per-insn.sh [options] scenario TRACE N [EXTRA-ARGS...]
#       `acctemu scenario TRACE --syscalls N EXTRA-ARGS...`; prints host instructions per system
#       call.
# Options:
#   --bin PATH    the acctemu binary (default: target/release/acctemu; build it with
#                 `cargo build --release`, whose profile keeps line tables for the annotation)
#   --keep DIR    keep the callgrind output of the 2N run in DIR (for callgrind_annotate)
#   --format F    text (default: one line "label host_insns_per_unit") or json
#
# Deterministic: callgrind counts instructions, not time, so the figure does not depend on load.
set -euo pipefail

bin=target/release/acctemu
keep=
format=text
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --format) format=$2; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) break ;;
    esac
done

die() { echo "callgrind-per-insn: $*" >&2; exit 2; }
command -v valgrind >/dev/null || die "valgrind is not installed"
[[ -x $bin ]] || die "no acctemu binary at $bin (cargo build --release)"
[[ $# -ge 1 ]] || die "usage: $0 [options] loop CORE WORKLOAD on|off N | scenario TRACE N [ARGS...]"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Host instructions (Ir) of one callgrind run of "$@"; its stdout goes to $tmp/out.<tag>.
host_insns() {
    local tag=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$tag" "$@" >"$tmp/out.$tag" 2>"$tmp/err.$tag" \
        || { cat "$tmp/err.$tag" >&2; die "run failed: $*"; }
    # The totals line of a callgrind output file: "totals: <Ir>" (or "summary:" in old versions).
    awk '/^(totals|summary):/ { print $2; exit }' "$tmp/cg.$tag"
}

# The bench's instruction counter from its JSON output (one row).
bench_insns() {
    grep -o '"instructions": *[0-9]*' "$1" | head -1 | grep -o '[0-9]*$'
}

mode=$1; shift
case "$mode" in
    loop)
        [[ $# -eq 4 ]] || die "usage: $0 loop CORE WORKLOAD on|off N"
        core=$1 work=$2 timing=$3 n=$4
        label="$core $work $timing"
        a=$(host_insns n "$bin" bench --row "$label" --iterations "$n" --syscalls 1 --format json)
        b=$(host_insns 2n "$bin" bench --row "$label" --iterations $((2 * n)) --syscalls 1 --format json)
        ia=$(bench_insns "$tmp/out.n")
        ib=$(bench_insns "$tmp/out.2n")
        [[ -n $ia && -n $ib && $ib -gt $ia ]] || die "no instruction counts in the bench output"
        unit=insn
        units=$((ib - ia))
        ;;
    scenario)
        [[ $# -ge 2 ]] || die "usage: $0 scenario TRACE N [ARGS...]"
        trace=$1 n=$2; shift 2
        label="scenario $trace"
        a=$(host_insns n "$bin" scenario "$trace" --syscalls "$n" "$@")
        b=$(host_insns 2n "$bin" scenario "$trace" --syscalls $((2 * n)) "$@")
        unit=syscall
        units=$n
        ;;
    *) die "unknown mode '$mode' (loop or scenario)" ;;
esac

if [[ -n $keep ]]; then
    mkdir -p "$keep"
    cp "$tmp/cg.2n" "$keep/callgrind.out.$(echo "$label" | tr ' /' '__')"
fi

per=$(awk -v a="$a" -v b="$b" -v u="$units" 'BEGIN { printf "%.1f", (b - a) / u }')
case "$format" in
    json) printf '{"label": "%s", "host_insns": [%s, %s], "extra_%ss": %s, "host_insns_per_%s": %s}\n' \
              "$label" "$a" "$b" "$unit" "$units" "$unit" "$per" ;;
    *) printf '%s\t%s host instructions per %s (Ir %s -> %s over %s more %ss)\n' \
              "$label" "$per" "$unit" "$a" "$b" "$units" "$unit" ;;
esac
