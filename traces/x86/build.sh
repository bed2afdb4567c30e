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
# Flags, and why:
#   -O2                              what the kernel builds with
#   -std=gnu11                       statement expressions, __typeof__, asm flag outputs
#   -ffreestanding -fno-builtin      no libc: nothing may turn into a memset/memcpy call
#   -nostdinc                        no system headers reach the traces
#   -fno-pic -mcmodel=small          absolute/rip-relative addressing, no GOT or PLT stubs; the
#                                    harness places code and data in the low 2 GB (kernel code
#                                    uses -mcmodel=kernel, the top 2 GB; the instructions are
#                                    the same, only R_X86_64_32S/PC32 reach differs)
#   -mno-red-zone                    kernel code cannot use the red zone (interrupts share the stack)
#   -mgeneral-regs-only              the kernel's no-FPU/SSE rule; also keeps the code inside the
#                                    integer subset the emulator runs
#   -fno-stack-protector             no %fs/%gs canary loads
#   -fno-asynchronous-unwind-tables -fno-unwind-tables   no .eh_frame to load or relocate
#   -fcf-protection=none             no endbr64 (the 4.5/5.2 kernels predate IBT)
#   -fno-strict-aliasing -fno-delete-null-pointer-checks -fno-common   as the kernel's Makefile
#   -fno-jump-tables                 no .rodata tables of code addresses (retpoline kernels too)
#   -Wall -Wextra -Werror            the sources stay warning-free
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/obj}
mkdir -p "$out"
out=$(cd "$out" && pwd)

CC=${CC:-gcc}
CFLAGS="-O2 -std=gnu11 -ffreestanding -fno-builtin -nostdinc -fno-pic -mcmodel=small \
-mno-red-zone -mgeneral-regs-only -fno-stack-protector -fno-asynchronous-unwind-tables \
-fno-unwind-tables -fcf-protection=none -fno-strict-aliasing -fno-delete-null-pointer-checks \
-fno-common -fno-jump-tables -Wall -Wextra -Wno-unused-parameter -Werror"

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
