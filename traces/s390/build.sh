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
# The compiler and linker flags, and why each, are in ./cflags (shared with
# traces/src/rebuild.rs); entry.S goes through the same gcc driver.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/obj}
mkdir -p "$out"
out=$(cd "$out" && pwd)

CROSS=${CROSS:-s390x-linux-gnu-}
CC=${CROSS}gcc
LD=${CROSS}ld
# shellcheck source=cflags
. "$here/cflags"

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
	# shellcheck disable=SC2086
	"$LD" $LDFLAGS "$tmp/entry.o" "$tmp/vtime.o" -o "$out/$obj"
}

build vtime-immediate.o
build vtime-delayed.o -DLOWCORE_411 -DDELAYED

{
	"$CC" -dumpfullversion
	"$LD" --version | head -n 1
} > "$out/toolchain-version"
