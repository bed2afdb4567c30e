#!/bin/sh
# Builds calibrate.c and writes calibration.txt beside it (method: shared/reference/x86-host.md).
# Pinned to CPU 1; takes about a minute. Needs gcc and taskset.
#   sh calibrate.sh [OUTFILE]   (default calibration.txt, the Zen 4 machine's, which the tests read)
# CALIB_ITER/CALIB_REPS choose the run length and count (issue 15: on a loaded machine use many
# short runs, e.g. CALIB_ITER=10000 CALIB_REPS=201, or every run is preempted).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp /tmp/calibrate.XXXXXX)
trap 'rm -f "$bin"' EXIT
# No red zone: the call/ret and pushf kernels push below rsp inside inline asm.
out=${1:-$here/calibration.txt}
iter=${CALIB_ITER:-10000000}
reps=${CALIB_REPS:-7}
gcc -O2 -mno-red-zone -Wall -DITER="${iter}L" -DREPS="$reps" -o "$bin" "$here/calibrate.c"
{
	echo "# x86-64 calibration, written by calibrate.sh; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	grep -m1 -E '^(vendor_id)' /proc/cpuinfo | sed 's/^/# /'
	grep -m1 -E '^cpu family' /proc/cpuinfo | sed 's/^/# /'
	grep -m1 -E '^model[[:space:]]' /proc/cpuinfo | sed 's/^/# /'
	echo "# method: lfence;rdtsc .. rdtscp;lfence, best of $reps, taskset -c 1, $iter iterations x 10 elements"
	echo "# values: core cycles per element (TSC ticks scaled by the add-chain ratio)"
	taskset -c 1 "$bin"
} > "$out.new"
mv "$out.new" "$out"
cat "$out"
