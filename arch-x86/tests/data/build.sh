#!/bin/sh
# Rebuilds the committed objects of the differential tests from their C sources.
# ops.o: gcc -O2 as a kernel builds (integer registers only) (no PIC: absolute 32S switch tables, PC32 globals);
# ops_pic.o: the same with -fPIC (GOTPCREL globals, PC-relative switch tables);
# flagtest.o: the RFLAGS probes (-mno-red-zone: they push below the stack pointer).
# The staleness test runs these same commands (keep them in sync with tests/differential.rs).
set -eu
cd "$(dirname "$0")"
COMMON="-O2 -c -fno-asynchronous-unwind-tables -fcf-protection=none -fno-stack-protector -mno-red-zone -mgeneral-regs-only"
gcc $COMMON -fno-pic ops.c -o ops.o
gcc $COMMON -fPIC ops.c -o ops_pic.o
gcc $COMMON -fno-pic flagtest.c -o flagtest.o
