#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Rebuilds the committed s390x trace objects: one .o per catalogue entry, each the entry
# bookkeeping (entry.S) and the vtime C side (vtime.c) of one kernel version, joined with
# `ld -r` into a single relocatable object.
#
#   sh traces/s390/build.sh [OUTDIR]     (default: traces/s390/obj)
#
#   vtime-immediate.o   s390/vtime/immediate   4.10: -DLOWCORE_411 absent, DELAYED absent
#   vtime-delayed.o     s390/vtime/delayed     4.11: -DLOWCORE_411 -DDELAYED
#
# traces/tests/s390_objects.rs compares the objects byte for byte with a rebuild, so the build
# is reproducible: sources are compiled from this directory under their bare names (the name
# lands in the symbol table), without debug info, and the toolchain is recorded in
# OUTDIR/toolchain-version (another gcc or binutils gives other bytes; the test then skips).
#
# Flags, and why:
#   -O2 -march=z196                  the issue's compiler setting (z196: LAAG, load-on-condition,
#                                    the distinct-operands forms such as AGRK/SGRK)
#   -std=gnu11                       statement expressions, __typeof__
#   -ffreestanding -fno-builtin -nostdinc   no libc: nothing may become a memset/memcpy call
#   -fno-pic                         calls are BRASL with PLT32DBL and data LARL/LGRL/STGRL with
#                                    PC32DBL against the harness symbols, no GOT; the harness
#                                    keeps everything within +-4 GB of the code (the kernel is
#                                    not PIC before 4.15's relocatable kernel either)
#   -msoft-float                     the kernel's rule; without it gcc 12 spills GPRs to FPRs
#                                    (LDGR/LGDR), which the integer core need not run
#   -fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables
#                                    no canary, no .eh_frame to load or relocate
#   -fno-strict-aliasing -fno-delete-null-pointer-checks -fno-common   as the kernel's Makefile;
#                                    the null-pointer one is what lets the lowcore at address 0
#                                    be reached through a null-based pointer, as the kernel does
#   --param=min-pagesize=0           gcc 12 otherwise warns about every access through that
#                                    pointer (-Warray-bounds); what the kernel passes for gcc 12
#   -fno-jump-tables                 no .rodata tables of code addresses
#   -Wall -Wextra -Werror            the sources stay warning-free
# entry.S goes through the same gcc driver (the preprocessor for lowcore.h and LOWCORE_411,
# then `as -march=z196`).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/obj}
mkdir -p "$out"
out=$(cd "$out" && pwd)

CROSS=${CROSS:-s390x-linux-gnu-}
CC=${CROSS}gcc
LD=${CROSS}ld
CFLAGS="-O2 -march=z196 -std=gnu11 -ffreestanding -fno-builtin -nostdinc -fno-pic -msoft-float \
-fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-strict-aliasing \
-fno-delete-null-pointer-checks -fno-common -fno-jump-tables --param=min-pagesize=0 \
-Wall -Wextra -Werror"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$here"

# build OBJECT DEFINE...
build() {
	obj=$1
	shift
	# shellcheck disable=SC2086
	"$CC" $CFLAGS "$@" -c entry.S -o "$tmp/entry.o"
	# shellcheck disable=SC2086
	"$CC" $CFLAGS "$@" -c vtime.c -o "$tmp/vtime.o"
	"$LD" -r "$tmp/entry.o" "$tmp/vtime.o" -o "$out/$obj"
}

build vtime-immediate.o
build vtime-delayed.o -DLOWCORE_411 -DDELAYED

{
	"$CC" -dumpfullversion
	"$LD" --version | head -n 1
} > "$out/toolchain-version"
