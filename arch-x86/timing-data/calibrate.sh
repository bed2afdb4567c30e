#!/bin/sh
# Builds calibrate.c and writes calibration.txt beside it (method: shared/reference/x86-host.md).
# Pinned to CPU 1; takes about a minute. Needs gcc and taskset.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp /tmp/calibrate.XXXXXX)
trap 'rm -f "$bin"' EXIT
# No red zone: the call/ret and pushf kernels push below rsp inside inline asm.
gcc -O2 -mno-red-zone -Wall -o "$bin" "$here/calibrate.c"
{
	echo "# x86-64 calibration, written by calibrate.sh; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	grep -m1 -E '^(vendor_id)' /proc/cpuinfo | sed 's/^/# /'
	grep -m1 -E '^cpu family' /proc/cpuinfo | sed 's/^/# /'
	grep -m1 -E '^model[[:space:]]' /proc/cpuinfo | sed 's/^/# /'
	echo "# method: lfence;rdtsc .. rdtscp;lfence, best of 7, taskset -c 1, 10M iterations x 10 elements"
	echo "# values: core cycles per element (TSC ticks scaled by the add-chain ratio)"
	taskset -c 1 "$bin"
} > "$here/calibration.txt.new"
mv "$here/calibration.txt.new" "$here/calibration.txt"
cat "$here/calibration.txt"
