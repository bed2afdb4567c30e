#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Rebuilds the committed x86-64 trace objects: one .o per catalogue entry.
#
#   sh traces/x86/build.sh [OUTDIR]     (default: traces/x86/obj)
#
# The objects are compared byte for byte by traces/tests/x86_objects.rs, so the build must be
# reproducible: sources are compiled from this directory under their bare names (the name
# lands in the object's symbol table), without debug info, with the gcc recorded in
# OUTDIR/gcc-version (a different gcc gives different bytes; the test then skips).
#
# The compiler flags, and why each, are in ./cflags (shared with traces/src/rebuild.rs).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/obj}
mkdir -p "$out"
out=$(cd "$out" && pwd)

CC=${CC:-gcc}
# shellcheck source=cflags
. "$here/cflags"

cd "$here"

# build OBJECT SOURCE DEFINE...
build() {
	obj=$1
	src=$2
	shift 2
	# shellcheck disable=SC2086
	"$CC" $CFLAGS "$@" -c "$src" -o "$out/$obj"
}

build nohz-syscall-v4.5-rc1.o nohz_syscall.c -DPATCHES=0
build nohz-syscall-patch1.o nohz_syscall.c -DPATCHES=1
build nohz-syscall-patch3.o nohz_syscall.c -DPATCHES=3
build nohz-syscall-patch4.o nohz_syscall.c -DPATCHES=4
# The housekeeping CPU runs the patched kernel; what makes it housekeeping is the harness
# (context_tracking.active = 0), as on real hardware.
build nohz-syscall-housekeeping.o nohz_syscall.c -DPATCHES=4
build sched-avg-loop.o sched_avg.c -DSCHED_AVG_DIV=0
build sched-avg-div.o sched_avg.c -DSCHED_AVG_DIV=1
build timer-target-old.o timer_target.c -DTIMER_TARGET_NEW=0
build timer-target-new.o timer_target.c -DTIMER_TARGET_NEW=1

"$CC" -dumpfullversion > "$out/gcc-version"
