#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Rebuilds the committed objects of `acctemu bench`'s x86-64 and s390x loops:
#
#   sh traces/bench/build.sh [OUTDIR]     (default: traces/bench/obj)
#
#   x86-loops.o    x86_loops.S    x86_64-linux-gnu-gcc (or gcc on an x86-64 host)
#   s390-loops.o   s390_loops.S   s390x-linux-gnu-gcc
#
# (ia64_loops.S needs no object: acctemu's own assembler assembles it when the bench runs.)
# traces/tests/bench_objects.rs compares the objects byte for byte with a rebuild, so the build
# is reproducible: sources are assembled from this directory under their bare names (the name
# lands in the symbol table), without debug info, and the toolchains are recorded in
# OUTDIR/toolchain-version (another gcc or binutils gives other bytes; the test then skips).
# The sources are plain assembly, so that the instruction counts per iteration can be read off
# them; the gcc driver only preprocesses them (comments) and runs `as`.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/obj}
mkdir -p "$out"
out=$(cd "$out" && pwd)

X86_CC=${X86_CC:-x86_64-linux-gnu-gcc}
S390_CC=${S390_CC:-s390x-linux-gnu-gcc}

cd "$here"

"$X86_CC" -c x86_loops.S -o "$out/x86-loops.o"
"$S390_CC" -march=z196 -c s390_loops.S -o "$out/s390-loops.o"

# version CC: the gcc and the assembler it drives
version() {
	printf 'gcc %s, %s\n' "$("$1" -dumpfullversion)" "$("$("$1" -print-prog-name=as)" --version | head -n 1)"
}

{
	echo "x86-64: $(version "$X86_CC")"
	echo "s390x: $(version "$S390_CC")"
} > "$out/toolchain-version"
